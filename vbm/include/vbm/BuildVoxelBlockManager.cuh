// SPDX-License-Identifier: Apache-2.0
// The CUDA build of the VBM metadata: one thread per leaf, the same per-leaf step as the
// host build (BuildVoxelBlockManager.h).
#pragma once

#include "BuildVoxelBlockManager.h"

#include <cuda_runtime.h>

namespace vbm {

template <int Log2BlockWidth>
__global__ void buildVoxelBlockManagerKernel(const IndexGrid* grid, uint32_t leafCount, VbmExtent extent,
                                             uint32_t* firstLeafID, uint64_t* jumpMap)
{
    const uint32_t leaf = blockIdx.x * blockDim.x + threadIdx.x;
    if (leaf < leafCount) markLeafInBlocks<Log2BlockWidth>(grid, leaf, extent, firstLeafID, jumpMap);
}

/// Builds firstLeafID and jumpMap (device pointers, blockCount and blockCount*JumpMapLength
/// entries) for a device grid with leafCount leaves. Zeroes jumpMap first. Asynchronous on stream.
template <int Log2BlockWidth>
cudaError_t buildVoxelBlockManagerDevice(const IndexGrid* grid, uint32_t leafCount, const VbmExtent& extent,
                                         uint32_t* firstLeafID, uint64_t* jumpMap, cudaStream_t stream = 0)
{
    const size_t words = extent.blockCount * BlockLayout<Log2BlockWidth>::JumpMapLength;
    cudaError_t err = cudaMemsetAsync(jumpMap, 0, words * sizeof(uint64_t), stream);
    if (err != cudaSuccess || leafCount == 0) return err;
    constexpr uint32_t threads = 256;
    buildVoxelBlockManagerKernel<Log2BlockWidth>
        <<<(leafCount + threads - 1) / threads, threads, 0, stream>>>(grid, leafCount, extent, firstLeafID, jumpMap);
    return cudaGetLastError();
}

} // namespace vbm
