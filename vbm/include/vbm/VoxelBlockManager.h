// SPDX-License-Identifier: Apache-2.0
// The VoxelBlockManager (VBM) layer: constants, the per-width block layout, and the
// umbrella include for build, decode and the six stencil resolvers.
//
// A VBM cuts the active voxels of a NanoVDB OnIndex grid, in value-index order, into
// blocks of BlockWidth consecutive indices. Block b covers the value indices
// [firstOffset + b*BlockWidth, firstOffset + (b+1)*BlockWidth). Its metadata is
//   firstLeafID[b]                       the leaf holding the block's first index, and
//   jumpMap[b*JumpMapLength + w], w < JumpMapLength
//                                        a bit per slot, set where a new leaf starts
//                                        inside the block (slot 0 never has a bit).
// So a block spans 1 + popcount(jumpMap of b) consecutive leaves.
#pragma once

#include <nanovdb/NanoVDB.h>

#include <cstdint>

namespace vbm {

using IndexGrid = nanovdb::NanoGrid<nanovdb::ValueOnIndex>;
using IndexTree = nanovdb::NanoTree<nanovdb::ValueOnIndex>;
using IndexLeaf = nanovdb::NanoLeaf<nanovdb::ValueOnIndex>;

/// Decoded leaf index of a slot past the last active voxel.
inline constexpr uint32_t UnusedLeafIndex = 0xffffffffu;
/// Decoded voxel offset of a slot past the last active voxel.
inline constexpr uint16_t UnusedVoxelOffset = 0xffffu;
/// Most values (active voxels + the background) a VBM grid may have: every value index, and
/// every slot index of a block's tail, then fits in 32 bits, the width the resolvers add in.
inline constexpr uint64_t MaxValueCount = (uint64_t(1) << 32) - 1024;
/// A block spanning more leaves than this makes the cached resolvers fall back to the tree walk.
inline constexpr int MaxCachedLeaves = 16;

/// Compile-time layout of a VBM of BlockWidth = 2^Log2BlockWidth slots per block.
template <int Log2BlockWidth>
struct BlockLayout {
    static_assert(Log2BlockWidth >= 6 && Log2BlockWidth <= 9, "BlockWidth must be 64, 128, 256 or 512");
    static constexpr int Log2Width = Log2BlockWidth;
    static constexpr int BlockWidth = 1 << Log2BlockWidth;
    /// 64-bit words of jumpMap per block.
    static constexpr int JumpMapLength = BlockWidth / 64;
};

/// Leaf array of a sequential (breadth-first) grid: leaf i is leaves(grid)[i].
__hostdev__ inline const IndexLeaf* leaves(const IndexGrid* grid) { return grid->tree().template getFirstNode<0>(); }

} // namespace vbm
