// Reference stencil consumers over C interleaved float sidecar channels
// (channel ch of value index i at sidecar[i*C + ch]; index 0 is the background):
// a 27-tap box sum and a 7-point Laplacian. Used by the tests, vbm-check and vbm-bench to
// show that every resolver of a shape gives bitwise the same output.
#pragma once

#include "TreeWalkStencils.h"

#include <cstdint>

namespace vbm {

/// Accumulates sum over taps of sidecar[index*C + ch], in tap order, into acc[C].
template<int C>
struct BoxSumAccumulator {
    const float* sidecar;
    float acc[C] = {};
    __hostdev__ void operator()(int, uint64_t index)
    {
        for (int ch = 0; ch < C; ++ch) acc[ch] += sidecar[index * C + ch];
    }
};

/// Collects the 7 cross taps from either a cross resolver (taps 0..6) or a box resolver
/// (its taps 13, 4, 22, 10, 16, 12, 14), then evaluates the Laplacian in cross order, so
/// the float sum is the same whichever resolver fed it. Inactive neighbours (index 0)
/// contribute nothing: an insulated (Neumann) boundary.
template<int C, bool FromBox>
struct CrossLaplacian {
    const float* sidecar;
    uint64_t taps[CrossTapCount] = {};
    __hostdev__ void operator()(int tap, uint64_t index)
    {
        if constexpr (FromBox) {
            for (int t = 0; t < CrossTapCount; ++t)
                if (tap == boxTapOfCrossTap(t)) taps[t] = index;
        } else {
            taps[tap] = index;
        }
    }
    __hostdev__ void evaluate(float (&out)[C]) const
    {
        for (int ch = 0; ch < C; ++ch) {
            const float centre = sidecar[taps[0] * C + ch];
            float sum = 0.f;
            for (int t = 1; t < CrossTapCount; ++t)
                if (taps[t]) sum += sidecar[taps[t] * C + ch] - centre;
            out[ch] = sum;
        }
    }
};

} // namespace vbm
