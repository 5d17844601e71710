// SPDX-License-Identifier: Apache-2.0
// The checks' sidecar consumer as a block body: for one slot, the 27-tap box sum or the 7-point
// Laplacian (box resolvers give it their cross taps) over C interleaved channels, written to
// out[index * C ...]. One body for the host run (TapRuns.cpp) and the CUDA run (DeviceRuns.cu).
#pragma once

#include "vbm/BlockSkeleton.h"
#include "vbm/SidecarConsumers.h"

namespace vbm {

template <int C, bool FromBox>
struct ConsumerBody {
    const float* sidecar;
    float* out;
    bool laplacian;
    template <typename Taps>
    __hostdev__ void operator()(const SlotOf& s, Taps&& taps) const
    {
        float* dst = out + s.index * C;
        if (laplacian) {
            CrossLaplacian<C, FromBox> lap{sidecar};
            taps(lap);
            float value[C];
            lap.evaluate(value);
            for (int ch = 0; ch < C; ++ch)
                dst[ch] = value[ch];
        } else {
            BoxSumAccumulator<C> sum{sidecar};
            taps(sum);
            for (int ch = 0; ch < C; ++ch)
                dst[ch] = sum.acc[ch];
        }
    }
};

} // namespace vbm
