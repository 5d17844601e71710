// SPDX-License-Identifier: Apache-2.0
// The multigrid's transfer between levels: trilinear prolongation and its exact transpose,
// restriction, with links cut where the box between two coarse voxels is not all active.
#pragma once

#include "kernels/MultigridBodies.h"

#include <cstdint>

namespace vbm::solver {

// loops over the 27 offsets and 8 octants unrolled, so their index arrays stay in registers
#if defined(__CUDA_ARCH__)
#define VBM_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define VBM_UNROLL _Pragma("GCC unroll 27")
#else
#define VBM_UNROLL
#endif

/// Trilinear transfer between cell-centred levels. A fine voxel at octant (a, b, k) of its parent
/// c sits a quarter of a coarse voxel from c's centre towards the signs s = 2(a, b, k) - 1, so
/// linear interpolation takes 3/4 from c and 1/4 from c + s along each axis: weights 27/64 (c),
/// 9/64 (faces), 3/64 (edges), 1/64 (corner) over the 8 coarse voxels c + d, d in {0, s}^3.
/// c + d takes part when every voxel of the box spanned by c and c + d is active (so a wall or
/// an obstacle between them cuts the link); otherwise its weight goes to c (constant
/// extrapolation, as a Neumann wall wants; constants stay constants). That rule is symmetric in
/// c and c + d, so restriction, the exact transpose, decides the same from the other end and the
/// V-cycle stays symmetric. Against piecewise-constant transfer: 6 CG iterations instead of 10
/// on the 4.2M plume (docs/solver.md).
namespace trilinear {
/// The two neighbours of voxel i (0: none) along axis (0, 1, 2), -1 and +1, from its cross-neighbour
/// table; 0 where inactive. One 8-byte load (the pair is adjacent and 8-byte aligned): these
/// gathers are what restriction and prolongation spend their time on.
struct Hops {
    uint32_t minus = 0, plus = 0;
};
__hostdev__ inline Hops hops(const uint32_t* table, uint32_t i, int axis)
{
    if (!i) return {};
    const uint32_t* p = table + 6 * uint64_t(i) + 2 * axis;
#if defined(__CUDA_ARCH__)
    const uint2 v = *reinterpret_cast<const uint2*>(p);
    return {v.x, v.y};
#else
    return {p[0], p[1]};
#endif
}
/// Slot of offset (dx, dy, dz), components in {-1, 0, 1}, in a 27-entry array.
__hostdev__ constexpr int slot(int dx, int dy, int dz) { return 9 * (dx + 1) + 3 * (dy + 1) + (dz + 1); }

/// The 3x3x3 neighbourhood of voxel i through its cross-neighbour table: n[slot] the value index
/// of each neighbour reached by hops in x, y, z order (0 where a hop leaves the domain; 26 hops,
/// sharing prefixes), and linked, bit slot set where the box from i to that neighbour is all
/// active. A walk inside a full box never leaves it, so every box voxel is found when the box
/// is full, and a missing one clears the bit.
struct Neighbourhood {
    uint32_t n[27];
    uint32_t linked = 0;
    __hostdev__ Neighbourhood(const uint32_t* table, uint32_t i)
    {
        const Hops hx = hops(table, i, 0);
        VBM_UNROLL
        for (int a = -1; a <= 1; ++a) {
            const uint32_t na = a ? (a < 0 ? hx.minus : hx.plus) : i;
            const Hops hy = hops(table, na, 1);
            VBM_UNROLL
            for (int b = -1; b <= 1; ++b) {
                const uint32_t nb = b ? (b < 0 ? hy.minus : hy.plus) : na;
                const Hops hz = hops(table, nb, 2);
                n[slot(a, b, -1)] = hz.minus, n[slot(a, b, 0)] = nb, n[slot(a, b, 1)] = hz.plus;
            }
        }
        linked = boxesFull(n);
    }
    /// Bit e set where every voxel of the box from the centre to offset e is found: e's bit
    /// ANDed with the centre plane's along x, then the plane's centre row's along y, then the
    /// row's centre along z, so each bit ends as the AND over the box's (up to) 8 voxels. A few
    /// word operations where testing each box's voxels took about 27 x 7.
    __hostdev__ static uint32_t boxesFull(const uint32_t (&n)[27])
    {
        uint32_t l = 0;
        VBM_UNROLL
        for (int e = 0; e < 27; ++e)
            l |= uint32_t(n[e] != 0) << e;
        const uint32_t planes = (l >> 9) & 0x1ffu; // slots 9-17: offset x = 0
        l &= planes | planes << 9 | planes << 18;
        const uint32_t rows = (l >> 3) & 0x1c0e07u; // each plane's row y = 0
        l &= rows | rows << 3 | rows << 6;
        const uint32_t centres = (l >> 1) & 0x1249249u; // each row's z = 0
        return l & (centres | centres << 1 | centres << 2);
    }
    __hostdev__ bool isLinked(int s) const { return (linked >> s) & 1u; }
};

/// The weight of an offset: 3/4 per zero component, 1/4 per other.
__hostdev__ constexpr float weight(int dx, int dy, int dz)
{
    return (dx ? 0.25f : 0.75f) * (dy ? 0.25f : 0.75f) * (dz ? 0.25f : 0.75f);
}
/// The signs of octant o (children table order): -1 or +1 per axis.
__hostdev__ constexpr int sign(int o, int axis) { return (o >> (2 - axis)) & 1 ? 1 : -1; }
/// Offset component of interpolation partner m (0..7, m = 0 the parent) of a child at octant o.
__hostdev__ constexpr int partner(int o, int m, int axis) { return (m >> (2 - axis)) & 1 ? sign(o, axis) : 0; }

/// A coarse voxel as a prolongation sees it: its neighbourhood, its value and its children.
struct Parent {
    Neighbourhood nb;
    float own;
    uint32_t kids[8];
    __hostdev__ Parent(const uint32_t* neighbours, const ChildTable& children, const float* xc, uint64_t i)
        : nb(neighbours, uint32_t(i)), own(xc[i])
    {
        children.half(i, 0, kids);
        children.half(i, 1, kids + 4);
    }
    /// The interpolation of xc at the child in octant o, its 8 terms in a fixed order (d in {0, s}^3).
    __hostdev__ float interpolate(const float* xc, int o) const
    {
        float v = 0.f;
        VBM_UNROLL
        for (int m = 0; m < 8; ++m) {
            const int dx = partner(o, m, 0), dy = partner(o, m, 1), dz = partner(o, m, 2);
            const int e = slot(dx, dy, dz);
            v += weight(dx, dy, dz) * (nb.isLinked(e) ? xc[nb.n[e]] : own);
        }
        return v;
    }
};
} // namespace trilinear

/// Coarse voxel i adds the trilinear interpolation of xc to each of its children. Every
/// fine voxel has one parent, so no two threads write one voxel. An element body on the coarse level.
struct TrilinearProlongAdd {
    const uint32_t* neighbours; ///< the coarse level's StoreCrossNeighbours table
    ChildTable children;        ///< StoreChildren's table
    const float* xc;
    float* x;
    const float* fixed = nullptr; ///< fixed voxels of the level above (its air cells; null: none) keep 0
    __hostdev__ void operator()(uint64_t i) const
    {
        const trilinear::Parent p(neighbours, children, xc, i);
        // every load before the first store: x may alias xc for all the compiler knows, so a
        // store between them would make each child's loads wait for the last child's store
        float out[8];
        uint32_t write = 0;
        VBM_UNROLL
        for (int o = 0; o < 8; ++o) {
            const uint32_t child = p.kids[o];
            const bool moves = child && !(fixed && fixed[child] != 0.f);
            out[o] = moves ? x[child] + p.interpolate(xc, o) : 0.f;
            write |= uint32_t(moves) << o;
        }
        VBM_UNROLL
        for (int o = 0; o < 8; ++o)
            if ((write >> o) & 1u) x[p.kids[o]] = out[o];
    }
};

/// TrilinearProlongAdd onto the fine level's first sweep, formed here from r (firstSweep)
/// rather than read: x = firstSweep(r) + the interpolation, and firstSweep(r) alone on fixed
/// voxels, the same bits as that sweep stored and then added to. Every fine voxel has a parent,
/// so this writes all of x, and reads r (4 bytes) and the diagonal (1) where TrilinearProlongAdd
/// read x (4) before its write.
struct TrilinearProlongOntoFirstSweep {
    const uint32_t* neighbours; ///< the coarse level's StoreCrossNeighbours table
    ChildTable children;        ///< StoreChildren's table
    const float* xc;
    const float* r;      ///< the fine level's right-hand side (CG's r)
    const uint8_t* diag; ///< the fine level's diagonal
    float diagScale;     ///< firstSweep's
    float* x;
    const float* fixed = nullptr; ///< the fine level's air cells (null: none)
    __hostdev__ void operator()(uint64_t i) const
    {
        const trilinear::Parent p(neighbours, children, xc, i);
        float out[8]; // every load before the first store, as TrilinearProlongAdd
        VBM_UNROLL
        for (int o = 0; o < 8; ++o) {
            const uint32_t child = p.kids[o];
            const float sweep = child ? firstSweep(r[child], float(diag[child]), diagScale) : 0.f;
            out[o] = !child || (fixed && fixed[child] != 0.f) ? sweep : sweep + p.interpolate(xc, o);
        }
        VBM_UNROLL
        for (int o = 0; o < 8; ++o)
            if (p.kids[o]) x[p.kids[o]] = out[o];
    }
};

/// The transpose of TrilinearProlongAdd: coarse voxel i gathers each fine
/// voxel's r times the weight that fine voxel's interpolation gives i. An element body on the
/// coarse level.
struct TrilinearRestrict {
    // CUDA: at most 40 registers, 6 blocks per SM where 48 allowed 5: the level-1 launch, which
    // waits on its gathers, 57.3 -> 52.8 us for 28 bytes spilled (on the H200; the prolongation
    // under the same bounds spilled 44 bytes and gained nothing)
    static constexpr int MinBlocksPerSm = 6;
    const uint32_t* neighbours; ///< the coarse level's StoreCrossNeighbours table
    ChildTable children;        ///< StoreChildren's table
    const float* r;
    float* out;
    FirstSweep first;
    __hostdev__ void operator()(uint64_t i) const
    {
        const trilinear::Neighbourhood nb(neighbours, uint32_t(i));
        float sum = 0.f;
        uint32_t kids[8];
        children.half(i, 0, kids);
        children.half(i, 1, kids + 4);
        // own children: 27/64 plus the weights of the unlinked voxels of their interpolation
        VBM_UNROLL
        for (int o = 0; o < 8; ++o) {
            const uint32_t child = kids[o];
            if (!child) continue;
            float w = 0.f;
            VBM_UNROLL
            for (int m = 0; m < 8; ++m) {
                const int dx = trilinear::partner(o, m, 0), dy = trilinear::partner(o, m, 1),
                          dz = trilinear::partner(o, m, 2);
                if (!m || !nb.isLinked(trilinear::slot(dx, dy, dz))) w += trilinear::weight(dx, dy, dz);
            }
            sum += w * r[child];
        }
        // the children of each linked neighbour i + e that face i (octant sign -e where e is not 0)
        VBM_UNROLL
        for (int e = 0; e < 27; ++e) {
            const int ex = e / 9 - 1, ey = (e / 3) % 3 - 1, ez = e % 3 - 1;
            if (e == 13 || !nb.isLinked(e)) continue;
            const float w = trilinear::weight(ex, ey, ez);
            // the facing children: one half of the row when e leaves x, both when it does not
            uint32_t facing[8] = {};
            if (ex <= 0) children.half(nb.n[e], 1, facing + 4);
            if (ex >= 0) children.half(nb.n[e], 0, facing);
            VBM_UNROLL
            for (int o = 0; o < 8; ++o) {
                if ((ex && trilinear::sign(o, 0) != -ex) || (ey && trilinear::sign(o, 1) != -ey) ||
                    (ez && trilinear::sign(o, 2) != -ez))
                    continue;
                if (const uint32_t child = facing[o]) sum += w * r[child];
            }
        }
        out[i] = sum;
        first(i, sum);
    }
};

} // namespace vbm::solver
