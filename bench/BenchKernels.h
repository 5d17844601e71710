// SPDX-License-Identifier: Apache-2.0
// vbm-bench's kernels, behind a host-only interface: every variant runs the same consumer
// (resolve the taps, sum C interleaved float sidecar channels over them, write C outputs per
// voxel) on the same data. Kernels are compiled for block widths 128 and 512 (consumers) and
// 64..512 (decode), and for C in {1, 2, 4, 8, 16}.
#pragma once

#include "vbm/Resolver.h"
#include "vbm/VoxelBlockManager.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <type_traits>

namespace bench {

/// Channel counts the consumers are compiled for.
inline constexpr int ChannelChoices[] = {1, 2, 4, 8, 16};
inline bool isChannelChoice(int c)
{
    for (int x : ChannelChoices)
        if (x == c) return true;
    return false;
}

/// Calls f(std::integral_constant<int, C>) for a channel count in ChannelChoices.
template <typename F>
decltype(auto) withChannels(int channels, F&& f)
{
    switch (channels) {
    case 1:
        return f(std::integral_constant<int, 1>{});
    case 2:
        return f(std::integral_constant<int, 2>{});
    case 4:
        return f(std::integral_constant<int, 4>{});
    case 8:
        return f(std::integral_constant<int, 8>{});
    case 16:
        return f(std::integral_constant<int, 16>{});
    }
    throw std::invalid_argument("channels must be 1, 2, 4, 8 or 16");
}

/// A sparse problem on the device: grid, VBM metadata (for one width) and sidecar channels.
struct SparseProblem {
    const vbm::IndexGrid* grid = nullptr;
    uint32_t leafCount = 0;
    const uint32_t* firstLeafID = nullptr;
    const uint64_t* jumpMap = nullptr;
    uint64_t firstOffset = 1;
    uint64_t blockCount = 0;
    int log2Width = 7;
    const float* sidecar = nullptr; ///< (lastOffset+1) * channels, index 0 = background
    float* out = nullptr;           ///< (lastOffset+1) * channels
    int channels = 1;
    /// Per-leaf neighbour tables (vbm/LeafNeighbourTable.h) or null: the cached resolvers stage.
    const uint32_t* boxTable = nullptr;
    const uint32_t* crossTable = nullptr;
};

/// A dense block of nx*ny*nz voxels with C interleaved channels (x fastest), the regular-layout
/// floor: the same consumer over 7 or 27 neighbours. The input carries a one-voxel halo holding
/// the background (what a dense solver's ghost cells hold), so no load tests bounds: it is
/// (nx+2)*(ny+2)*(nz+2) voxels and `in` points at voxel (0, 0, 0) inside it. `out` has no halo.
struct DenseProblem {
    const float* in = nullptr;
    float* out = nullptr;
    int nx = 0, ny = 0, nz = 0;
    int channels = 1;
};

/// What a launch needs to be described: the kernel and its block size.
struct KernelRef {
    const void* function = nullptr;
    int blockSize = 0;
};

/// One of our six resolvers or NanoVDB13: decode + resolve + consumer. Widths 128 and 512.
void launchVbmConsumer(vbm::Resolver r, const SparseProblem& p, cudaStream_t stream);
KernelRef vbmConsumerKernel(vbm::Resolver r, int log2Width, int channels);

/// Run lengths (slots per thread) the run consumers are compiled for.
inline constexpr int RunLengths[] = {2, 4, 8};
/// True when the run form of the consumer is compiled for resolver r and C channels.
bool hasRunConsumer(vbm::Resolver r, int channels);
/// The consumer through the run form (vbm::runSlotRun): a thread takes runLength consecutive
/// slots; the cached resolvers read p's per-leaf tables (they must be set). Widths 128 and 512.
void launchVbmRunConsumer(vbm::Resolver r, int runLength, const SparseProblem& p, cudaStream_t stream);
KernelRef vbmRunConsumerKernel(vbm::Resolver r, int runLength, int log2Width, int channels);

/// What NanoVDB users write today: a thread per voxel slot of each leaf (inactive ones leave),
/// each tap a ReadAccessor::getValue.
void launchAccessorConsumer(bool box, const SparseProblem& p, cudaStream_t stream);
KernelRef accessorConsumerKernel(bool box, int channels);

/// The dense floor: 7- or 27-point consumer, each thread marching along z reusing its loads.
void launchDenseConsumer(bool box, const DenseProblem& p, cudaStream_t stream);
KernelRef denseConsumerKernel(bool box, int channels);

/// Decode alone: every slot's (leafIndex, voxelOffset) written out, by our thread-local decode
/// or NanoVDB 13.0.0's shared-memory sweep. Widths 64..512.
void launchDecode(bool nanovdb, const SparseProblem& p, uint32_t* leafIndex, uint16_t* voxelOffset,
                  cudaStream_t stream);
KernelRef decodeKernel(bool nanovdb, int log2Width);

} // namespace bench
