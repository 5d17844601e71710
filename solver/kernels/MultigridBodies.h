// SPDX-License-Identifier: Apache-2.0
// Kernel bodies of the multigrid preconditioner (Multigrid.h): the fine level's damped Jacobi
// sweeps and residual through the resolver, the coarse levels' from their neighbour tables,
// the coarsest level's whole solve in one launch, and the tables built once per Domain (cross
// neighbours, children). Level k holds the voxels c >> 1 of level k - 1; its operator is
// 2^k (-L_k) of its own topology (MultigridHierarchy.h). The transfers are in TrilinearTransfer.h.
#pragma once

#include "kernels/LaplacianRow.h"

#include <cstdint>

namespace vbm::solver {

/// A level's first damped Jacobi sweep from zero at one voxel: r / (diagScale diag), 0 where
/// that is 0 (diagScale = scale / omega; diag the voxel's active neighbours). Every body that
/// forms it calls this: on the fine level FineFirstSweep and CG's update (UpdateSolution) store
/// it, and the prolongation onto it (TrilinearProlongOntoFirstSweep) forms it again instead of
/// reading it, which is exact only because all three share this expression; on coarse levels
/// the restriction's FirstSweep and CoarsestJacobi.
__hostdev__ inline float firstSweep(float r, float diag, float diagScale)
{
    const float dd = diagScale * diag;
    return dd != 0.f ? r / dd : 0.f;
}

/// The fine level's first sweep from zero, from the Domain's diagonal. An element body.
struct FineFirstSweep {
    const float* b;
    const uint8_t* diag; ///< Domain::diag
    float* out;
    float diagScale;
    __hostdev__ void operator()(uint64_t i) const { out[i] = firstSweep(b[i], float(diag[i]), diagScale); }
};

/// Damped Jacobi sweep for A = scale*(-L): out = x + omega * (b - A x) / (scale * neighbours).
/// Fixed voxels (the air cells of adaptive scenes; null: none) hold 0, so their neighbours see
/// the Dirichlet value and the cycle stays symmetric on the other voxels.
template <bool FromBox>
struct JacobiSmooth {
    const float* x;
    const float* b;
    const uint8_t* diag; ///< Domain::diag
    float* out;
    float scale, omega;
    const float* fixed = nullptr;
    /// The sweep's value at voxel i, with b[i] (read once: JacobiSmoothDot's product needs it
    /// after the store, which may alias b for all the compiler knows).
    struct Value {
        float out, b;
    };
    template <typename Taps>
    __hostdev__ Value value(uint64_t i, Taps&& taps) const
    {
        const float bi = b[i];
        if (fixed && fixed[i] != 0.f) return {0.f, bi};
        const float xi = x[i];
        const float ax = minusLaplacian(gatherCross<FromBox>(taps), x, xi);
        const float d = scale * float(diag[i]);
        return {d != 0.f ? xi + omega * (bi - scale * ax) / d : 0.f, bi};
    }
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        out[i] = value(i, taps).out;
    }
};

/// JacobiSmooth that also returns b[i] * out[i]: the V-cycle's last sweep on the fine level,
/// where b = r and out = z, gives CG's r.z in the same pass.
template <bool FromBox>
struct JacobiSmoothDot : JacobiSmooth<FromBox> {
    template <typename Taps>
    __hostdev__ double operator()(uint64_t i, Taps&& taps) const
    {
        const auto v = this->value(i, taps);
        this->out[i] = v.out;
        return double(v.b) * double(v.out);
    }
};

/// out = b - scale*(-L) x; 0 at fixed voxels (null: none).
template <bool FromBox>
struct Residual {
    const float* x;
    const float* b;
    float* out;
    float scale;
    const float* fixed = nullptr;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        if (fixed && fixed[i] != 0.f) {
            out[i] = 0.f;
            return;
        }
        const float xi = x[i];
        out[i] = b[i] - scale * minusLaplacian(gatherCross<FromBox>(taps), x, xi);
    }
};

/// The 6 cross neighbours of voxel i (0: none), in cross order, at table[6 i ...]: a coarse
/// level's taps, resolved once at start through the chosen resolver (they are the same for
/// every resolver), so its sweeps run as element passes (TableJacobi, TableResidual): a small
/// level's stencil launch would otherwise spend its time in the decode and staging latency.
template <bool FromBox>
struct StoreCrossNeighbours {
    uint32_t* table;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        for (int t = 1; t < CrossTapCount; ++t)
            table[6 * i + t - 1] = uint32_t(c.n[t]);
    }
};

/// minusLaplacian from a StoreCrossNeighbours table: the same sum in the same order.
__hostdev__ inline float tableMinusLaplacian(const uint32_t* table, uint64_t i, const float* x, float xi)
{
    float ax = 0.f;
    for (int t = 0; t < CrossTapCount - 1; ++t)
        if (const uint32_t n = table[6 * i + t]) ax += xi - x[n];
    return ax;
}

/// A coarse voxel's active neighbours (the diagonal of -L_k) from its table: what
/// CountNeighbours gives, counted in the same order (so no level keeps a diagonal array).
__hostdev__ inline float tableDiag(const uint32_t* table, uint64_t i)
{
    float k = 0.f;
    for (int t = 0; t < CrossTapCount - 1; ++t)
        k += table[6 * i + t] ? 1.f : 0.f;
    return k;
}

/// Whether voxel i of a level is fixed (held at 0, Dirichlet): its `fixed` array is null when
/// the level has no fixed voxels (fixed-topology scenes).
__hostdev__ inline bool isFixed(const float* fixed, uint64_t i) { return fixed && fixed[i] != 0.f; }

/// JacobiSmooth's value at voxel i, its taps from a table; 0 at a fixed voxel.
__hostdev__ inline float tableJacobi(const uint32_t* table, uint64_t i, const float* x, const float* b, float scale,
                                     float omega, const float* fixed)
{
    if (isFixed(fixed, i)) return 0.f;
    const float xi = x[i];
    const float ax = tableMinusLaplacian(table, i, x, xi);
    const float d = scale * tableDiag(table, i);
    return d != 0.f ? xi + omega * (b[i] - scale * ax) / d : 0.f;
}

/// JacobiSmooth on a coarse level, its taps from the level's table. An element body.
struct TableJacobi {
    const uint32_t* table;
    const float* x;
    const float* b;
    float* out;
    float scale, omega;
    const float* fixed; ///< the level's fixed voxels (null: none)
    __hostdev__ void operator()(uint64_t i) const { out[i] = tableJacobi(table, i, x, b, scale, omega, fixed); }
};

/// Residual on a coarse level, its taps from the level's table. An element body.
struct TableResidual {
    const uint32_t* table;
    const float* x;
    const float* b;
    float* out;
    float scale;
    const float* fixed; ///< the level's fixed voxels (null: none): residual 0
    __hostdev__ void operator()(uint64_t i) const
    {
        const float xi = x[i];
        out[i] = isFixed(fixed, i) ? 0.f : b[i] - scale * tableMinusLaplacian(table, i, x, xi);
    }
};

/// The coarsest level's solve of scale*(-L) x = b from x = 0, as steps with a barrier between
/// them (Exec::steps): step 0 the first damped Jacobi sweep (omega b / (scale diag)), steps
/// 1..sweeps more sweeps (sweeps even), the last writes x. The two iterates live in the
/// executor's scratch (shared memory on CUDA: 2 n floats), so a sweep reads no global memory
/// written in the same launch. Sums in cross order, as JacobiSmooth does.
struct CoarsestJacobi {
    const uint32_t* neighbours; ///< StoreCrossNeighbours' table
    const float* b;
    float* x;
    uint64_t n;
    float scale, omega;
    int sweeps;
    const float* fixed; ///< the level's fixed voxels (null: none)
    __hostdev__ void operator()(int step, uint64_t i, float* scratch) const
    {
        float* even = scratch; // step 0's output, and every even step's
        float* odd = scratch + n;
        if (step == 0) {
            even[i] = isFixed(fixed, i) ? 0.f : firstSweep(b[i], tableDiag(neighbours, i), scale / omega);
        } else if (step <= sweeps) {
            const float* in = step % 2 ? even : odd;
            (step % 2 ? odd : even)[i] = tableJacobi(neighbours, i, in, b, scale, omega, fixed);
        } else {
            x[i] = even[i];
        }
    }
};

/// The (up to 8) fine children of each coarse voxel, octants in (x, y, z) order (4a + 2b + k),
/// as base[i] (the smallest child's value index) and one byte per octant in offsets[i] (octant
/// o in byte o): 0 for none, else child - base + 1. The 8 children lie in one leaf of the level
/// above, at leaf offsets o0 + 64a + 8b + k, whose value indices rise with the offset and differ
/// by at most 73, so a byte holds each exactly: 12 bytes per coarse voxel where 8 indices took 32.
struct ChildTable {
    const uint32_t* base = nullptr;
    const uint64_t* offsets = nullptr;
    /// The children of coarse voxel n at octants 4 half .. 4 half + 3 (half 0: x-low); 0 for none.
    __hostdev__ void half(uint64_t n, int half, uint32_t* out) const
    {
        const uint32_t bytes = uint32_t(offsets[n] >> (32 * half)), b0 = base[n];
        for (int k = 0; k < 4; ++k) {
            const uint32_t d = (bytes >> (8 * k)) & 0xffu;
            out[k] = d ? b0 + d - 1 : 0u;
        }
    }
};

/// Octant o's child (0: none) into a ChildTable entry; children[] in octant order.
__hostdev__ inline void packChildren(const uint32_t (&children)[8], uint32_t& base, uint64_t& offsets)
{
    uint32_t lo = 0;
    for (int o = 0; o < 8; ++o)
        if (children[o] && (!lo || children[o] < lo)) lo = children[o];
    base = lo, offsets = 0;
    for (int o = 0; o < 8; ++o)
        if (children[o]) offsets |= uint64_t(children[o] - lo + 1) << (8 * o);
}

/// Fills a ChildTable for the coarse level (its base and offsets arrays), so restriction and
/// prolongation are element passes. A voxel body on the coarse level, run once at start.
struct StoreChildren {
    const IndexGrid* fine;
    const IndexGrid* coarse;
    uint32_t* base;
    uint64_t* offsets;
    __hostdev__ void operator()(uint64_t i, uint32_t leafIndex, uint16_t voxelOffset) const
    {
        const nanovdb::Coord c = leaves(coarse)[leafIndex].offsetToGlobalCoord(voxelOffset);
        auto acc = fine->getAccessor(); // the 8 children share one leaf
        uint32_t children[8];
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b)
                for (int k = 0; k < 2; ++k)
                    children[4 * a + 2 * b + k] =
                        uint32_t(acc.getValue(nanovdb::Coord(2 * c[0] + a, 2 * c[1] + b, 2 * c[2] + k)));
        packChildren(children, base[i], offsets[i]);
    }
};

/// The coarse level's first damped Jacobi sweep from zero, sweep = firstSweep(b) (its diagonal
/// from the table), written by the restriction that makes b: one launch fewer per level.
struct FirstSweep {
    const uint32_t* neighbours = nullptr; ///< the level's StoreCrossNeighbours table (its diagonal: tableDiag)
    float* sweep = nullptr;               ///< null: no sweep
    float diagScale = 0;
    const float* fixed = nullptr; ///< the level's fixed voxels (null: none): sweep 0
    __hostdev__ void operator()(uint64_t i, float b) const
    {
        if (sweep) sweep[i] = isFixed(fixed, i) ? 0.f : firstSweep(b, tableDiag(neighbours, i), diagScale);
    }
};

/// A coarse voxel is fixed (pressure 0, Dirichlet) when one of its children is: the open
/// boundary keeps its type on every level, so a level's operator is the fine one's shape
/// (Dirichlet where the fine level touches open air, Neumann at walls) and not a pure-Neumann
/// one whose near-constant modes the fine problem does not have (docs/solver.md). An element
/// body on the coarse level; `above` is the level above's fixed array (the fine level's air).
struct MarkCoarseFixed {
    ChildTable children;
    const float* above;
    float* fixed;
    __hostdev__ void operator()(uint64_t i) const
    {
        uint32_t kids[8];
        children.half(i, 0, kids);
        children.half(i, 1, kids + 4);
        bool any = false;
        for (int o = 0; o < 8; ++o)
            any = any || (kids[o] && above[kids[o]] != 0.f);
        fixed[i] = any ? 1.f : 0.f;
    }
};

} // namespace vbm::solver
