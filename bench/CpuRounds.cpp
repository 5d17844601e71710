// SPDX-License-Identifier: Apache-2.0
// vbm-bench --backend cpu's interleaved rounds (see CpuRounds.h).
#include "CpuRounds.h"

#include <chrono>
#include <cstdio>

namespace bench {

void runCpuRounds(std::vector<CpuVariant>& variants, int warmup, int rounds, const std::string& label)
{
    using Clock = std::chrono::steady_clock;
    auto lastNote = Clock::now();
    for (int round = 0; round < warmup + rounds; ++round) {
        for (CpuVariant& v : variants) {
            if (v.prepare) v.prepare();
            const auto t0 = Clock::now();
            v.run();
            const auto t1 = Clock::now();
            if (round >= warmup) v.ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
        if (Clock::now() - lastNote > std::chrono::seconds(1) || round + 1 == warmup + rounds) {
            std::fprintf(stderr, "[vbm-bench] %s: round %d/%d (%d warm-up)\n", label.c_str(), round + 1,
                         warmup + rounds, warmup);
            lastNote = Clock::now();
        }
    }
}

} // namespace bench
