// SPDX-License-Identifier: Apache-2.0
// NanoVDB 13.0.0's shipped VBM path (its shared-memory sweep decodeInverseMaps, then its
// root-down computeBoxStencil), wrapped as the reference resolver `NanoVDB13`. CUDA only.
#pragma once

#include "TreeWalkStencils.h"
#include "VoxelBlockManager.h"

#include <nanovdb/tools/cuda/VoxelBlockManager.cuh>

namespace vbm {

/// The 27 box taps of this thread's slot (threadIdx.x) of the block, by NanoVDB 13.0.0's own
/// code; returns the slot's leaf index (UnusedLeafIndex past the last voxel, taps then
/// untouched) and its voxel offset. Cooperative: every thread of the block must call it;
/// blockDim.x = BlockWidth.
template <int Log2BlockWidth>
__device__ inline uint32_t nanovdbReferenceBoxStencil(const IndexGrid* grid, uint32_t firstLeafID,
                                                      const uint64_t* jumpMap, uint64_t blockFirstOffset,
                                                      uint64_t (&taps)[BoxTapCount], uint16_t& voxelOffset)
{
    constexpr int W = 1 << Log2BlockWidth;
    using NanoVbm = nanovdb::tools::cuda::VoxelBlockManager<W>;
    __shared__ uint32_t sLeaf[W];
    __shared__ uint16_t sVoxel[W];
    NanoVbm::decodeInverseMaps(const_cast<IndexGrid*>(grid), firstLeafID, jumpMap, blockFirstOffset, sLeaf, sVoxel);
    NanoVbm::computeBoxStencil(grid, sLeaf, sVoxel, taps);
    voxelOffset = sVoxel[threadIdx.x];
    return sLeaf[threadIdx.x];
}

} // namespace vbm
