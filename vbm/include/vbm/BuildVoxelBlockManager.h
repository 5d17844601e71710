// SPDX-License-Identifier: Apache-2.0
// Building the VBM metadata (firstLeafID + jumpMap). The per-leaf step is shared by the
// host build below and the CUDA kernel in BuildVoxelBlockManager.cuh, so both produce
// the same words as NanoVDB 13.0.0's buildVoxelBlockManager.
#pragma once

#include "VbmView.h"
#include "VoxelBlockManager.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace vbm {

/// Index range and block count of a grid's VBM.
struct VbmExtent {
    uint64_t firstOffset = 1; ///< value index of the first active voxel (1: index 0 is the background)
    uint64_t lastOffset = 0;  ///< value index of the last active voxel
    uint64_t blockCount = 0;
};

/// The VBM extent of value indices firstOffset..lastOffset, for blocks of 2^log2BlockWidth.
inline VbmExtent vbmExtent(uint64_t firstOffset, uint64_t lastOffset, int log2BlockWidth)
{
    const uint64_t count = lastOffset + 1 - firstOffset;
    return {firstOffset, lastOffset, (count + (uint64_t(1) << log2BlockWidth) - 1) >> log2BlockWidth};
}

/// The VBM extent of a grid that satisfies checkVbmGrid(), for blocks of 2^log2BlockWidth.
inline VbmExtent vbmExtent(const IndexGrid* grid, int log2BlockWidth)
{
    const uint32_t leafCount = grid->tree().nodeCount(0);
    if (leafCount == 0) return VbmExtent{};
    return vbmExtent(leaves(grid)[0].data()->firstOffset(), leaves(grid)[leafCount - 1].data()->lastOffset(),
                     log2BlockWidth);
}

/// The mPrefixSum an OnIndex leaf with this value mask must hold: 9-bit field k counts the
/// active voxels of mask words 0..k (k = 0..6).
inline uint64_t leafPrefixSum(const nanovdb::Mask<3>& mask)
{
    uint64_t sum = 0, count = 0;
    for (int k = 0; k < 7; ++k) {
        count += nanovdb::util::countOn(mask.words()[k]);
        sum |= count << (9 * k);
    }
    return sum;
}

/// Leaf origins stay within +-SafeIndexRange: a stencil's neighbour leaves (+-8) and their
/// origins in the cached tables then never overflow 32-bit coordinates.
inline constexpr int32_t SafeIndexRange = int32_t(1) << 30;

/// "" when every tile of the grid (root tiles, internal entries without a child) holds index 0,
/// the background: NanoVDB's accessor returns a tile's stored index for its voxels, the VBM's
/// resolvers return 0 there, so a file's stray tile index would make the two disagree.
template <typename NodeT>
inline bool tilesHoldNoIndex(const NodeT* nodes, uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i)
        for (uint32_t k = 0; k < NodeT::SIZE; ++k)
            if (!nodes[i].childMask().isOn(k) && nodes[i].data()->getValue(k) != 0) return false;
    return true;
}
inline std::string checkTilesHoldNoIndex(const IndexGrid* grid)
{
    const auto& tree = grid->tree();
    const auto& root = tree.root();
    for (uint32_t t = 0; t < root.tileCount(); ++t)
        if (!root.tile(t)->isChild() && root.tile(t)->value != 0) return "a root tile holds an index";
    if (!tilesHoldNoIndex(tree.template getFirstNode<2>(), tree.nodeCount(2)) ||
        !tilesHoldNoIndex(tree.template getFirstNode<1>(), tree.nodeCount(1)))
        return "an internal node's tile holds an index";
    return "";
}

/// Why a grid cannot carry a VBM as it is, or "" if it can: it must be sequential
/// (breadth-first, fixed-size nodes), its leaf array inside its mGridSize bytes, its leaves
/// non-empty and indexed contiguously from 1 in leaf order (no indexed tiles, no per-leaf
/// stats), each leaf's prefix sum that of its mask, its value count one past the last index,
/// its leaves within the safe index range, at most MaxValueCount values, and no tile holding
/// an index.
/// The decode and the resolvers trust all of this, so a grid from a file is checked here.
inline std::string checkVbmGrid(const IndexGrid* grid)
{
    if (!grid->isSequential()) return "its nodes are not stored sequentially";
    const uint32_t leafCount = grid->tree().nodeCount(0);
    if (leafCount == 0) return "it has no active voxels in leaf nodes";
    const int64_t leafOffset = grid->tree().mNodeOffset[0];
    const uint64_t treeBegin = sizeof(nanovdb::GridData), size = grid->gridSize();
    if (leafOffset < int64_t(sizeof(nanovdb::TreeData)) || uint64_t(leafOffset) > size - treeBegin ||
        (size - treeBegin - uint64_t(leafOffset)) / sizeof(IndexLeaf) < leafCount)
        return "its leaf array runs past the end of the grid";
    uint64_t next = 1;
    for (uint32_t i = 0; i < leafCount; ++i) {
        const auto* d = leaves(grid)[i].data();
        if (d->mPrefixSum != leafPrefixSum(d->mValueMask)) return "a leaf's prefix sum disagrees with its value mask";
        if (d->firstOffset() != next)
            return "its leaf values are not indexed contiguously from 1 (indexed tiles or stats)";
        if (d->valueCount() == 0) return "it has an empty leaf node";
        for (int a = 0; a < 3; ++a)
            if (d->mBBoxMin[a] < -SafeIndexRange || d->mBBoxMin[a] > SafeIndexRange - 8)
                return "a leaf lies outside the safe index range +-2^30 (its stencils would overflow)";
        next += d->valueCount();
    }
    if (grid->valueCount() != next) return "its value count disagrees with its leaves";
    if (next > MaxValueCount) return "it has more than 2^32 - 1024 values (the resolvers add indices in 32 bits)";
    return checkTilesHoldNoIndex(grid);
}

/// Marks one leaf in the metadata: sets firstLeafID of every block whose first slot lies in
/// the leaf, or the jumpMap bit of the slot where the leaf starts inside a block.
/// jumpMap must be zeroed first. Thread-local; leaves may be processed concurrently.
/// (NanoVDB 13.0.0 computes the in-block position as (leafFirstOffset - 1); we use
/// (leafFirstOffset - firstOffset), the same for every grid that satisfies checkVbmGrid.)
template <int Log2BlockWidth>
__hostdev__ inline void markLeafInBlocks(const IndexGrid* grid, uint32_t leafIndex, const VbmExtent& extent,
                                         uint32_t* firstLeafID, uint64_t* jumpMap)
{
    using Layout = BlockLayout<Log2BlockWidth>;
    const auto* leaf = leaves(grid)[leafIndex].data();
    const uint64_t leafFirst = leaf->firstOffset();
    const uint64_t leafLast = leafFirst + leaf->valueCount() - 1;
    if (leafFirst > extent.lastOffset || leafLast < extent.firstOffset) return;

    uint64_t lastBlock = (leafLast - extent.firstOffset) >> Log2BlockWidth;
    if (lastBlock > extent.blockCount - 1) lastBlock = extent.blockCount - 1;
    const uint64_t firstBlock = leafFirst < extent.firstOffset ? 0 : (leafFirst - extent.firstOffset) >> Log2BlockWidth;
    for (uint64_t b = lastBlock; b > firstBlock; --b)
        firstLeafID[b] = leafIndex;
    if (leafFirst < extent.firstOffset) {
        firstLeafID[0] = leafIndex;
        return;
    }
    const uint64_t slot = (leafFirst - extent.firstOffset) & (Layout::BlockWidth - 1);
    if (slot == 0) {
        firstLeafID[firstBlock] = leafIndex;
        return;
    }
    uint64_t* word = jumpMap + firstBlock * Layout::JumpMapLength + (slot >> 6);
    const uint64_t bit = uint64_t(1) << (slot & 63);
#if defined(__CUDA_ARCH__)
    atomicOr(reinterpret_cast<unsigned long long*>(word), static_cast<unsigned long long>(bit));
#else
    std::atomic_ref<uint64_t>(*word).fetch_or(bit, std::memory_order_relaxed);
#endif
}

/// VBM metadata in host memory.
struct VbmMetadata {
    int log2BlockWidth = 7;
    VbmExtent extent;
    std::vector<uint32_t> firstLeafID; ///< one per block
    std::vector<uint64_t> jumpMap;     ///< BlockWidth/64 words per block
};

/// A view of host metadata over `grid` (both must outlive it).
inline VbmView hostView(const IndexGrid* grid, const VbmMetadata& m)
{
    return {grid,
            m.firstLeafID.data(),
            m.jumpMap.data(),
            m.extent.firstOffset,
            m.extent.blockCount,
            m.extent.lastOffset + 1};
}

/// Builds the metadata on the host. The grid must satisfy checkVbmGrid().
template <int Log2BlockWidth>
VbmMetadata buildVoxelBlockManagerHost(const IndexGrid* grid)
{
    VbmMetadata m;
    m.log2BlockWidth = Log2BlockWidth;
    m.extent = vbmExtent(grid, Log2BlockWidth);
    m.firstLeafID.assign(m.extent.blockCount, 0u);
    m.jumpMap.assign(m.extent.blockCount * BlockLayout<Log2BlockWidth>::JumpMapLength, 0u);
    const uint32_t leafCount = grid->tree().nodeCount(0);
    for (uint32_t i = 0; i < leafCount; ++i)
        markLeafInBlocks<Log2BlockWidth>(grid, i, m.extent, m.firstLeafID.data(), m.jumpMap.data());
    return m;
}

} // namespace vbm
