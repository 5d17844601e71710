// SPDX-License-Identifier: Apache-2.0
// The graph Laplacian's row arithmetic, which every body applying it shares (heat, the CG
// products, the multigrid sweeps), so they all sum in one fixed order: cross taps centre, -x,
// +x, -y, +y, -z, +z. And the Laplacian's diagonal (a voxel's active neighbours), which the
// Domain computes once for the Jacobi preconditioner and the multigrid.
//
// Conventions of every kernel body (kernels/*.h): fields are one float array per channel,
// indexed by value index; index 0 is the background and is never written. A stencil body gets
// its voxel's value index and a `taps(f)` that streams (tap, index) from the chosen resolver;
// an element body gets a value index. One __hostdev__ body serves both backends, and the result
// is bitwise the same whichever resolver produced the taps. A body makes all its loads before its
// first store: two float arrays may alias for all the compiler knows, so a store before a load
// holds that load (and what waits on it) back until the store is done (measured on the H200).
#pragma once

#include "vbm/TreeWalkStencils.h"
#include "vbm/VoxelBlockManager.h"

#include <cstdint>

namespace vbm::solver {

/// sum over active neighbours of (x_i - x_n): row i of (-L) x, summed in cross order.
template <bool FromBox>
__hostdev__ inline float minusLaplacian(const CrossTaps<FromBox>& c, const float* x, float xi)
{
    float ax = 0.f;
    for (int t = 1; t < CrossTapCount; ++t)
        if (c.n[t]) ax += xi - x[c.n[t]];
    return ax;
}

/// Row i of (a I + b L) applied to the values value(n), xi = value(i); identity on a fixed
/// voxel; a fixed neighbour reads 0 when zeroFixedNeighbours. One fixed order of the sum, which
/// every body applying the Laplacian shares.
template <typename Cross, typename Value>
__hostdev__ inline float laplacianRow(const Cross& c, uint64_t i, float xi, const Value& value, const float* fixed,
                                      float a, float b, bool zeroFixedNeighbours)
{
    if (fixed && fixed[i] != 0.f) return xi;
    float sum = 0.f;
    for (int t = 1; t < CrossTapCount; ++t) {
        const uint64_t n = c.n[t];
        if (!n) continue;
        const float xn = (zeroFixedNeighbours && fixed && fixed[n] != 0.f) ? 0.f : value(n);
        sum += xn - xi;
    }
    return a * xi + b * sum;
}

/// Number of active neighbours (the diagonal of -L), for Jacobi preconditioning: 0..6, kept
/// in a byte (float(diag[i]) is exactly the count a float array held).
template <bool FromBox>
struct CountNeighbours {
    uint8_t* out;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        uint8_t k = 0;
        for (int t = 1; t < CrossTapCount; ++t)
            k = uint8_t(k + (c.n[t] ? 1 : 0));
        out[i] = k;
    }
};

} // namespace vbm::solver
