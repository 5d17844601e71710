// SPDX-License-Identifier: Apache-2.0
// The select-based inverse-map decode: which (leaf, voxel) holds a block's slot.
#pragma once

#include "BitOps.h"
#include "VoxelBlockManager.h"

#include <cstdint>

namespace vbm {

/// Number of leaves a block spans: 1 + popcount(jumpMap). Thread-local.
template <int Log2BlockWidth>
__hostdev__ inline uint32_t blockLeafSpan(const uint64_t* jumpMap)
{
    uint32_t n = 1;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int w = 0; w < BlockLayout<Log2BlockWidth>::JumpMapLength; ++w)
        n += popcount64(jumpMap[w]);
    return n;
}

/// Position (0..511) of the k-th active voxel (k from 0) of a leaf: the leaf's 9-bit
/// prefix-sum directory gives the 64-bit mask word, an in-word select the bit. Thread-local.
__hostdev__ inline uint32_t selectActiveVoxel(const IndexLeaf& leaf, uint32_t k)
{
    const auto* d = leaf.data();
    const uint64_t prefix = d->mPrefixSum; // field j (9 bits, j < 7) = active voxels in words 0..j
    const auto field = [prefix](uint32_t j) { return uint32_t(prefix >> (9u * j)) & 511u; };
    // The word is the number of fields <= k (they only grow): a three-step binary search.
    uint32_t word = field(3) <= k ? 4u : 0u;
    if (field(word + 1) <= k) word += 2;
    if (field(word) <= k) word += 1;
    const uint32_t before = word ? field(word - 1) : 0u;
    return (word << 6) | selectInWord(d->mValueMask.words()[word], k - before);
}

/// A decoded slot: its leaf and voxel, the voxel's rank among the leaf's active voxels and the
/// leaf's active count (leafIndex = UnusedLeafIndex past the last active voxel).
struct DecodedSlot {
    uint32_t leafIndex;
    uint32_t voxelOffset;
    uint32_t rank;
    uint32_t count;
};

/// The second half of a decode: slot `slot` of the block starting at value index
/// blockFirstOffset lies in leaf leafID (found by the jump map's rank); its voxel by a select.
/// UnusedLeafIndex past the leaf's last active voxel. Thread-local.
__hostdev__ inline DecodedSlot decodeSlotInLeaf(const IndexGrid* grid, uint32_t leafID, uint64_t blockFirstOffset,
                                                uint32_t slot)
{
    const IndexLeaf& leaf = leaves(grid)[leafID];
    // 32-bit: a VBM grid's value and slot indices fit (checkVbmGrid, MaxValueCount).
    const uint32_t k = uint32_t(blockFirstOffset + slot) - uint32_t(leaf.data()->firstOffset());
    const uint32_t count = leaf.data()->valueCount();
    if (k >= count) return {UnusedLeafIndex, UnusedVoxelOffset, 0, 0};
    return {leafID, selectActiveVoxel(leaf, k), k, count};
}

/// Decodes slot `slot` of the block whose first value index is blockFirstOffset and whose
/// metadata is (firstLeafID, jumpMap: this block's JumpMapLength words). O(1): a popcount rank
/// over the jumpMap picks the leaf, a select through the leaf's prefix sums the voxel. Slots
/// past the leaf's last active voxel (the tail of the last block) get UnusedLeafIndex.
/// Thread-local: no shared memory, no barrier, safe from divergent threads.
template <int Log2BlockWidth>
__hostdev__ inline DecodedSlot decodeSlot(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                          uint64_t blockFirstOffset, uint32_t slot)
{
    const uint32_t slotWord = slot >> 6, slotBit = slot & 63u;
    uint32_t rank = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (uint32_t w = 0; w < uint32_t(BlockLayout<Log2BlockWidth>::JumpMapLength); ++w) {
        if (w < slotWord)
            rank += popcount64(jumpMap[w]);
        else if (w == slotWord)
            rank += popcountThrough(jumpMap[w], slotBit);
    }
    return decodeSlotInLeaf(grid, firstLeafID + rank, blockFirstOffset, slot);
}

/// decodeSlot's leaf index and voxel offset (UnusedLeafIndex / UnusedVoxelOffset past the last
/// active voxel). Thread-local.
template <int Log2BlockWidth>
__hostdev__ inline void decodeInverseMap(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                         uint64_t blockFirstOffset, uint32_t slot, uint32_t& leafIndex,
                                         uint16_t& voxelOffset)
{
    const DecodedSlot d = decodeSlot<Log2BlockWidth>(grid, firstLeafID, jumpMap, blockFirstOffset, slot);
    leafIndex = d.leafIndex;
    voxelOffset = uint16_t(d.voxelOffset);
}

#if defined(__CUDACC__)
/// decodeInverseMap for this thread's slot together with the block's leaf span (blockLeafSpan),
/// the warp sharing the jump map: lane w < JumpMapLength counts word w once, and two warp sums
/// give the words before the slot's and the span. The same results as decodeInverseMap and
/// blockLeafSpan, with one jump-map word per lane instead of every word per thread, twice for
/// a cached resolver (eight words at width 512). Cooperative over the warp: all 32 lanes call
/// it, with consecutive slots from a multiple of 32 (so a warp's slots share one word).
template <int Log2BlockWidth>
__device__ inline uint32_t decodeSlotInWarp(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                            uint64_t blockFirstOffset, uint32_t slot, uint32_t& leafIndex,
                                            uint16_t& voxelOffset)
{
    constexpr uint32_t Words = uint32_t(BlockLayout<Log2BlockWidth>::JumpMapLength);
    static_assert(Words <= 32, "one jump-map word per lane");
#if __CUDA_ARCH__ >= 800
    const uint32_t lane = threadIdx.x & 31u, slotWord = slot >> 6;
    const uint32_t words = lane < Words ? popcount64(jumpMap[lane]) : 0u;
    const uint32_t before = __reduce_add_sync(0xffffffffu, lane < slotWord ? words : 0u);
    const uint32_t span = 1u + __reduce_add_sync(0xffffffffu, words);
    const uint32_t rank = before + popcountThrough(jumpMap[slotWord], slot & 63u);
    const DecodedSlot d = decodeSlotInLeaf(grid, firstLeafID + rank, blockFirstOffset, slot);
    leafIndex = d.leafIndex;
    voxelOffset = uint16_t(d.voxelOffset);
    return span;
#else
    decodeInverseMap<Log2BlockWidth>(grid, firstLeafID, jumpMap, blockFirstOffset, slot, leafIndex, voxelOffset);
    return blockLeafSpan<Log2BlockWidth>(jumpMap);
#endif
}
#endif

} // namespace vbm
