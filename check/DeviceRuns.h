// SPDX-License-Identifier: Apache-2.0
// The CUDA counterparts of TapRuns.h: build, decode and resolve on the GPU (ours and
// NanoVDB 13.0.0's shipped path), results copied back for the host checkers.
// Host-only header: no CUDA types, so plain C++ code can call it.
#pragma once

#include "GridGenerators.h"
#include "vbm/BuildVoxelBlockManager.h"
#include "vbm/Resolver.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vbm::cuda {

/// An OnIndex grid copied to the GPU.
class DeviceGrid {
public:
    explicit DeviceGrid(const HostGridHandle& host);
    ~DeviceGrid();
    DeviceGrid(const DeviceGrid&) = delete;
    DeviceGrid& operator=(const DeviceGrid&) = delete;
    const IndexGrid* grid() const;
    uint32_t leafCount() const { return mLeafCount; }
    uint32_t lowerCount() const { return mLowerCount; }

private:
    struct Impl;
    std::unique_ptr<Impl> mImpl;
    uint32_t mLeafCount = 0, mLowerCount = 0;
};

/// Builds the metadata on the GPU, with our kernel or with NanoVDB 13.0.0's buildVoxelBlockManager.
VbmMetadata buildVbmOnDevice(const DeviceGrid& grid, const VbmExtent& extent, int log2BlockWidth,
                             bool nanovdbReference);

/// Decodes all blocks on the GPU, with our decodeInverseMap or NanoVDB 13.0.0's decodeInverseMaps.
void decodeOnDevice(const DeviceGrid& grid, const VbmMetadata& vbm, bool nanovdbReference,
                    std::vector<uint32_t>& leafIndex, std::vector<uint16_t>& voxelOffset);

/// Decodes all blocks on the GPU with the warp's shared decode (decodeSlotInWarp, what the block
/// skeleton runs), and each block's leaf span as every slot of it found it (one per slot).
void decodeInWarpOnDevice(const DeviceGrid& grid, const VbmMetadata& vbm, std::vector<uint32_t>& leafIndex,
                          std::vector<uint16_t>& voxelOffset, std::vector<uint32_t>& span);

/// How a device tap run reaches the resolver.
enum class DeviceTapPath {
    Skeleton,         ///< the block skeleton (runThisSlot), as the solver and the bench run it
    PublicApi,        ///< each resolver's documented entry point (the cached forms' cooperative wrappers)
    PublicApiOddIdle, ///< as PublicApi, odd threads returning before they decode (plain forms only)
    Runs,             ///< the run form (runSlotRun, 4 slots per thread) with per-leaf tables built on the GPU
};

/// Taps of blocks [blockBegin, blockEnd), laid out as resolveTapsOnHost's.
/// With octant o in 0..7 (box resolvers; the Skeleton and Runs paths), only that octant's taps
/// (SlotTaps::octant; octantSigns in TapRuns.h); the others keep the poison.
std::vector<uint64_t> resolveTapsOnDevice(const DeviceGrid& grid, const VbmMetadata& vbm, Resolver r,
                                          uint64_t blockBegin, uint64_t blockEnd,
                                          DeviceTapPath path = DeviceTapPath::Skeleton, int octant = -1);

/// As applyConsumerOnHost, on the GPU; NanoVDB13 included. Block widths 128 and 512 only.
std::vector<float> applyConsumerOnDevice(const DeviceGrid& grid, const VbmMetadata& vbm, Resolver r, bool laplacian,
                                         int channels, const std::vector<float>& sidecar);

} // namespace vbm::cuda
