// SPDX-License-Identifier: Apache-2.0
// Kernel bodies of smoke's projection: centre-to-face velocity with -div u in the same pass,
// the divergence alone (the check after the step), and the pressure gradient's subtraction.
// Faces as in SourceBodies.h (MAC, walls hold 0).
#pragma once

#include "kernels/ActiveSetBodies.h"
#include "vbm/TreeWalkStencils.h"

#include <cstdint>

namespace vbm::solver {

/// Face velocity: the mean of the two voxels sharing the face; 0 at walls; an air cell's open
/// face takes its own centre's value. An air cell's -div u is 0 (its pressure is fixed).
/// With air null (fixed topologies) every inactive neighbour is a wall.
template <bool FromBox>
struct FacesFromCentres {
    const float *cu, *cv, *cw;
    float *u, *v, *w;
    /// Non-null: also -div of the new faces, which the cross taps reach too (the -x face is the
    /// mean of the -x voxel's centre and this one's): Divergence's result, without its pass.
    float* negatedDivergence = nullptr;
    const float* air = nullptr;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        const auto face = [&](const float* f, int t) {
            return c.n[t] ? 0.5f * (f[i] + f[c.n[t]]) : (openFace(air, i, t) ? f[i] : 0.f);
        };
        const float ui = face(cu, 2), vi = face(cv, 4), wi = face(cw, 6);
        // every load before the first store (the outputs may alias the centres for all the
        // compiler knows: a store between would hold the later loads back)
        float d = 0.f;
        const bool divergence = negatedDivergence && !(air && air[i] != 0.f);
        if (divergence) { // the faces the -x, -y, -z voxels write, in Divergence's order
            d = ui - (c.n[1] ? 0.5f * (cu[c.n[1]] + cu[i]) : 0.f);
            d += vi - (c.n[3] ? 0.5f * (cv[c.n[3]] + cv[i]) : 0.f);
            d += wi - (c.n[5] ? 0.5f * (cw[c.n[5]] + cw[i]) : 0.f);
        }
        u[i] = ui, v[i] = vi, w[i] = wi;
        if (negatedDivergence) negatedDivergence[i] = divergence ? -d : 0.f;
    }
};

/// Net outflow of voxel i through its six faces: (u_i - u_-x) + (v_i - v_-y) + (w_i - w_-z),
/// faces towards inactive voxels counting 0; 0 at air cells (their pressure is not solved for).
template <bool FromBox>
struct Divergence {
    const float *u, *v, *w;
    float* out;
    const float* air = nullptr;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        if (air && air[i] != 0.f) {
            out[i] = 0.f;
            return;
        }
        const auto c = gatherCross<FromBox>(taps);
        float d = u[i] - (c.n[1] ? u[c.n[1]] : 0.f);
        d += v[i] - (c.n[3] ? v[c.n[3]] : 0.f);
        d += w[i] - (c.n[5] ? w[c.n[5]] : 0.f);
        out[i] = d;
    }
};

/// Subtracts the pressure gradient from the +x, +y, +z faces of voxel i; wall faces get 0; an
/// air cell's open face keeps its velocity (the pressure is 0 on both sides).
template <bool FromBox>
struct SubtractGradient {
    const float* p;
    float *u, *v, *w;
    const float* air = nullptr;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        const float pi = p[i];
        const auto face = [&](float* f, int t) {
            return c.n[t] ? f[i] - (p[c.n[t]] - pi) : (openFace(air, i, t) ? f[i] : 0.f);
        };
        const float ui = face(u, 2), vi = face(v, 4), wi = face(w, 6); // the loads before the stores
        u[i] = ui, v[i] = vi, w[i] = wi;
    }
};

} // namespace vbm::solver
