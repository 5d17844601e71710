// SPDX-License-Identifier: Apache-2.0
// The CPU form of the block skeleton (BlockSkeleton.h): the same body(slot, taps) calls, in the
// same slot order, with bitwise the same taps, shaped for a CPU core instead of a thread block.
//  - A thread takes a run of consecutive blocks and walks the leaves holding their value
//    indices: each leaf's voxels come from its mask bits in index order, with no rank over the
//    jumpMap and no select per slot.
//  - The cached resolvers fill, once per leaf of the run, the dense index neighbourhood of the
//    leaf (LeafNeighbourhood.h, the neighbour leaves found through one ReadAccessor), and each
//    tap is one load. The tree-walk resolvers keep their shared per-tap walk, so the six stay
//    six different costs on the CPU as on the GPU.
// test_vbm_host checks this form against the shared one (the GPU's code) and ReadAccessor.
#pragma once

#include "BlockSkeleton.h"
#include "HostBlockExecutor.h"
#include "LeafNeighbourhood.h"

#include <algorithm>
#include <array>
#include <cstdint>

// A loop of constant trip count unrolled on the host compilers (nvcc's front end, which also
// reads this header, does not take GCC's pragma; the form is not hot there).
#define VBM_PRAGMA(x) _Pragma(#x)
#if defined(__CUDACC__)
#define VBM_HOST_UNROLL(n)
#elif defined(__clang__)
#define VBM_HOST_UNROLL(n) VBM_PRAGMA(unroll n)
#else
#define VBM_HOST_UNROLL(n) VBM_PRAGMA(GCC unroll n)
#endif

namespace vbm {

/// leafRun(leaf, begin, end) for each leaf holding value indices of blocks [b0, b1) of `v`, in
/// leaf order, with [begin, end) the part of its indices inside those blocks.
template <int Log2BlockWidth, typename F>
inline void forEachLeafRunOnHost(const VbmView& v, uint64_t b0, uint64_t b1, F&& leafRun)
{
    const uint64_t first = v.firstOffset + (b0 << Log2BlockWidth);
    const uint64_t end = v.firstOffset + (b1 << Log2BlockWidth);
    const IndexLeaf* leafArray = leaves(v.grid);
    const uint32_t leafCount = v.grid->tree().nodeCount(0);
    for (uint32_t l = v.firstLeafID[b0]; l < leafCount; ++l) {
        const auto* d = leafArray[l].data();
        if (d->firstOffset() >= end) break;
        const uint64_t lo = std::max(first, d->firstOffset());
        const uint64_t hi = std::min(end, d->firstOffset() + d->valueCount());
        if (lo < hi) leafRun(l, lo, hi);
    }
}

/// f(slot) for the active voxels of leaf `l` whose value index lies in [begin, end), in index
/// order, by walking the mask's set bits.
template <typename F>
inline void forEachLeafVoxelOnHost(const IndexGrid* grid, uint32_t l, uint64_t begin, uint64_t end, F&& f)
{
    const auto* d = leaves(grid)[l].data();
    uint64_t index = d->firstOffset();
    for (uint32_t word = 0; word < 8 && index < end; ++word) {
        uint64_t w = d->mValueMask.words()[word];
        const uint32_t n = popcount64(w);
        if (index + n <= begin) { // the whole word lies before the run
            index += n;
            continue;
        }
        for (; w && index < end; w &= w - 1, ++index)
            if (index >= begin) f(SlotOf{index, l, uint16_t((word << 6) | uint32_t(__builtin_ctzll(w)))});
    }
}

/// The taps of resolver R (a cached one) from the voxel's entry `c` of its leaf's neighbourhood,
/// f(tap, index) in tap order; the materialized forms fill their array first, as on the GPU.
template <Resolver R, typename F>
VBM_FORCE_INLINE void neighbourhoodTaps(const uint64_t* c, F&& f)
{
    if constexpr (isBoxResolver(R)) {
        constexpr auto at = [] {
            std::array<int, BoxTapCount> a{};
            for (int t = 0; t < BoxTapCount; ++t)
                a[t] = LeafNeighbourhood::offset(t / 9 - 1, t / 3 % 3 - 1, t % 3 - 1);
            return a;
        }();
        if constexpr (isStreamedResolver(R)) {
            VBM_HOST_UNROLL(27)
            for (int t = 0; t < BoxTapCount; ++t)
                f(t, c[at[t]]);
        } else {
            uint64_t taps[BoxTapCount];
            VBM_HOST_UNROLL(27)
            for (int t = 0; t < BoxTapCount; ++t)
                taps[t] = c[at[t]];
            VBM_HOST_UNROLL(27)
            for (int t = 0; t < BoxTapCount; ++t)
                f(t, taps[t]);
        }
    } else {
        // centre, -x, +x, -y, +y, -z, +z
        constexpr int at[CrossTapCount] = {0, -100, 100, -10, 10, -1, 1};
        static_assert(LeafNeighbourhood::offset(1, 0, 0) == 100 && LeafNeighbourhood::offset(0, 1, 0) == 10);
        uint64_t taps[CrossTapCount];
        VBM_HOST_UNROLL(7)
        for (int t = 0; t < CrossTapCount; ++t)
            taps[t] = c[at[t]];
        VBM_HOST_UNROLL(7)
        for (int t = 0; t < CrossTapCount; ++t)
            f(t, taps[t]);
    }
}

/// CPU form over the run of blocks [b0, b1) of `v` on the calling thread: body(slot, taps) for
/// every active slot, in slot order, with the taps of resolver R (not NanoVDB13).
template <int Log2BlockWidth, Resolver R, typename Body>
inline void runBlocksOnHost(const VbmView& v, uint64_t b0, uint64_t b1, Body&& body)
{
    static_assert(R != Resolver::NanoVDB13, "NanoVDB13 is NanoVDB's CUDA-only reference path");
    if constexpr (isCachedResolver(R)) {
        auto acc = v.grid->getAccessor();
        LeafNeighbourhood nb;
        forEachLeafRunOnHost<Log2BlockWidth>(v, b0, b1, [&](uint32_t l, uint64_t lo, uint64_t hi) {
            const IndexLeaf& leaf = leaves(v.grid)[l];
            const nanovdb::Coord o = leaf.origin();
            nb.fill<isBoxResolver(R)>(
                leaf, [&](int di, int dj, int dk) { return acc.probeLeaf(o.offsetBy(8 * di, 8 * dj, 8 * dk)); });
            forEachLeafVoxelOnHost(v.grid, l, lo, hi, [&](const SlotOf& s) {
                const uint64_t* c = nb.index + LeafNeighbourhood::entryOf(s.voxelOffset);
                // an octant: filtered from the 27 (each tap is one load here)
                const auto all = [c](auto&& f) { neighbourhoodTaps<R>(c, f); };
                body(s, slotTaps(all, filteredOctant(all)));
            });
        });
    } else {
        // the tree walks stage nothing and read neither firstLeafID nor the jumpMap
        const ResolverTable<R> none{};
        forEachLeafRunOnHost<Log2BlockWidth>(v, b0, b1, [&](uint32_t l, uint64_t lo, uint64_t hi) {
            forEachLeafVoxelOnHost(v.grid, l, lo, hi, [&](const SlotOf& s) {
                body(s, stagedSlotTaps<Log2BlockWidth, R>(v.grid, 0, nullptr, s, none, nullptr));
            });
        });
    }
}

/// Blocks [blockBegin, blockEnd) through the CPU form, runs of blocks spread over all cores
/// (forEachBlockRangeOnHost): body may be called from several threads at once, each block's
/// slots from one thread, in slot order.
template <int Log2BlockWidth, Resolver R, typename Body>
inline void forEachSlotOnHost(const VbmView& v, uint64_t blockBegin, uint64_t blockEnd, Body&& body)
{
    forEachBlockRangeOnHost(blockBegin, blockEnd,
                            [&](uint64_t b0, uint64_t b1) { runBlocksOnHost<Log2BlockWidth, R>(v, b0, b1, body); });
}

} // namespace vbm
