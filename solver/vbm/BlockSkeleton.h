// The block skeleton every loop over a VBM runs: for one block, decode each slot, stage the
// resolver's neighbour-leaf table (all of the block, cached forms only, unless the view holds
// the grid's per-leaf table), a barrier, then resolve each slot's taps. It lives here once, in a device form (one CUDA
// thread per slot: cooperative) and the same code on one host thread (the shared form: stage once, then the slots in
// order; the CPU tests check the GPU's code through it). The CPU form, which gives the same calls faster, is
// CpuBlockSkeleton.h.
//
// A block body is called as body(slot, taps) for every slot holding an active voxel, where
// `slot` is a SlotOf (value index, leaf index, voxel offset) and taps(f) streams
// f(tap, value index) in tap order through the resolver (nothing is resolved until it is
// called). Slots past the last active voxel never reach the body.
#pragma once

#include "DecodeInverseMap.h"
#include "HostBlockExecutor.h"
#include "ResolverDispatch.h"
#include "VbmView.h"
#if defined(__CUDACC__)
#include "NanoVdbReferencePath.cuh"
#endif

#include <cstdint>

namespace vbm {

/// The per-leaf table resolver R reads from view v (null: none, or R is not cached).
template <Resolver R>
__hostdev__ inline const uint32_t* leafTableOf(const VbmView& v)
{
    if constexpr (R == Resolver::computeCrossStencilCached) return v.crossTable;
    if constexpr (R == Resolver::computeBoxStencilCached || R == Resolver::forEachBoxStencilCached) return v.boxTable;
    return nullptr;
}

/// A decoded slot holding an active voxel.
struct SlotOf {
    uint64_t index;       ///< the voxel's value index
    uint32_t leafIndex;   ///< its leaf
    uint16_t voxelOffset; ///< its offset in that leaf (0..511)
};

/// Shared form on the host: block `block` of `v` through resolver R on the calling thread, slot
/// by slot exactly as the device runs it (decodeInverseMap per slot, the table staged once, the
/// shared resolve): body(slot, taps) for the block's active slots in slot order. What the CPU
/// tests run to check the GPU's code. Not for NanoVDB13 (a CUDA-only path).
template <int Log2BlockWidth, Resolver R, typename Body>
inline void runBlockOnHostShared(const VbmView& v, uint64_t block, Body&& body)
{
    static_assert(R != Resolver::NanoVDB13, "NanoVDB13 is NanoVDB's CUDA-only reference path");
    constexpr uint32_t Width = uint32_t(BlockLayout<Log2BlockWidth>::BlockWidth);
    const uint32_t firstLeaf = v.firstLeafID[block];
    const uint64_t* jumpMap = v.jumpMap + block * BlockLayout<Log2BlockWidth>::JumpMapLength;
    const uint64_t blockFirst = v.firstOffset + (block << Log2BlockWidth);
    ResolverTable<R> table;
    const uint32_t* leafTable = leafTableOf<R>(v);
    if (!leafTable) stageResolverTable<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, table, 0, 1);
    for (uint32_t slot = 0; slot < Width; ++slot) {
        SlotOf s{blockFirst + slot, 0, 0};
        decodeInverseMap<Log2BlockWidth>(v.grid, firstLeaf, jumpMap, blockFirst, slot, s.leafIndex, s.voxelOffset);
        if (s.leafIndex == UnusedLeafIndex) continue;
        body(s, [&](auto&& f) {
            forEachResolvedTap<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, s.leafIndex, s.voxelOffset, table, f,
                                                  leafTable);
        });
    }
}

/// Blocks [blockBegin, blockEnd) through the shared form (runBlockOnHostShared), spread over
/// all cores (forEachBlockOnHost): each block runs on one thread, so body may be called from
/// several threads at once.
template <int Log2BlockWidth, Resolver R, typename Body>
inline void forEachSlotOnHostShared(const VbmView& v, uint64_t blockBegin, uint64_t blockEnd, Body&& body)
{
    forEachBlockOnHost(blockBegin, blockEnd, [&](uint64_t b) { runBlockOnHostShared<Log2BlockWidth, R>(v, b, body); });
}

#if defined(__CUDACC__)
/// Device form: this thread's slot (threadIdx.x) of block `block` through resolver R, then
/// body(slot, taps) if the slot holds an active voxel. Cooperative: every thread of the block
/// must call it, with blockDim.x = BlockWidth (the cached forms stage their table together and
/// meet at a barrier; NanoVDB13's sweep decode fills shared arrays together).
template <int Log2BlockWidth, Resolver R, typename Body>
__device__ inline void runThisSlot(const VbmView& v, uint64_t block, Body&& body)
{
    const uint32_t slot = threadIdx.x;
    const uint32_t firstLeaf = v.firstLeafID[block];
    const uint64_t* jumpMap = v.jumpMap + block * BlockLayout<Log2BlockWidth>::JumpMapLength;
    const uint64_t blockFirst = v.firstOffset + (block << Log2BlockWidth);
    if constexpr (R == Resolver::NanoVDB13) {
        uint64_t taps[BoxTapCount];
        SlotOf s{blockFirst + slot, 0, 0};
        s.leafIndex =
            nanovdbReferenceBoxStencil<Log2BlockWidth>(v.grid, firstLeaf, jumpMap, blockFirst, taps, s.voxelOffset);
        if (s.leafIndex == UnusedLeafIndex) return;
        body(s, [&](auto&& f) {
            for (int t = 0; t < BoxTapCount; ++t)
                f(t, taps[t]);
        });
    } else {
        __shared__ ResolverTable<R> table;
        SlotOf s{blockFirst + slot, 0, 0};
        decodeInverseMap<Log2BlockWidth>(v.grid, firstLeaf, jumpMap, blockFirst, slot, s.leafIndex, s.voxelOffset);
        const uint32_t* leafTable = leafTableOf<R>(v);
        if constexpr (isCachedResolver(R)) {
            if (!leafTable) { // uniform over the block: the barrier is met by all or by none
                stageResolverTable<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, table, threadIdx.x, blockDim.x);
                __syncthreads();
            }
        }
        if (s.leafIndex == UnusedLeafIndex) return;
        body(s, [&](auto&& f) {
            forEachResolvedTap<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, s.leafIndex, s.voxelOffset, table, f,
                                                  leafTable);
        });
    }
}
#endif

} // namespace vbm

// The CPU form (forEachSlotOnHost, runBlocksOnHost) comes with this header, as it always did.
#include "CpuBlockSkeleton.h"
