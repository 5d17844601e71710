// SPDX-License-Identifier: Apache-2.0
// Kernel bodies of the heat step: the explicit update, and the implicit step's right-hand side
// and the element passes around its solve (fixed voxels out of the unknowns and back).
#pragma once

#include "kernels/LaplacianRow.h"

#include <cstdint>

namespace vbm::solver {

/// out = fixed ? x : a*x + b*sum over active neighbours of (x_n' - x), where x_n' is 0 for
/// fixed neighbours when zeroFixedNeighbours (the symmetric form for implicit solves), else x_n.
/// fixed may be null (nothing fixed). Heat explicit: a = 1, b = alpha*dt/h^2; implicit matrix:
/// a = 1, b = -alpha*dt/h^2 with zeroFixedNeighbours; Poisson (-L): a = 0, b = -1.
template <bool FromBox>
struct ApplyLaplacian {
    const float* x;
    const float* fixed;
    float* out;
    float a, b;
    bool zeroFixedNeighbours;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        out[i] = laplacianRow(
            c, i, x[i], [&](uint64_t n) { return x[n]; }, fixed, a, b, zeroFixedNeighbours);
    }
};

/// Sources' fixed temperatures into the RHS of the implicit heat solve: b_i += c * sum of fixed
/// neighbours' T (their coupling moved to the right-hand side keeps the matrix symmetric).
template <bool FromBox>
struct FixedNeighbourRhs {
    const float* t;
    const float* fixed;
    float* b;
    float c;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto cr = gatherCross<FromBox>(taps);
        if (fixed[i] != 0.f) {
            b[i] = 0.f;
            return;
        }
        float s = 0.f;
        for (int k = 1; k < CrossTapCount; ++k)
            if (cr.n[k] && fixed[cr.n[k]] != 0.f) s += t[cr.n[k]];
        b[i] = t[i] + c * s;
    }
};

struct Copy {
    const float* x;
    float* y;
    __hostdev__ void operator()(uint64_t i) const { y[i] = x[i]; }
};

/// Zeroes x where mask is set (fixed unknowns take no part in the solve).
struct ZeroWhere {
    const float* mask;
    float* x;
    __hostdev__ void operator()(uint64_t i) const
    {
        if (mask[i] != 0.f) x[i] = 0.f;
    }
};

/// Where mask is set, y = value[i] (fixed temperatures, emitters).
struct SetWhere {
    const float* mask;
    const float* value;
    float* y;
    __hostdev__ void operator()(uint64_t i) const
    {
        if (mask[i] != 0.f) y[i] = value[i];
    }
};

} // namespace vbm::solver
