// SPDX-License-Identifier: Apache-2.0
// Reference stencil consumers over C interleaved float sidecar channels
// (channel ch of value index i at sidecar[i*C + ch]; index 0 is the background):
// a 27-tap box sum and a 7-point Laplacian. Used by the tests, vbm-check and vbm-bench to
// show that every resolver of a shape gives bitwise the same output.
#pragma once

#include "TreeWalkStencils.h"

#include <cstdint>

namespace vbm {

/// Accumulates sum over taps of sidecar[index*C + ch], in tap order, into acc[C].
template <int C>
struct BoxSumAccumulator {
    const float* sidecar;
    float acc[C] = {};
    __hostdev__ void operator()(int, uint64_t index)
    {
        const float* src = sidecar + index * C;
#if defined(__CUDA_ARCH__)
        // A voxel's C channels are contiguous and 4*C-byte aligned: the widest loads that fit.
        if constexpr (C % 4 == 0) {
            for (int ch = 0; ch < C; ch += 4) {
                const float4 v = __ldg(reinterpret_cast<const float4*>(src + ch));
                acc[ch] += v.x, acc[ch + 1] += v.y, acc[ch + 2] += v.z, acc[ch + 3] += v.w;
            }
        } else if constexpr (C == 2) {
            const float2 v = __ldg(reinterpret_cast<const float2*>(src));
            acc[0] += v.x, acc[1] += v.y;
        } else {
            for (int ch = 0; ch < C; ++ch)
                acc[ch] += src[ch];
        }
#else
        for (int ch = 0; ch < C; ++ch)
            acc[ch] += src[ch];
#endif
    }
};

/// Collects the 7 cross taps from either a cross resolver (taps 0..6) or a box resolver
/// (its taps 13, 4, 22, 10, 16, 12, 14), then evaluates the Laplacian in cross order, so
/// the float sum is the same whichever resolver fed it. Inactive neighbours (index 0)
/// contribute nothing: an insulated (Neumann) boundary.
template <int C, bool FromBox>
struct CrossLaplacian {
    const float* sidecar;
    CrossTaps<FromBox> taps;
    __hostdev__ explicit CrossLaplacian(const float* s) : sidecar(s) {}
    __hostdev__ void operator()(int tap, uint64_t index) { taps(tap, index); }
    __hostdev__ void evaluate(float (&out)[C]) const
    {
        for (int ch = 0; ch < C; ++ch) {
            const float centre = sidecar[taps.n[0] * C + ch];
            float sum = 0.f;
            for (int t = 1; t < CrossTapCount; ++t)
                if (taps.n[t]) sum += sidecar[taps.n[t] * C + ch] - centre;
            out[ch] = sum;
        }
    }
};

} // namespace vbm
