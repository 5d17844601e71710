// SPDX-License-Identifier: Apache-2.0
// A VBM as kernels see it: the grid and the metadata of one block width, in host or device
// memory (whoever built the view decides), the extent of the value indices it covers, and
// optionally the grid's per-leaf neighbour tables.
#pragma once

#include "VoxelBlockManager.h"

#include <cstdint>

namespace vbm {

struct VbmView {
    const IndexGrid* grid = nullptr;
    const uint32_t* firstLeafID = nullptr; ///< blockCount entries
    const uint64_t* jumpMap = nullptr;     ///< blockCount * JumpMapLength words
    uint64_t firstOffset = 1;              ///< value index of block 0's slot 0
    uint64_t blockCount = 0;
    uint64_t valueCount = 0; ///< last active value index + 1 (index 0 is the background)
    /// Per-leaf neighbour tables (LeafNeighbourTable.h) in the same memory, or null: the cached
    /// resolvers then stage their rows per thread block. Box: 27 entries per leaf; cross: 7.
    const uint32_t* boxTable = nullptr;
    const uint32_t* crossTable = nullptr;
};

} // namespace vbm
