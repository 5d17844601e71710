// Kernel bodies of smoke's projection: centre-to-face velocity with -div u in the same pass,
// the divergence alone (the check after the step), and the pressure gradient's subtraction.
// Faces as in SourceBodies.h (MAC, walls hold 0).
#pragma once

#include "vbm/TreeWalkStencils.h"

#include <cstdint>

namespace vbm::solver {

/// Face velocity: the mean of the two voxels sharing the face; 0 at walls.
template <bool FromBox>
struct FacesFromCentres {
    const float *cu, *cv, *cw;
    float *u, *v, *w;
    /// Non-null: also -div of the new faces, which the cross taps reach too (the -x face is the
    /// mean of the -x voxel's centre and this one's): Divergence's result, without its pass.
    float* negatedDivergence = nullptr;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        const float ui = c.n[2] ? 0.5f * (cu[i] + cu[c.n[2]]) : 0.f;
        const float vi = c.n[4] ? 0.5f * (cv[i] + cv[c.n[4]]) : 0.f;
        const float wi = c.n[6] ? 0.5f * (cw[i] + cw[c.n[6]]) : 0.f;
        u[i] = ui, v[i] = vi, w[i] = wi;
        if (!negatedDivergence) return;
        // the faces the -x, -y, -z voxels write, in Divergence's order
        float d = ui - (c.n[1] ? 0.5f * (cu[c.n[1]] + cu[i]) : 0.f);
        d += vi - (c.n[3] ? 0.5f * (cv[c.n[3]] + cv[i]) : 0.f);
        d += wi - (c.n[5] ? 0.5f * (cw[c.n[5]] + cw[i]) : 0.f);
        negatedDivergence[i] = -d;
    }
};

/// Net outflow of voxel i through its six faces: (u_i - u_-x) + (v_i - v_-y) + (w_i - w_-z),
/// faces towards inactive voxels counting 0.
template <bool FromBox>
struct Divergence {
    const float *u, *v, *w;
    float* out;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        float d = u[i] - (c.n[1] ? u[c.n[1]] : 0.f);
        d += v[i] - (c.n[3] ? v[c.n[3]] : 0.f);
        d += w[i] - (c.n[5] ? w[c.n[5]] : 0.f);
        out[i] = d;
    }
};

/// Subtracts the pressure gradient from the +x, +y, +z faces of voxel i; wall faces get 0.
template <bool FromBox>
struct SubtractGradient {
    const float* p;
    float *u, *v, *w;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        const float pi = p[i];
        u[i] = c.n[2] ? u[i] - (p[c.n[2]] - pi) : 0.f;
        v[i] = c.n[4] ? v[i] - (p[c.n[4]] - pi) : 0.f;
        w[i] = c.n[6] ? w[i] - (p[c.n[6]] - pi) : 0.f;
    }
};

} // namespace vbm::solver
