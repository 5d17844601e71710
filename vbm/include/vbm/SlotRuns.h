// SPDX-License-Identifier: Apache-2.0
// Runs of consecutive slots: a thread that takes K consecutive slots of a block decodes only
// the first one (the select decode, DecodeInverseMap.h) and steps to each next one along the
// leaf's mask bits, as the value indices run: the next set bit of the same leaf, or the first
// set bit of the next leaf where the block's jumpMap says a leaf starts. The select, its rank
// over the jumpMap and its loads of block metadata and leaf header so run once per K slots.
// Same (leaf, voxel) for every slot as decodeInverseMap; test_vbm_host checks every slot.
#pragma once

#include "BitOps.h"
#include "DecodeInverseMap.h"
#include "VoxelBlockManager.h"

#include <cstdint>

namespace vbm {

/// Where a thread stands in its run: the slot's leaf and voxel, the voxel's rank among the
/// leaf's active voxels, the leaf's active count, and the mask bits above the voxel in its word.
/// leafIndex is UnusedLeafIndex once the run has passed the last active voxel.
struct SlotCursor {
    uint32_t leafIndex;
    uint32_t voxelOffset;
    uint32_t rank;
    uint32_t count;
    uint64_t rest; ///< bits of the voxel's mask word above it
};

/// The cursor at slot `slot` of a block: the select decode (decodeInverseMap) plus what the
/// steps need. Thread-local.
template <int Log2BlockWidth>
__hostdev__ inline SlotCursor decodeSlotCursor(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                               uint64_t blockFirstOffset, uint32_t slot)
{
    const DecodedSlot d = decodeSlot<Log2BlockWidth>(grid, firstLeafID, jumpMap, blockFirstOffset, slot);
    if (d.leafIndex == UnusedLeafIndex) return {UnusedLeafIndex, UnusedVoxelOffset, 0, 0, 0};
    const uint64_t word = leaves(grid)[d.leafIndex].data()->mValueMask.words()[d.voxelOffset >> 6];
    return {d.leafIndex, d.voxelOffset, d.rank, d.count, word & (~uint64_t(1) << (d.voxelOffset & 63u))};
}

/// Moves the cursor from slot `slot - 1` to slot `slot` (0 < slot < BlockWidth) of the same
/// block. In the common case no memory is read: the next set bit is in `rest`. Thread-local.
__hostdev__ inline void advanceSlotCursor(const IndexLeaf* leafArray, const uint64_t* jumpMap, uint32_t slot,
                                          SlotCursor& c)
{
    if (c.leafIndex == UnusedLeafIndex) return;
    uint32_t word = c.voxelOffset >> 6;
    uint64_t bits = c.rest;
    if (c.rank + 1 < c.count) {
        ++c.rank;
    } else {
        // The leaf is done; a next leaf starts here unless this is the grid's tail.
        if (((jumpMap[slot >> 6] >> (slot & 63u)) & 1u) == 0) {
            c = {UnusedLeafIndex, UnusedVoxelOffset, 0, 0, 0};
            return;
        }
        ++c.leafIndex;
        c.rank = 0;
        c.count = leafArray[c.leafIndex].data()->valueCount();
        word = 0;
        bits = leafArray[c.leafIndex].data()->mValueMask.words()[0];
    }
    while (bits == 0)
        bits = leafArray[c.leafIndex].data()->mValueMask.words()[++word];
    c.voxelOffset = (word << 6) | countTrailingZeros64(bits);
    c.rest = bits & (bits - 1);
}

} // namespace vbm
