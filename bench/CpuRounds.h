// SPDX-License-Identifier: Apache-2.0
// vbm-bench --backend cpu's timing: every variant once per round in a fixed order (interleaved, so drift
// and a busy neighbour fall on all variants alike), each run between two steady-clock reads.
#pragma once

#include "FrameTimings.h"

#include <functional>
#include <string>
#include <vector>

namespace bench {

/// A timed CPU variant: untimed set-up, the timed work, and its timed rounds' milliseconds.
struct CpuVariant {
    std::string key; ///< unique name in the round
    std::function<void()> prepare; ///< may be empty
    std::function<void()> run;
    std::vector<double> ms;
};

/// Runs `warmup` rounds, then `rounds` timed rounds of every variant in order; progress on
/// stderr under `label`, about once a second.
void runCpuRounds(std::vector<CpuVariant>& variants, int warmup, int rounds, const std::string& label);

} // namespace bench
