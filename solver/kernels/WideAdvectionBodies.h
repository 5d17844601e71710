// SPDX-License-Identifier: Apache-2.0
// Smoke's advection with a departure point up to WideReach voxels away (scene `max_cfl` above
// 1, the default): the trilinear corners of the point then lie within 8 voxels of the voxel's
// leaf, so in one of the 27 leaves of its box row. Each corner is one lookup there (the leaf,
// its mask word and a popcount), from the grid's per-leaf table (a cached advection resolver)
// or from a root-down probe (a tree-walk one): the same index either way, so the same sums. One
// substep then carries the plume's top speed of 6-7 voxels per step where the 27 box taps need 7
// substeps.
//
// A long step traced along the voxel's own velocity cuts the corner wherever the flow turns
// (a blob carried round a vortex spirals inwards and loses mass), so the departure and arrival
// points follow the midpoint rule: the velocity is read half way along the straight trace
// (MidpointTrace). Carried half a turn in 12 steps, a blob's shape error is then 0.11 with
// MacCormack against 0.24 for the reference's 84 box substeps (Smoke.WideSubstepsFollowARotation).
//
// The bodies are the box forms' (AdvectionBodies.h) with the corners found by coordinates: the
// same channel loads, the same rule for inactive corners (they read the voxel's own value), the
// same MacCormack correction and bounds. Results differ from the box forms' (one long step is
// not seven short ones), so max_cfl 1 keeps the box forms bit for bit. The bodies read the
// velocity at other voxels, so no output may alias it (Advection.h places the arrays).
#pragma once

#include "SolverTypes.h"
#include "kernels/AdvectionBodies.h"
#include "kernels/HalfFloat.h"
#include "vbm/LeafNeighbourTable.h"

#include <cmath>
#include <cstdint>

namespace vbm::solver {

/// The longest displacement per axis a wide substep reads (the largest max_cfl): a corner at
/// floor(d) + 1 <= 8 voxels from its voxel then stays in the 27 leaves around the voxel's leaf.
inline constexpr float WideReach = float(MaxCfl);

/// Value indices of the voxels around a leaf, at leaf-local coordinates each in [-8, 16): the
/// leaf's box row of neighbour leaves from the grid's per-leaf table (boxTable), or, when that is
/// null, by root-down probes. 0 for an inactive voxel or an absent leaf. Thread-local.
struct LeafReach {
    const IndexGrid* grid;
    const uint32_t* boxTable;
    __hostdev__ VBM_FORCE_INLINE uint32_t indexAt(uint32_t leaf, int x, int y, int z) const
    {
        const uint32_t dir = uint32_t((x + 8) >> 3) * 9u + uint32_t((y + 8) >> 3) * 3u + uint32_t((z + 8) >> 3);
        const uint32_t n =
            boxTable ? boxTable[uint64_t(leaf) * boxTableWidth + dir] : boxNeighbourLeaf(grid, leaf, dir);
        return sliceWord(leaves(grid), n, uint32_t(x) & 7u).index((uint32_t(y) & 7u) << 3 | (uint32_t(z) & 7u));
    }
};

/// Linear interpolation along one axis at offset d from a voxel (d clamped to +-WideReach):
/// weight w0 at offset `lower` = floor(d), w1 at lower + 1.
struct WideAxis {
    int lower;
    float w0, w1;
    __hostdev__ VBM_FORCE_INLINE float at(int corner) const { return corner ? w1 : w0; }
    __hostdev__ VBM_FORCE_INLINE static WideAxis of(float d)
    {
        d = fminf(fmaxf(d, -WideReach), WideReach); // NaN too: a corner must stay within the row's leaves
        const float f = floorf(d), t = d - f;       // exact: f is d without its fraction
        return {int(f), 1.f - t, t};
    }
};

/// Corner c (0..7: x's bit 4, y's 2, z's 1) of the cell the three axes span, from voxel
/// (x, y, z) of leaf `leaf`: its value index by `reach`.
__hostdev__ VBM_FORCE_INLINE uint32_t wideCorner(const LeafReach& reach, uint32_t leaf, int x, int y, int z,
                                                 const WideAxis& ax, const WideAxis& ay, const WideAxis& az, int c)
{
    return reach.indexAt(leaf, x + ax.lower + (c >> 2), y + ay.lower + ((c >> 1) & 1), z + az.lower + (c & 1));
}

/// The product of the axes' weights at corner c, x's first (as cornerWeight).
__hostdev__ VBM_FORCE_INLINE float wideWeight(const WideAxis& ax, const WideAxis& ay, const WideAxis& az, int c)
{
    return ax.at(c >> 2) * ay.at((c >> 1) & 1) * az.at(c & 1);
}

/// The displacement of one substep from voxel (x, y, z) of `leaf` (value index i) by the
/// midpoint rule: sign -1 gives the departure point, i - dt v(i - dt v(i) / 2h) / h, +1 the
/// arrival point, i + dt v(i + dt v(i) / 2h) / h. The velocity half way is trilinear over its
/// 8 corners (an inactive corner reads v(i)), so each component stays within the velocity's
/// own range and the displacement within max_cfl.
struct MidpointTrace {
    const float* cu;
    const float* cv;
    const float* cw;
    float dtOverH;
    LeafReach reach;
    __hostdev__ VBM_FORCE_INLINE void operator()(uint64_t i, uint32_t leaf, int x, int y, int z, float sign,
                                                 WideAxis& dx, WideAxis& dy, WideAxis& dz) const
    {
        const float half = sign * 0.5f * dtOverH, step = sign * dtOverH;
        const WideAxis hx = WideAxis::of(half * cu[i]), hy = WideAxis::of(half * cv[i]),
                       hz = WideAxis::of(half * cw[i]);
        float u = 0.f, v = 0.f, w = 0.f;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
        for (int c = 0; c < 8; ++c) {
            const float weight = wideWeight(hx, hy, hz, c);
            if (weight == 0.f) continue;
            const uint32_t n = wideCorner(reach, leaf, x, y, z, hx, hy, hz, c);
            const uint64_t src = n ? n : i;
            u += weight * cu[src], v += weight * cv[src], w += weight * cw[src];
        }
        dx = WideAxis::of(step * u), dy = WideAxis::of(step * v), dz = WideAxis::of(step * w);
    }
};

/// The corners of a departure point that bound MacCormack's correction, in 18 bits: per axis
/// (x's in the low bits) its lower corner + 8 (4 bits; |lower| <= WideReach) and whether each of
/// its two corners has a nonzero weight. WideAdvect stores it, as a float's bits, so that
/// WideMacCormackCorrect need not trace the departure point again.
struct DepartureCorners {
    __hostdev__ static uint32_t axis(const WideAxis& a)
    {
        return uint32_t(a.lower + 8) | (a.w0 != 0.f ? 16u : 0u) | (a.w1 != 0.f ? 32u : 0u);
    }
    __hostdev__ static float pack(const WideAxis& x, const WideAxis& y, const WideAxis& z)
    {
        return floatOfBits(axis(x) | axis(y) << 6 | axis(z) << 12);
    }
    /// Axis a (0: x) of a packed code: its lower corner, and the weight flags of its two corners.
    __hostdev__ static int lower(uint32_t code, int a) { return int((code >> (6 * a)) & 15u) - 8; }
    __hostdev__ static bool weighted(uint32_t code, int a, int corner)
    {
        return (code >> (6 * a + 4 + corner)) & 1u;
    }
};

/// Advect's semi-Lagrangian substep with the departure point up to WideReach voxels away, by
/// the midpoint rule: a voxel body (body(i, leaf, voxelOffset), decode only). `box` holds the
/// arrays and dtOverH; its outputs must not alias the velocity. With `corners`, each voxel's
/// DepartureCorners go there too.
template <int Channels = AdvectedChannels, bool HalfIn = false>
struct WideAdvect {
    Advect<Channels, HalfIn> box;
    LeafReach reach;
    float* corners = nullptr;
    __hostdev__ void operator()(uint64_t i, uint32_t leaf, uint16_t voxelOffset) const
    {
        const int x = voxelOffset >> 6, y = (voxelOffset >> 3) & 7, z = voxelOffset & 7;
        WideAxis ax, ay, az;
        MidpointTrace{box.cu, box.cv, box.cw, box.dtOverH, reach}(i, leaf, x, y, z, -1.f, ax, ay, az);
        if (corners) corners[i] = DepartureCorners::pack(ax, ay, az);
        float acc[Channels] = {};
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
        for (int c = 0; c < 8; ++c) {
            const float weight = wideWeight(ax, ay, az, c);
            if (weight == 0.f) continue; // a whole displacement on an axis: skip the far corners
            const uint32_t n = wideCorner(reach, leaf, x, y, z, ax, ay, az, c);
            box.accumulate(n ? n : i, weight, acc);
        }
        for (int ch = 0; ch < Channels; ++ch)
            box.out[ch][i] = acc[ch];
    }
};

/// MacCormackCorrect with the departure and arrival points up to WideReach voxels away, both by
/// the midpoint rule: the backward interpolation at the arrival point, the bounds over the
/// forward corners of nonzero weight (WideAdvect's departure point, bit for bit: its
/// DepartureCorners from `corners` when given, else traced again). A voxel body; `box` holds the
/// arrays and dtOverH; its outputs must not alias the velocity, and may alias `corners`, which
/// is read at the voxel's own index before anything is stored.
template <int Channels = 2, bool Half = false>
struct WideMacCormackCorrect {
    MacCormackCorrect<Channels, Half> box;
    LeafReach reach;
    const float* corners = nullptr;
    __hostdev__ void operator()(uint64_t i, uint32_t leaf, uint16_t voxelOffset) const
    {
        const int x = voxelOffset >> 6, y = (voxelOffset >> 3) & 7, z = voxelOffset & 7;
        const MidpointTrace trace{box.cu, box.cv, box.cw, box.dtOverH, reach};
        WideAxis fx, fy, fz, bx, by, bz;
        if (corners) {
            const uint32_t code = bitsOfFloat(corners[i]);
            const auto axis = [&](int a) {
                return WideAxis{DepartureCorners::lower(code, a), DepartureCorners::weighted(code, a, 0) ? 1.f : 0.f,
                                DepartureCorners::weighted(code, a, 1) ? 1.f : 0.f};
            };
            fx = axis(0), fy = axis(1), fz = axis(2);
        } else {
            trace(i, leaf, x, y, z, -1.f, fx, fy, fz);
        }
        trace(i, leaf, x, y, z, 1.f, bx, by, bz);
        float back[Channels] = {}, lo[Channels], hi[Channels];
        for (int ch = 0; ch < Channels; ++ch)
            lo[ch] = 3.4028235e38f, hi[ch] = -3.4028235e38f;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
        for (int c = 0; c < 8; ++c) {
            const float wb = wideWeight(bx, by, bz, c);
            if (wb == 0.f) continue;
            const uint32_t n = wideCorner(reach, leaf, x, y, z, bx, by, bz, c);
            const uint64_t src = n ? n : i;
            for (int ch = 0; ch < Channels; ++ch)
                back[ch] += wb * box.forward[ch][src];
        }
        // each axis's two weights sum to 1, so some corner has nonzero weights on all three and
        // sets the bounds (corner 0 but for a tiny negative d, whose t rounds to 1)
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
        for (int c = 0; c < 8; ++c) {
            if (fx.at(c >> 2) == 0.f || fy.at((c >> 1) & 1) == 0.f || fz.at(c & 1) == 0.f) continue;
            const uint32_t n = wideCorner(reach, leaf, x, y, z, fx, fy, fz, c);
            box.bound(n ? n : i, lo, hi);
        }
        box.correct(i, back, lo, hi);
    }
};

} // namespace vbm::solver
