// SPDX-License-Identifier: Apache-2.0
// The CUDA build of a per-leaf neighbour table: one thread per entry, the same entry function
// as the host build (LeafNeighbourTable.h).
#pragma once

#include "LeafNeighbourTable.h"

#include <cuda_runtime.h>

namespace vbm {

template <typename Fill> // a template, so every translation unit may hold it
__global__ void leafNeighbourTableKernel(Fill fill, uint64_t entries)
{
    const uint64_t e = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (e < entries) fill(e + 1);
}

/// Fills the box or cross table (device memory, leafCount * width entries) of a device grid.
/// Asynchronous on stream.
inline cudaError_t buildLeafNeighbourTableDevice(const IndexGrid* grid, uint32_t leafCount, bool box, uint32_t* table,
                                                 cudaStream_t stream = 0)
{
    const uint64_t entries = uint64_t(leafCount) * (box ? boxTableWidth : crossTableWidth);
    if (entries == 0) return cudaSuccess;
    constexpr uint32_t threads = 256;
    leafNeighbourTableKernel<<<unsigned((entries + threads - 1) / threads), threads, 0, stream>>>(
        LeafNeighbourEntries{grid, table, box}, entries);
    return cudaGetLastError();
}

} // namespace vbm
