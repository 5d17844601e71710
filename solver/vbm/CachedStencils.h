// The cached resolvers: the thread block stages, for each leaf it spans, the indices of
// the neighbour leaves a tap can reach; each tap is then a lookup in one leaf. The box reads
// the mask word of an x-slice once for its 9 taps (SliceWord). The cross's taps inside the
// voxel's own leaf skip even the table: three mask words and popcounts give their index
// relative to the voxel's own (InLeafNeighbourhood).
//
// Each form is stage + barrier + resolve. `stage...Table` and `...Resolve` are
// __hostdev__: the CUDA forms at the bottom call stage (all threads), __syncthreads(),
// resolve; the host block executor calls stage once per block, then resolve per slot.
// Blocks spanning more than MaxCachedLeaves leaves stage nothing and resolve by the tree
// walk (TreeWalkStencils.h), with the same result. Tap orders: see TreeWalkStencils.h.
#pragma once

#include "DecodeInverseMap.h"
#include "TreeWalkStencils.h"
#include "VoxelBlockManager.h"

#include <cstdint>

namespace vbm {

/// Table entry of a neighbour leaf that does not exist.
inline constexpr uint32_t AbsentLeaf = 0xffffffffu;

/// Neighbour leaves of each spanned leaf, by box direction (di+1)*9 + (dj+1)*3 + (dk+1).
/// 16 x 27 x 4 B = 1,728 B of shared memory.
struct BoxStencilTable {
    uint32_t leaf[MaxCachedLeaves][BoxTapCount];
};

/// Neighbour leaves of each spanned leaf: self, -x, +x, -y, +y, -z, +z. 16 x 7 x 4 B = 448 B.
struct CrossStencilTable {
    uint32_t leaf[MaxCachedLeaves][CrossTapCount];
};

/// True when the block's leaves fit in the table (else the cached forms walk the tree).
template <int Log2BlockWidth>
__hostdev__ inline bool blockIsCached(const uint64_t* jumpMap)
{
    return blockLeafSpan<Log2BlockWidth>(jumpMap) <= uint32_t(MaxCachedLeaves);
}

/// Index of the leaf at `origin`, or AbsentLeaf. Root-down walk. Thread-local.
__hostdev__ inline uint32_t probeLeafIndex(const IndexGrid* grid, const nanovdb::Coord& origin)
{
    const IndexLeaf* leaf = grid->tree().root().probeLeaf(origin);
    return leaf ? uint32_t(leaf - leaves(grid)) : AbsentLeaf;
}

/// Value index of local voxel (x, y, z), each in [-1, 8], of leaf row[(0..2)*9+(0..2)*3+(0..2)]:
/// the neighbour leaf by direction, then the in-leaf lookup. Thread-local.
template <typename NeighbourOf>
__hostdev__ inline uint64_t cachedTapIndex(const IndexGrid* grid, int x, int y, int z, NeighbourOf&& neighbour)
{
    const uint32_t id = neighbour((x + 8) >> 3, (y + 8) >> 3, (z + 8) >> 3);
    if (id == AbsentLeaf) return 0;
    return leaves(grid)[id].data()->getValue(uint32_t(((x & 7) << 6) | ((y & 7) << 3) | (z & 7)));
}

/// Value index the first set bit of mask word xw of a leaf would have: the leaf's first offset
/// plus the active voxels of words 0..xw-1 (its 9-bit prefix-sum field). Thread-local.
__hostdev__ inline uint64_t sliceBase(const IndexLeaf& leaf, uint32_t xw)
{
    const auto* d = leaf.data();
    return d->firstOffset() + (xw ? uint32_t(d->mPrefixSum >> (9u * (xw - 1))) & 511u : 0u);
}

/// The voxel's own x-slice of the leaf mask and its two neighbours (words x-1, x, x+1; 0
/// outside the leaf), with the voxel's own value index. A neighbour inside the leaf then
/// needs no prefix sum: its index is the centre's plus the difference of the two voxels'
/// ranks, which only these three words determine. Thread-local.
struct InLeafNeighbourhood {
    uint64_t wMinus, wSelf, wPlus;
    uint64_t centre; ///< value index of the voxel itself
    uint32_t x, centreBit, belowCentre;

    __hostdev__ InLeafNeighbourhood(const IndexLeaf& leaf, uint32_t voxelOffset)
    {
        const auto* d = leaf.data();
        const uint64_t* w = d->mValueMask.words();
        x = voxelOffset >> 6;
        centreBit = voxelOffset & 63u;
        wSelf = w[x];
        wMinus = x > 0 ? w[x - 1] : 0;
        wPlus = x < 7 ? w[x + 1] : 0;
        belowCentre = popcount64(wSelf & ((uint64_t(1) << centreBit) - 1));
        centre = sliceBase(leaf, x) + belowCentre;
    }

    /// Index of the voxel at x-slice x+dx (dx in -1..1, inside the leaf) and in-slice bit `bit`.
    __hostdev__ uint64_t index(int dx, uint32_t bit) const
    {
        const uint64_t w = dx < 0 ? wMinus : dx > 0 ? wPlus : wSelf;
        if (!((w >> bit) & 1u)) return 0;
        int64_t rank = int64_t(popcount64(w & ((uint64_t(1) << bit) - 1))) - int64_t(belowCentre);
        if (dx < 0)
            rank -= int64_t(popcount64(wMinus));
        else if (dx > 0)
            rank += int64_t(popcount64(wSelf));
        return uint64_t(int64_t(centre) + rank);
    }
};

/// One x-slice word of a leaf's value mask with the value index its first set bit would
/// have: the index of an active bit b of the slice is base + (set bits below b). An absent
/// leaf reads as an empty word. Thread-local.
struct SliceWord {
    uint64_t w, base;
    /// Value index of bit b (0 when inactive).
    __hostdev__ uint64_t index(uint32_t b) const
    {
        return (w >> b) & 1u ? base + popcount64(w & ((uint64_t(1) << b) - 1)) : 0;
    }
};

/// Slice xw of leaf leafId of the leaf array (AbsentLeaf: an empty word). Thread-local.
__hostdev__ inline SliceWord sliceWord(const IndexLeaf* leafArray, uint32_t leafId, uint32_t xw)
{
    if (leafId == AbsentLeaf) return {0, 0};
    const IndexLeaf& leaf = leafArray[leafId];
    return {leaf.data()->mValueMask.words()[xw], sliceBase(leaf, xw)};
}

// ------------------------------------------------------------------------------- box

/// Fills the box table for the block's spanned leaves. Thread `thread` of `threadCount`
/// fills every threadCount-th entry; all threads of the block must call it with the same
/// block, and the table may be read only after all have (a barrier on the device).
template <int Log2BlockWidth>
__hostdev__ inline void stageBoxStencilTable(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                             BoxStencilTable& table, uint32_t thread, uint32_t threadCount)
{
    const uint32_t span = blockLeafSpan<Log2BlockWidth>(jumpMap);
    if (span > uint32_t(MaxCachedLeaves)) return;
    for (uint32_t e = thread; e < span * BoxTapCount; e += threadCount) {
        const uint32_t l = e / BoxTapCount, dir = e - l * BoxTapCount;
        const uint32_t self = firstLeafID + l;
        uint32_t id = self;
        if (dir != 13) {
            const int di = int(dir / 9) - 1, dj = int(dir / 3 % 3) - 1, dk = int(dir % 3) - 1;
            id = probeLeafIndex(grid, leaves(grid)[self].origin().offsetBy(8 * di, 8 * dj, 8 * dk));
        }
        table.leaf[l][dir] = id;
    }
}

/// Streams (tap, index) for the 27 box taps, in tap order, to f, from a staged table.
/// Thread-local once the table is staged.
template <int Log2BlockWidth, typename F>
__hostdev__ inline void forEachBoxStencilCachedResolve(const IndexGrid* grid, uint32_t firstLeafID,
                                                       const uint64_t* jumpMap, uint32_t leafIndex,
                                                       uint16_t voxelOffset, const BoxStencilTable& table, F&& f)
{
    if (leafIndex == UnusedLeafIndex) return;
    if (!blockIsCached<Log2BlockWidth>(jumpMap)) {
        forEachBoxStencil(grid, leafIndex, voxelOffset, f);
        return;
    }
    const uint32_t* row = table.leaf[leafIndex - firstLeafID];
    const IndexLeaf* const leafArray = leaves(grid);
    const int x = voxelOffset >> 6, y = (voxelOffset >> 3) & 7, z = voxelOffset & 7;
    // The 9 taps of an x-slice lie in one mask word of at most four leaves: the slice's own
    // (lx, 1, 1), its y-edge and z-edge neighbours, and the leaf diagonal to both. Each word
    // is read once per slice (a neighbour the voxel does not reach reads the own leaf's word
    // again, so every lane runs the same code); each tap is then a bit test and a popcount.
    const uint32_t yE = y == 0 ? 0u : 2u, zE = z == 0 ? 0u : 2u;
    const bool yEdge = y == 0 || y == 7, zEdge = z == 0 || z == 7;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int di = -1; di <= 1; ++di) {
        const int xs = x + di;
        const uint32_t xw = uint32_t(xs) & 7u;
        const uint32_t* col = row + (uint32_t(xs + 8) >> 3) * 9;
        const uint32_t own = col[4];
        const SliceWord v11 = sliceWord(leafArray, own, xw);
        const SliceWord vY = sliceWord(leafArray, yEdge ? col[yE * 3 + 1] : own, xw);
        const SliceWord vZ = sliceWord(leafArray, zEdge ? col[3 + zE] : own, xw);
        const SliceWord vYZ = sliceWord(leafArray, yEdge && zEdge ? col[yE * 3 + zE] : own, xw);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
        for (int dj = -1; dj <= 1; ++dj) {
            const bool outY = dj < 0 ? y == 0 : dj > 0 ? y == 7 : false;
            const SliceWord m = outY ? vY : v11, e = outY ? vYZ : vZ;
            const uint32_t rowBit = (uint32_t(y + dj) & 7u) * 8u;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
            for (int dk = -1; dk <= 1; ++dk) {
                const bool outZ = dk < 0 ? z == 0 : dk > 0 ? z == 7 : false;
                const SliceWord v = outZ ? e : m;
                f((di + 1) * 9 + (dj + 1) * 3 + (dk + 1), v.index(rowBit + (uint32_t(z + dk) & 7u)));
            }
        }
    }
}

/// Materializes the 27 box taps from a staged table. Thread-local once the table is staged.
/// Tap by tap, each a lookup in one leaf: with the 27-entry array live, the slice words of the
/// streamed form cost registers that spill (H200, vbm-bench: 0.142 -> 0.163 ms on the small
/// shell), so this form keeps the simpler per-tap lookup.
template <int Log2BlockWidth>
__hostdev__ inline void
computeBoxStencilCachedResolve(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap, uint32_t leafIndex,
                               uint16_t voxelOffset, const BoxStencilTable& table, uint64_t (&taps)[BoxTapCount])
{
    if (leafIndex == UnusedLeafIndex) return;
    if (!blockIsCached<Log2BlockWidth>(jumpMap)) {
        computeBoxStencil(grid, leafIndex, voxelOffset, taps);
        return;
    }
    const uint32_t* row = table.leaf[leafIndex - firstLeafID];
    const int x = voxelOffset >> 6, y = (voxelOffset >> 3) & 7, z = voxelOffset & 7;
    const auto neighbour = [row](int lx, int ly, int lz) { return row[lx * 9 + ly * 3 + lz]; };
    int tap = 0;
    for (int di = -1; di <= 1; ++di)
        for (int dj = -1; dj <= 1; ++dj)
            for (int dk = -1; dk <= 1; ++dk, ++tap)
                taps[tap] = cachedTapIndex(grid, x + di, y + dj, z + dk, neighbour);
}

// ----------------------------------------------------------------------------- cross

/// Fills the cross table (self, -x, +x, -y, +y, -z, +z per spanned leaf). Cooperative
/// in the same way as stageBoxStencilTable.
template <int Log2BlockWidth>
__hostdev__ inline void stageCrossStencilTable(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                               CrossStencilTable& table, uint32_t thread, uint32_t threadCount)
{
    const uint32_t span = blockLeafSpan<Log2BlockWidth>(jumpMap);
    if (span > uint32_t(MaxCachedLeaves)) return;
    for (uint32_t e = thread; e < span * CrossTapCount; e += threadCount) {
        const uint32_t l = e / CrossTapCount, dir = e - l * CrossTapCount;
        const uint32_t self = firstLeafID + l;
        uint32_t id = self;
        if (dir != 0) {
            const int step = (dir & 1u) ? -8 : 8; // odd: minus side
            const uint32_t axis = (dir - 1) >> 1;
            nanovdb::Coord o = leaves(grid)[self].origin();
            o[axis] += step;
            id = probeLeafIndex(grid, o);
        }
        table.leaf[l][dir] = id;
    }
}

/// Materializes the 7 cross taps from a staged table. Thread-local once the table is staged.
template <int Log2BlockWidth>
__hostdev__ inline void computeCrossStencilCachedResolve(const IndexGrid* grid, uint32_t firstLeafID,
                                                         const uint64_t* jumpMap, uint32_t leafIndex,
                                                         uint16_t voxelOffset, const CrossStencilTable& table,
                                                         uint64_t (&taps)[CrossTapCount])
{
    if (leafIndex == UnusedLeafIndex) return;
    if (!blockIsCached<Log2BlockWidth>(jumpMap)) {
        computeCrossStencil(grid, leafIndex, voxelOffset, taps);
        return;
    }
    const uint32_t* row = table.leaf[leafIndex - firstLeafID];
    const int x = voxelOffset >> 6, y = (voxelOffset >> 3) & 7, z = voxelOffset & 7;
    // A cross tap leaves the leaf along at most one axis: map direction (lx, ly, lz) in
    // {0,1,2}^3 with at most one component != 1 to the table's column.
    const auto neighbour = [row](int lx, int ly, int lz) {
        const int col = lx != 1 ? (lx == 0 ? 1 : 2) : ly != 1 ? (ly == 0 ? 3 : 4) : lz != 1 ? (lz == 0 ? 5 : 6) : 0;
        return row[col];
    };
    const InLeafNeighbourhood own(leaves(grid)[leafIndex], voxelOffset);
    const uint32_t bit = uint32_t(y * 8 + z);
    taps[0] = own.centre;
    taps[1] = x > 0 ? own.index(-1, bit) : cachedTapIndex(grid, x - 1, y, z, neighbour);
    taps[2] = x < 7 ? own.index(1, bit) : cachedTapIndex(grid, x + 1, y, z, neighbour);
    taps[3] = y > 0 ? own.index(0, bit - 8) : cachedTapIndex(grid, x, y - 1, z, neighbour);
    taps[4] = y < 7 ? own.index(0, bit + 8) : cachedTapIndex(grid, x, y + 1, z, neighbour);
    taps[5] = z > 0 ? own.index(0, bit - 1) : cachedTapIndex(grid, x, y, z - 1, neighbour);
    taps[6] = z < 7 ? own.index(0, bit + 1) : cachedTapIndex(grid, x, y, z + 1, neighbour);
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
