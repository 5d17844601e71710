// SPDX-License-Identifier: Apache-2.0
// Interleaved timing rounds (see TimingRounds.h).
#include "TimingRounds.h"

#include "CudaCheck.h"

#include <cstdio>

namespace bench {

using vbm::cuda::checkCuda;

void runRounds(std::vector<Variant>& vs, int warmup, int rounds, const std::string& label, cudaStream_t stream)
{
    std::vector<cudaEvent_t> ev(2 * vs.size());
    for (auto& e : ev)
        checkCuda(cudaEventCreate(&e), "cudaEventCreate");
    for (int r = 0; r < warmup + rounds; ++r) {
        for (size_t i = 0; i < vs.size(); ++i) {
            checkCuda(cudaEventRecord(ev[2 * i], stream), "cudaEventRecord");
            vs[i].launch(stream);
            checkCuda(cudaEventRecord(ev[2 * i + 1], stream), "cudaEventRecord");
        }
        checkCuda(cudaGetLastError(), "kernel launch");
        checkCuda(cudaStreamSynchronize(stream), "a timed round");
        if (r >= warmup)
            for (size_t i = 0; i < vs.size(); ++i) {
                float ms = 0;
                checkCuda(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]), "cudaEventElapsedTime");
                vs[i].ms.push_back(ms);
            }
        std::fprintf(stderr, "\r[vbm-bench] %s: %s round %d/%d   ", label.c_str(), r < warmup ? "warm-up" : "timed",
                     r < warmup ? r + 1 : r - warmup + 1, r < warmup ? warmup : rounds);
    }
    std::fprintf(stderr, "\n");
    for (auto& e : ev)
        cudaEventDestroy(e);
}

// Widening float to double is exact, so this matches the float statistics the tables printed
// before they shared vbm::summarize.
vbm::Summary summaryOf(const std::vector<float>& ms)
{
    return vbm::summarize(std::vector<double>(ms.begin(), ms.end()));
}

Stream::Stream() { checkCuda(cudaStreamCreateWithFlags(&mStream, cudaStreamNonBlocking), "cudaStreamCreate"); }

Stream::~Stream()
{
    if (mStream) cudaStreamDestroy(mStream);
}

} // namespace bench
