// SPDX-License-Identifier: Apache-2.0
// Stage and resolve steps of each of our six resolvers behind one interface, so a kernel
// body (CUDA or host) is written once as a template on the resolver:
//   stageResolverTable<L, R>(...)  then a barrier,  then forEachResolvedTap<L, R>(..., f)
// Materialized resolvers fill their array, then hand it to f tap by tap; streamed ones
// call f from inside the resolver. Either way f sees (tap, index) in tap order.
#pragma once

#include "CachedStencils.h"
#include "Resolver.h"
#include "TreeWalkStencils.h"

#include <cstdint>

namespace vbm {

/// What a plain resolver stages: nothing.
struct NoStencilTable {};

template <Resolver R>
struct ResolverTableOf {
    using type = NoStencilTable;
};
template <>
struct ResolverTableOf<Resolver::computeBoxStencilCached> {
    using type = BoxStencilTable;
};
template <>
struct ResolverTableOf<Resolver::forEachBoxStencilCached> {
    using type = BoxStencilTable;
};
template <>
struct ResolverTableOf<Resolver::computeCrossStencilCached> {
    using type = CrossStencilTable;
};
/// Shared-memory table type of resolver R (NoStencilTable for the plain forms).
template <Resolver R>
using ResolverTable = typename ResolverTableOf<R>::type;

/// Stage step of resolver R; no-op for plain forms. Cooperative for cached forms
/// (see stageBoxStencilTable); a barrier must follow before any resolve.
template <int Log2BlockWidth, Resolver R>
__hostdev__ inline void stageResolverTable(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                           ResolverTable<R>& table, uint32_t thread, uint32_t threadCount,
                                           uint32_t knownSpan = UnknownSpan)
{
    static_assert(R != Resolver::NanoVDB13, "NanoVDB13 is a device-only reference path");
    if constexpr (R == Resolver::computeBoxStencilCached || R == Resolver::forEachBoxStencilCached)
        stageBoxStencilTable<Log2BlockWidth>(grid, firstLeafID, jumpMap, table, thread, threadCount, knownSpan);
    else if constexpr (R == Resolver::computeCrossStencilCached)
        stageCrossStencilTable<Log2BlockWidth>(grid, firstLeafID, jumpMap, table, thread, threadCount, knownSpan);
    else {
        (void)grid, (void)firstLeafID, (void)jumpMap, (void)table, (void)thread, (void)threadCount, (void)knownSpan;
    }
}

/// The taps of cached resolver R from its shape's per-leaf table (LeafNeighbourTable.h): the
/// leaf's row in place of a staged one. f(tap, index) in tap order. Thread-local.
template <Resolver R, typename F>
__hostdev__ inline void forEachLeafTableTap(const IndexGrid* grid, uint32_t leafIndex, uint16_t voxelOffset,
                                            const uint32_t* leafTable, F&& f, uint32_t centre = UnknownIndex)
{
    static_assert(isCachedResolver(R), "only the cached resolvers read per-leaf tables");
    if constexpr (R == Resolver::computeCrossStencilCached) {
        uint64_t taps[CrossTapCount];
        computeCrossStencilFromRow(grid, leafIndex, voxelOffset, leafTable + uint64_t(leafIndex) * crossTableWidth,
                                   taps, centre);
        for (int t = 0; t < CrossTapCount; ++t)
            f(t, taps[t]);
    } else {
        forEachBoxStencilFromRow(grid, voxelOffset, leafTable + uint64_t(leafIndex) * boxTableWidth, f);
    }
}

/// Resolve step of resolver R for one decoded slot: f(tap, index) in tap order
/// (27 box taps or 7 cross taps). Nothing for UnusedLeafIndex. Thread-local. A cached resolver
/// given its shape's per-leaf table (`leafTable`, LeafNeighbourTable.h) reads the leaf's row
/// there; without one, from the staged `table`. `knownSpan` and `centre`: the block's leaf
/// span and the voxel's value index where the caller has them (UnknownSpan, UnknownIndex: the
/// resolver finds them); the same taps either way.
template <int Log2BlockWidth, Resolver R, typename F>
__hostdev__ inline void forEachResolvedTap(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                           uint32_t leafIndex, uint16_t voxelOffset, const ResolverTable<R>& table,
                                           F&& f, const uint32_t* leafTable = nullptr,
                                           uint32_t knownSpan = UnknownSpan, uint32_t centre = UnknownIndex)
{
    static_assert(R != Resolver::NanoVDB13, "NanoVDB13 is a device-only reference path");
    if (leafIndex == UnusedLeafIndex) return;
    if constexpr (isCachedResolver(R)) {
        if (leafTable) {
            forEachLeafTableTap<R>(grid, leafIndex, voxelOffset, leafTable, f, centre);
            return;
        }
    }
    if constexpr (R == Resolver::forEachBoxStencil) {
        forEachBoxStencil(grid, leafIndex, voxelOffset, f);
    } else if constexpr (R == Resolver::forEachBoxStencilCached) {
        forEachBoxStencilCachedResolve<Log2BlockWidth>(grid, firstLeafID, jumpMap, leafIndex, voxelOffset, table, f,
                                                       knownSpan);
    } else if constexpr (R == Resolver::computeBoxStencil || R == Resolver::computeBoxStencilCached) {
        uint64_t taps[BoxTapCount];
        if constexpr (R == Resolver::computeBoxStencil)
            computeBoxStencil(grid, leafIndex, voxelOffset, taps);
        else
            computeBoxStencilCachedResolve<Log2BlockWidth>(grid, firstLeafID, jumpMap, leafIndex, voxelOffset, table,
                                                           taps, knownSpan);
        for (int t = 0; t < BoxTapCount; ++t)
            f(t, taps[t]);
    } else {
        uint64_t taps[CrossTapCount];
        if constexpr (R == Resolver::computeCrossStencil) // without the centre: 1% faster (H100, docs/history.md)
            computeCrossStencil(grid, leafIndex, voxelOffset, taps);
        else
            computeCrossStencilCachedResolve<Log2BlockWidth>(grid, firstLeafID, jumpMap, leafIndex, voxelOffset, table,
                                                             taps, knownSpan, centre);
        for (int t = 0; t < CrossTapCount; ++t)
            f(t, taps[t]);
    }
}

/// Resolve step of resolver R without a staged table, for skeletons that stage nothing (the
/// run form): a cached resolver reads its shape's per-leaf table `leafTable`; given none, it
/// resolves by the tree walk of its shape and form (the same taps). `centre` is the voxel's own
/// value index (the cross forms then skip computing it). f(tap, index) in tap order; nothing for
/// UnusedLeafIndex. Thread-local.
template <int Log2BlockWidth, Resolver R, typename F>
__hostdev__ inline void forEachUnstagedTap(const IndexGrid* grid, uint32_t leafIndex, uint16_t voxelOffset,
                                           uint32_t centre, const uint32_t* leafTable, F&& f)
{
    static_assert(R != Resolver::NanoVDB13, "NanoVDB13 is a device-only reference path");
    constexpr Resolver Walk = !isCachedResolver(R)                       ? R
                              : R == Resolver::computeCrossStencilCached ? Resolver::computeCrossStencil
                              : R == Resolver::forEachBoxStencilCached   ? Resolver::forEachBoxStencil
                                                                         : Resolver::computeBoxStencil;
    if (leafIndex == UnusedLeafIndex) return;
    if constexpr (isCachedResolver(R)) {
        if (leafTable) {
            forEachLeafTableTap<R>(grid, leafIndex, voxelOffset, leafTable, f, centre);
            return;
        }
    }
    if constexpr (Walk == Resolver::computeCrossStencil) {
        uint64_t taps[CrossTapCount];
        computeCrossStencil(grid, leafIndex, voxelOffset, taps, centre);
        for (int t = 0; t < CrossTapCount; ++t)
            f(t, taps[t]);
    } else {
        forEachResolvedTap<Log2BlockWidth, Walk>(grid, 0, nullptr, leafIndex, voxelOffset, NoStencilTable{}, f);
    }
}

namespace detail {
/// The octant's taps from a leaf's row of neighbour leaves, or by the tree walk without one;
/// a materialized resolver fills its array of 8 first, then streams it.
template <Resolver R, typename F>
__hostdev__ inline void octantFromRowOrWalk(const IndexGrid* grid, uint32_t leafIndex, uint16_t voxelOffset,
                                            const uint32_t* row, int sx, int sy, int sz, F&& f)
{
    const auto stream = [&](auto&& g) {
        if (row)
            forEachBoxOctantFromRow(grid, voxelOffset, row, sx, sy, sz, g);
        else
            forEachBoxOctant(grid, leafIndex, voxelOffset, sx, sy, sz, g);
    };
    if constexpr (isStreamedResolver(R)) {
        stream(f);
    } else {
        uint64_t taps[8];
        int n = 0;
        stream([&](int, uint64_t index) { taps[n++] = index; });
        n = 0;
        forEachBoxOctantTap(sx, sy, sz, [&](int tap) { f(tap, taps[n++]); });
    }
}
} // namespace detail

/// The 8 taps of box octant (sx, sy, sz) (each -1 or +1) through box resolver R: the taps
/// forEachResolvedTap gives for offsets in {0, sx} x {0, sy} x {0, sz}, the same values in the
/// same order, resolved alone (forEachBoxOctantTapOf): what a trilinear interpolation towards a
/// known side needs, at about a third of the work. Tables as forEachResolvedTap. Nothing for
/// UnusedLeafIndex. Thread-local once staged.
template <int Log2BlockWidth, Resolver R, typename F>
__hostdev__ inline void forEachResolvedOctantTap(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                                 uint32_t leafIndex, uint16_t voxelOffset,
                                                 const ResolverTable<R>& table, int sx, int sy, int sz, F&& f,
                                                 const uint32_t* leafTable = nullptr, uint32_t knownSpan = UnknownSpan)
{
    static_assert(isBoxResolver(R) && R != Resolver::NanoVDB13, "octants are for our box resolvers");
    if (leafIndex == UnusedLeafIndex) return;
    const uint32_t* row = nullptr;
    if constexpr (isCachedResolver(R)) {
        if (leafTable)
            row = leafTable + uint64_t(leafIndex) * boxTableWidth;
        else if (blockIsCached<Log2BlockWidth>(jumpMap, knownSpan))
            row = table.leaf[leafIndex - firstLeafID];
    } else {
        (void)firstLeafID, (void)jumpMap, (void)table, (void)leafTable, (void)knownSpan;
    }
    detail::octantFromRowOrWalk<R>(grid, leafIndex, voxelOffset, row, sx, sy, sz, f);
}

/// forEachResolvedOctantTap with nothing staged (the run form): the per-leaf table, or the tree
/// walk without one. Thread-local.
template <Resolver R, typename F>
__hostdev__ inline void forEachUnstagedOctantTap(const IndexGrid* grid, uint32_t leafIndex, uint16_t voxelOffset,
                                                 const uint32_t* leafTable, int sx, int sy, int sz, F&& f)
{
    static_assert(isBoxResolver(R) && R != Resolver::NanoVDB13, "octants are for our box resolvers");
    if (leafIndex == UnusedLeafIndex) return;
    const uint32_t* row = isCachedResolver(R) && leafTable ? leafTable + uint64_t(leafIndex) * boxTableWidth : nullptr;
    detail::octantFromRowOrWalk<R>(grid, leafIndex, voxelOffset, row, sx, sy, sz, f);
}

} // namespace vbm
