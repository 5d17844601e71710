// SPDX-License-Identifier: Apache-2.0
// Timing by interleaved rounds: every variant of a comparison runs once per round, in a fixed
// order, each launch between a pair of CUDA events on one stream, so clock and thermal drift
// fall on all variants alike.
#pragma once

#include "FrameTimings.h"

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <vector>

namespace bench {

/// A timed variant: a launch on the stream, and the milliseconds of its timed rounds.
struct Variant {
    std::string key; ///< unique name in the round
    std::function<void(cudaStream_t)> launch;
    std::vector<float> ms;
};

/// Runs `warmup` rounds, then `rounds` rounds of every variant in order, each timed by a pair
/// of events; appends the timed rounds' milliseconds to each variant's `ms`. Progress goes to
/// stderr under `label`.
void runRounds(std::vector<Variant>& variants, int warmup, int rounds, const std::string& label, cudaStream_t stream);

/// The one summary (vbm::summarize) of event times: median, min, max.
vbm::Summary summaryOf(const std::vector<float>& ms);

/// A non-blocking CUDA stream that is destroyed with its owner.
class Stream {
public:
    Stream();
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return mStream; }

private:
    cudaStream_t mStream = nullptr;
};

} // namespace bench
