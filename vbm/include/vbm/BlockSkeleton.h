// SPDX-License-Identifier: Apache-2.0
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
//
// The run form (runSlotRun) is thread-local: a thread takes K consecutive slots of a block,
// decodes the first and steps to the others (SlotRuns.h), and resolves with nothing staged
// (the cached resolvers read the view's per-leaf tables, or walk the tree without them). A
// launch of it is not tied to one VBM block per thread block.
#pragma once

#include "DecodeInverseMap.h"
#include "HostBlockExecutor.h"
#include "ResolverDispatch.h"
#include "SlotRuns.h"
#include "SlotTaps.h"
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

/// A body's taps (SlotTaps.h) of slot s through resolver R, from the staged `table` or the
/// per-leaf `leafTable` (forEachResolvedTap, forEachResolvedOctantTap). `table` must outlive them.
/// `span`: the block's leaf span (blockLeafSpan), counted once by the skeleton.
template <int Log2BlockWidth, Resolver R>
__hostdev__ inline auto stagedSlotTaps(const IndexGrid* grid, uint32_t firstLeaf, const uint64_t* jumpMap,
                                       const SlotOf& s, const ResolverTable<R>& table, const uint32_t* leafTable,
                                       uint32_t span = UnknownSpan)
{
    const uint32_t leafIndex = s.leafIndex, centre = uint32_t(s.index);
    const uint16_t voxelOffset = s.voxelOffset;
    const ResolverTable<R>* t = &table;
    return slotTaps(
        [=](auto&& f) {
            forEachResolvedTap<Log2BlockWidth, R>(grid, firstLeaf, jumpMap, leafIndex, voxelOffset, *t, f, leafTable,
                                                  span, centre);
        },
        [=](int sx, int sy, int sz, auto&& f) {
            if constexpr (isBoxResolver(R))
                forEachResolvedOctantTap<Log2BlockWidth, R>(grid, firstLeaf, jumpMap, leafIndex, voxelOffset, *t, sx,
                                                            sy, sz, f, leafTable, span);
            else
                static_assert(sizeof(decltype(f)) == 0, "a cross resolver has no box octants");
        });
}

/// A body's taps of slot s through resolver R with nothing staged (the run form): the per-leaf
/// table or the tree walk (forEachUnstagedTap, forEachUnstagedOctantTap).
template <int Log2BlockWidth, Resolver R>
__hostdev__ inline auto unstagedSlotTaps(const IndexGrid* grid, const SlotOf& s, const uint32_t* leafTable)
{
    const uint32_t leafIndex = s.leafIndex, centre = uint32_t(s.index);
    const uint16_t voxelOffset = s.voxelOffset;
    return slotTaps(
        [=](auto&& f) { forEachUnstagedTap<Log2BlockWidth, R>(grid, leafIndex, voxelOffset, centre, leafTable, f); },
        [=](int sx, int sy, int sz, auto&& f) {
            if constexpr (isBoxResolver(R))
                forEachUnstagedOctantTap<R>(grid, leafIndex, voxelOffset, leafTable, sx, sy, sz, f);
            else
                static_assert(sizeof(decltype(f)) == 0, "a cross resolver has no box octants");
        });
}

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
    const uint32_t span = blockLeafSpan<Log2BlockWidth>(jumpMap);
    if (!leafTable) stageResolverTable<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, table, 0, 1, span);
    for (uint32_t slot = 0; slot < Width; ++slot) {
        SlotOf s{blockFirst + slot, 0, 0};
        decodeInverseMap<Log2BlockWidth>(v.grid, firstLeaf, jumpMap, blockFirst, slot, s.leafIndex, s.voxelOffset);
        if (s.leafIndex == UnusedLeafIndex) continue;
        body(s, stagedSlotTaps<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, s, table, leafTable, span));
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

/// Run form: slots [firstSlot, firstSlot + K) of block `block` of `v` through resolver R,
/// body(slot, taps) for those holding an active voxel, in slot order. The first slot is decoded
/// by the select decode, each next one by a step along the mask bits (SlotRuns.h); nothing is
/// staged (forEachUnstagedTap). firstSlot + K <= BlockWidth. Thread-local: one implementation,
/// run by a CUDA thread or, slot order kept, by a host loop (runBlockRunsOnHost).
template <int Log2BlockWidth, Resolver R, int K, typename Body>
__hostdev__ inline void runSlotRun(const VbmView& v, uint64_t block, uint32_t firstSlot, Body&& body)
{
    static_assert(R != Resolver::NanoVDB13, "NanoVDB13 decodes by its shared-memory sweep");
    static_assert(K >= 1 && K <= BlockLayout<Log2BlockWidth>::BlockWidth, "a run lies in one block");
    const uint32_t firstLeaf = v.firstLeafID[block];
    const uint64_t* jumpMap = v.jumpMap + block * BlockLayout<Log2BlockWidth>::JumpMapLength;
    const uint64_t blockFirst = v.firstOffset + (block << Log2BlockWidth);
    const uint32_t* leafTable = leafTableOf<R>(v);
    const IndexLeaf* leafArray = leaves(v.grid);
    SlotCursor c = decodeSlotCursor<Log2BlockWidth>(v.grid, firstLeaf, jumpMap, blockFirst, firstSlot);
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
    for (uint32_t j = 0; j < uint32_t(K); ++j) {
        if (j) advanceSlotCursor(leafArray, jumpMap, firstSlot + j, c);
        if (c.leafIndex == UnusedLeafIndex) return;
        const SlotOf s{blockFirst + firstSlot + j, c.leafIndex, uint16_t(c.voxelOffset)};
        body(s, unstagedSlotTaps<Log2BlockWidth, R>(v.grid, s, leafTable));
    }
}

/// Every slot of block `block` through the run form, run after run in slot order, on the
/// calling thread: what the CPU tests run to check the GPU's run code.
template <int Log2BlockWidth, Resolver R, int K, typename Body>
inline void runBlockRunsOnHost(const VbmView& v, uint64_t block, Body&& body)
{
    for (uint32_t first = 0; first < uint32_t(BlockLayout<Log2BlockWidth>::BlockWidth); first += K)
        runSlotRun<Log2BlockWidth, R, K>(v, block, first, body);
}

/// Which run a thread of a run launch takes: consecutive threads take consecutive runs, a block's
/// BlockWidth / K runs in turn, so a thread block may span several VBM blocks.
template <int Log2BlockWidth, int K>
struct RunLayout {
    static_assert((BlockLayout<Log2BlockWidth>::BlockWidth % K) == 0, "K must divide the block width");
    static constexpr uint32_t RunsPerBlock = uint32_t(BlockLayout<Log2BlockWidth>::BlockWidth / K);
    /// Threads a launch over blockCount blocks needs.
    static constexpr uint64_t threads(uint64_t blockCount) { return blockCount * RunsPerBlock; }
    __hostdev__ static uint64_t blockOf(uint64_t run) { return run / RunsPerBlock; }
    __hostdev__ static uint32_t firstSlotOf(uint64_t run) { return uint32_t(run % RunsPerBlock) * uint32_t(K); }
};

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
        const auto all = [&](auto&& f) {
            for (int t = 0; t < BoxTapCount; ++t)
                f(t, taps[t]);
        };
        body(s, slotTaps(all, filteredOctant(all)));
    } else {
        __shared__ ResolverTable<R> table;
        SlotOf s{blockFirst + slot, 0, 0};
        const uint32_t span =
            decodeSlotInWarp<Log2BlockWidth>(v.grid, firstLeaf, jumpMap, blockFirst, slot, s.leafIndex, s.voxelOffset);
        const uint32_t* leafTable = leafTableOf<R>(v);
        if constexpr (isCachedResolver(R)) {
            if (!leafTable) { // uniform over the block: the barrier is met by all or by none
                stageResolverTable<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, table, threadIdx.x, blockDim.x,
                                                      span);
                __syncthreads();
            }
        }
        if (s.leafIndex == UnusedLeafIndex) return;
        body(s, stagedSlotTaps<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, s, table, leafTable, span));
    }
}
#endif

} // namespace vbm

// The CPU form (forEachSlotOnHost, runBlocksOnHost) comes with this header, as it always did.
#include "CpuBlockSkeleton.h"
