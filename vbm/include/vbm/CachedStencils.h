// SPDX-License-Identifier: Apache-2.0
// The cached resolvers: the thread block stages, for each leaf it spans, the indices of
// the neighbour leaves a tap can reach; each tap is then a lookup in one leaf, by the
// arithmetic the tree-walk resolvers share (LeafTaps.h), with the table in place of walks.
//
// Each form is stage + barrier + resolve. `stage...Table` and `...Resolve` are
// __hostdev__: the CUDA forms at the bottom call stage (all threads), __syncthreads(),
// resolve; the host block executor calls stage once per block, then resolve per slot.
// Blocks spanning more than MaxCachedLeaves leaves stage nothing and resolve by the tree
// walk (TreeWalkStencils.h), with the same result. Tap orders: see TreeWalkStencils.h.
#pragma once

#include "DecodeInverseMap.h"
#include "LeafNeighbourTable.h"
#include "TreeWalkStencils.h"
#include "VoxelBlockManager.h"

#include <cstdint>

namespace vbm {

/// Neighbour leaves of each spanned leaf, by box direction (di+1)*9 + (dj+1)*3 + (dk+1).
/// 16 x 27 x 4 B = 1,728 B of shared memory.
struct BoxStencilTable {
    uint32_t leaf[MaxCachedLeaves][BoxTapCount];
};

/// Neighbour leaves of each spanned leaf: self, -x, +x, -y, +y, -z, +z. 16 x 7 x 4 B = 448 B.
struct CrossStencilTable {
    uint32_t leaf[MaxCachedLeaves][CrossTapCount];
};

/// A block's leaf span when the caller already has it (decodeSlotInWarp gives it with the
/// decode), else 0: the stage and the resolve then count it from the jump map.
inline constexpr uint32_t UnknownSpan = 0;

/// blockLeafSpan, or `knownSpan` when the caller has it (at width 512 the count is 8 words).
template <int Log2BlockWidth>
__hostdev__ inline uint32_t spanOf(const uint64_t* jumpMap, uint32_t knownSpan)
{
    return knownSpan != UnknownSpan ? knownSpan : blockLeafSpan<Log2BlockWidth>(jumpMap);
}

/// True when the block's leaves fit in the table (else the cached forms walk the tree).
template <int Log2BlockWidth>
__hostdev__ inline bool blockIsCached(const uint64_t* jumpMap, uint32_t knownSpan = UnknownSpan)
{
    return spanOf<Log2BlockWidth>(jumpMap, knownSpan) <= uint32_t(MaxCachedLeaves);
}

/// Streams the 27 box taps of a voxel from its leaf's row of neighbour leaves (a staged
/// table's or a per-leaf table's, LeafNeighbourTable.h: 27 entries by box direction).
/// Thread-local.
template <typename F>
__hostdev__ inline void forEachBoxStencilFromRow(const IndexGrid* grid, uint16_t voxelOffset, const uint32_t* row,
                                                 F&& f)
{
    forEachBoxTapOf(
        leaves(grid), voxelOffset, [row](uint32_t lx, uint32_t ly, uint32_t lz) { return row[lx * 9 + ly * 3 + lz]; },
        f);
}

/// Streams the 8 box taps of octant (sx, sy, sz) of a voxel (forEachBoxOctantTapOf) from its
/// leaf's row of neighbour leaves. Thread-local.
template <typename F>
__hostdev__ inline void forEachBoxOctantFromRow(const IndexGrid* grid, uint16_t voxelOffset, const uint32_t* row,
                                                int sx, int sy, int sz, F&& f)
{
    forEachBoxOctantTapOf(
        leaves(grid), voxelOffset, sx, sy, sz,
        [row](uint32_t lx, uint32_t ly, uint32_t lz) { return row[lx * 9 + ly * 3 + lz]; }, f);
}

/// The 7 cross taps of a voxel from its leaf's row of neighbour leaves (7 entries: self, -x,
/// +x, -y, +y, -z, +z). `centre`: the voxel's value index where known (crossTapsOf). Thread-local.
__hostdev__ inline void computeCrossStencilFromRow(const IndexGrid* grid, uint32_t leafIndex, uint16_t voxelOffset,
                                                   const uint32_t* row, uint64_t (&taps)[CrossTapCount],
                                                   uint32_t centre = UnknownIndex)
{
    crossTapsOf(
        leaves(grid), leafIndex, voxelOffset, [row](int tap) { return row[tap]; }, taps, centre);
}

// ------------------------------------------------------------------------------- box

/// Fills the box table for the block's spanned leaves. Thread `thread` of `threadCount`
/// fills every threadCount-th entry; all threads of the block must call it with the same
/// block, and the table may be read only after all have (a barrier on the device).
template <int Log2BlockWidth>
__hostdev__ inline void stageBoxStencilTable(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                             BoxStencilTable& table, uint32_t thread, uint32_t threadCount,
                                             uint32_t knownSpan = UnknownSpan)
{
    const uint32_t span = spanOf<Log2BlockWidth>(jumpMap, knownSpan);
    if (span > uint32_t(MaxCachedLeaves)) return;
    for (uint32_t e = thread; e < span * BoxTapCount; e += threadCount) {
        const uint32_t l = e / BoxTapCount, dir = e - l * BoxTapCount;
        table.leaf[l][dir] = boxNeighbourLeaf(grid, firstLeafID + l, dir);
    }
}

/// Streams (tap, index) for the 27 box taps, in tap order, to f, from a staged table.
/// Thread-local once the table is staged.
template <int Log2BlockWidth, typename F>
__hostdev__ inline void forEachBoxStencilCachedResolve(const IndexGrid* grid, uint32_t firstLeafID,
                                                       const uint64_t* jumpMap, uint32_t leafIndex,
                                                       uint16_t voxelOffset, const BoxStencilTable& table, F&& f,
                                                       uint32_t knownSpan = UnknownSpan)
{
    if (leafIndex == UnusedLeafIndex) return;
    if (!blockIsCached<Log2BlockWidth>(jumpMap, knownSpan)) {
        forEachBoxStencil(grid, leafIndex, voxelOffset, f);
        return;
    }
    forEachBoxStencilFromRow(grid, voxelOffset, table.leaf[leafIndex - firstLeafID], f);
}

/// Materializes the 27 box taps from a staged table: the streamed form's slice words and row
/// popcounts, written to the array. Thread-local once the table is staged.
template <int Log2BlockWidth>
__hostdev__ inline void
computeBoxStencilCachedResolve(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap, uint32_t leafIndex,
                               uint16_t voxelOffset, const BoxStencilTable& table, uint64_t (&taps)[BoxTapCount],
                               uint32_t knownSpan = UnknownSpan)
{
    forEachBoxStencilCachedResolve<Log2BlockWidth>(
        grid, firstLeafID, jumpMap, leafIndex, voxelOffset, table,
        [&](int tap, uint64_t index) { taps[tap] = index; }, knownSpan);
}

// ----------------------------------------------------------------------------- cross

/// Fills the cross table (self, -x, +x, -y, +y, -z, +z per spanned leaf). Cooperative
/// in the same way as stageBoxStencilTable.
template <int Log2BlockWidth>
__hostdev__ inline void stageCrossStencilTable(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                               CrossStencilTable& table, uint32_t thread, uint32_t threadCount,
                                               uint32_t knownSpan = UnknownSpan)
{
    const uint32_t span = spanOf<Log2BlockWidth>(jumpMap, knownSpan);
    if (span > uint32_t(MaxCachedLeaves)) return;
    for (uint32_t e = thread; e < span * CrossTapCount; e += threadCount) {
        const uint32_t l = e / CrossTapCount, dir = e - l * CrossTapCount;
        table.leaf[l][dir] = crossNeighbourLeaf(grid, firstLeafID + l, dir);
    }
}

/// Materializes the 7 cross taps from a staged table. Thread-local once the table is staged.
/// The six neighbours inside the voxel's own leaf come, branch-free, from three mask words and
/// the centre's index (a neighbour's index is the centre's plus or minus the active voxels
/// between them); then, per axis, a voxel on the leaf's face replaces the tap that leaves it by
/// a lookup in the neighbour leaf. A warp so runs at most three neighbour lookups, not six
/// pairs of both paths; indices are 32-bit sums. `centre`: the voxel's value index where the
/// caller knows it (the skeletons do), which saves reading the leaf's prefix sums.
template <int Log2BlockWidth>
__hostdev__ inline void computeCrossStencilCachedResolve(const IndexGrid* grid, uint32_t firstLeafID,
                                                         const uint64_t* jumpMap, uint32_t leafIndex,
                                                         uint16_t voxelOffset, const CrossStencilTable& table,
                                                         uint64_t (&taps)[CrossTapCount],
                                                         uint32_t knownSpan = UnknownSpan,
                                                         uint32_t centre = UnknownIndex)
{
    if (leafIndex == UnusedLeafIndex) return;
    if (!blockIsCached<Log2BlockWidth>(jumpMap, knownSpan)) {
        computeCrossStencil(grid, leafIndex, voxelOffset, taps, centre);
        return;
    }
    computeCrossStencilFromRow(grid, leafIndex, voxelOffset, table.leaf[leafIndex - firstLeafID], taps, centre);
}

// ------------------------------------------------------------------- CUDA cooperative forms
#if defined(__CUDACC__)

/// Cached box resolver, materialized. Cooperative: every thread of the block must call it
/// (also threads whose slot decoded to UnusedLeafIndex), with the block's metadata. A second
/// call on the same table needs a __syncthreads() before it.
template <int Log2BlockWidth>
__device__ inline void computeBoxStencilCached(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                               uint32_t leafIndex, uint16_t voxelOffset, BoxStencilTable& table,
                                               uint64_t (&taps)[BoxTapCount])
{
    stageBoxStencilTable<Log2BlockWidth>(grid, firstLeafID, jumpMap, table, threadIdx.x, blockDim.x);
    __syncthreads();
    computeBoxStencilCachedResolve<Log2BlockWidth>(grid, firstLeafID, jumpMap, leafIndex, voxelOffset, table, taps);
}

/// Cached box resolver, streamed to f(tap, index). Cooperative, as computeBoxStencilCached.
template <int Log2BlockWidth, typename F>
__device__ inline void forEachBoxStencilCached(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                               uint32_t leafIndex, uint16_t voxelOffset, BoxStencilTable& table, F&& f)
{
    stageBoxStencilTable<Log2BlockWidth>(grid, firstLeafID, jumpMap, table, threadIdx.x, blockDim.x);
    __syncthreads();
    forEachBoxStencilCachedResolve<Log2BlockWidth>(grid, firstLeafID, jumpMap, leafIndex, voxelOffset, table, f);
}

/// Cached cross resolver, materialized. Cooperative, as computeBoxStencilCached.
template <int Log2BlockWidth>
__device__ inline void computeCrossStencilCached(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                                 uint32_t leafIndex, uint16_t voxelOffset, CrossStencilTable& table,
                                                 uint64_t (&taps)[CrossTapCount])
{
    stageCrossStencilTable<Log2BlockWidth>(grid, firstLeafID, jumpMap, table, threadIdx.x, blockDim.x);
    __syncthreads();
    computeCrossStencilCachedResolve<Log2BlockWidth>(grid, firstLeafID, jumpMap, leafIndex, voxelOffset, table, taps);
}

#endif

} // namespace vbm
