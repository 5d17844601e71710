// A VBM as the solver's kernels see it: grid and metadata pointers for one block width, in
// host or device memory (the backend decides).
#pragma once

#include "vbm/VoxelBlockManager.h"

#include <cstdint>

namespace vbm {

struct VbmView {
    const IndexGrid* grid = nullptr;
    const uint32_t* firstLeafID = nullptr;
    const uint64_t* jumpMap = nullptr;
    uint64_t firstOffset = 1;
    uint64_t blockCount = 0;
    uint64_t valueCount = 0; ///< last active value index + 1 (index 0 is the background)
};

} // namespace vbm
