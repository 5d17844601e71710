// The block skeleton every loop over a VBM runs: for one block, decode each slot, stage the
// resolver's neighbour-leaf table (all of the block, cached forms only), a barrier, then
// resolve each slot's taps. It lives here once, in a device form (one CUDA thread per slot:
// cooperative), the same code on one host thread (the shared form: stage once, then the slots
// in order; the CPU tests check the GPU's code through it) and a CPU form that gives the same
// calls faster (the decode by walking each leaf's mask bits). The solver's executors, the
// checks and the benchmark's consumers all call it.
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

/// A decoded slot holding an active voxel.
struct SlotOf {
    uint64_t index;       ///< the voxel's value index
    uint32_t leafIndex;   ///< its leaf
    uint16_t voxelOffset; ///< its offset in that leaf (0..511)
};

/// The active voxels of block `block` of `v` in slot order, f(slot), found by walking the mask
/// bits of each leaf the block spans (its voxels are in value-index order): no rank over the
/// jumpMap and no select per slot. The same (index, leaf, voxel) as decodeInverseMap for every
/// slot that holds a voxel (test_vbm_host). The CPU's decode.
template <int Log2BlockWidth, typename F>
inline void forEachBlockVoxelOnHost(const VbmView& v, uint64_t block, F&& f)
{
    const uint32_t firstLeaf = v.firstLeafID[block];
    const uint64_t* jumpMap = v.jumpMap + block * BlockLayout<Log2BlockWidth>::JumpMapLength;
    const uint64_t blockFirst = v.firstOffset + (block << Log2BlockWidth);
    const uint64_t blockEnd = blockFirst + BlockLayout<Log2BlockWidth>::BlockWidth;
    const uint32_t span = blockLeafSpan<Log2BlockWidth>(jumpMap);
    const IndexLeaf* leafArray = leaves(v.grid);
    for (uint32_t l = 0; l < span; ++l) {
        const auto* d = leafArray[firstLeaf + l].data();
        const uint64_t first = d->firstOffset();
        const uint64_t begin = first > blockFirst ? first : blockFirst;
        const uint64_t end = first + d->valueCount() < blockEnd ? first + d->valueCount() : blockEnd;
        if (begin >= end) continue;
        uint64_t index = first;
        for (uint32_t word = 0; word < 8 && index < end; ++word) {
            uint64_t w = d->mValueMask.words()[word];
            const uint32_t n = popcount64(w);
            if (index + n <= begin) { // the whole word lies before the block
                index += n;
                continue;
            }
            for (; w && index < end; w &= w - 1, ++index)
                if (index >= begin) f(SlotOf{index, firstLeaf + l, uint16_t((word << 6) | uint32_t(__builtin_ctzll(w)))});
        }
    }
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
    stageResolverTable<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, table, 0, 1);
    for (uint32_t slot = 0; slot < Width; ++slot) {
        SlotOf s{blockFirst + slot, 0, 0};
        decodeInverseMap<Log2BlockWidth>(v.grid, firstLeaf, jumpMap, blockFirst, slot, s.leafIndex, s.voxelOffset);
        if (s.leafIndex == UnusedLeafIndex) continue;
        body(s, [&](auto&& f) {
            forEachResolvedTap<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, s.leafIndex, s.voxelOffset, table, f);
        });
    }
}

/// CPU form: the same calls, body(slot, taps) in slot order with bitwise the same taps, the
/// voxels found by forEachBlockVoxelOnHost. Not for NanoVDB13.
template <int Log2BlockWidth, Resolver R, typename Body>
inline void runBlockOnHost(const VbmView& v, uint64_t block, Body&& body)
{
    static_assert(R != Resolver::NanoVDB13, "NanoVDB13 is NanoVDB's CUDA-only reference path");
    const uint32_t firstLeaf = v.firstLeafID[block];
    const uint64_t* jumpMap = v.jumpMap + block * BlockLayout<Log2BlockWidth>::JumpMapLength;
    ResolverTable<R> table;
    stageResolverTable<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, table, 0, 1);
    forEachBlockVoxelOnHost<Log2BlockWidth>(v, block, [&](const SlotOf& s) {
        body(s, [&](auto&& f) {
            forEachResolvedTap<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, s.leafIndex, s.voxelOffset, table, f);
        });
    });
}

/// Blocks [blockBegin, blockEnd) through the CPU form (runBlockOnHost), spread over all cores
/// (forEachBlockOnHost): each block runs on one thread, so body may be called from several
/// threads at once.
template <int Log2BlockWidth, Resolver R, typename Body>
inline void forEachSlotOnHost(const VbmView& v, uint64_t blockBegin, uint64_t blockEnd, Body&& body)
{
    forEachBlockOnHost(blockBegin, blockEnd, [&](uint64_t b) { runBlockOnHost<Log2BlockWidth, R>(v, b, body); });
}

/// As forEachSlotOnHost, through the shared form (runBlockOnHostShared).
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
        if constexpr (isCachedResolver(R)) {
            stageResolverTable<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, table, threadIdx.x, blockDim.x);
            __syncthreads();
        }
        if (s.leafIndex == UnusedLeafIndex) return;
        body(s, [&](auto&& f) {
            forEachResolvedTap<Log2BlockWidth, R>(v.grid, firstLeaf, jumpMap, s.leafIndex, s.voxelOffset, table, f);
        });
    }
}
#endif

} // namespace vbm
