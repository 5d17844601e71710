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
                                           ResolverTable<R>& table, uint32_t thread, uint32_t threadCount)
{
    static_assert(R != Resolver::NanoVDB13, "NanoVDB13 is a device-only reference path");
    if constexpr (R == Resolver::computeBoxStencilCached || R == Resolver::forEachBoxStencilCached)
        stageBoxStencilTable<Log2BlockWidth>(grid, firstLeafID, jumpMap, table, thread, threadCount);
    else if constexpr (R == Resolver::computeCrossStencilCached)
        stageCrossStencilTable<Log2BlockWidth>(grid, firstLeafID, jumpMap, table, thread, threadCount);
    else {
        (void)grid, (void)firstLeafID, (void)jumpMap, (void)table, (void)thread, (void)threadCount;
    }
}

/// Resolve step of resolver R for one decoded slot: f(tap, index) in tap order
/// (27 box taps or 7 cross taps). Nothing for UnusedLeafIndex. Thread-local. A cached resolver
/// given its shape's per-leaf table (`leafTable`, LeafNeighbourTable.h) reads the leaf's row
/// there; without one, from the staged `table`.
template <int Log2BlockWidth, Resolver R, typename F>
__hostdev__ inline void forEachResolvedTap(const IndexGrid* grid, uint32_t firstLeafID, const uint64_t* jumpMap,
                                           uint32_t leafIndex, uint16_t voxelOffset, const ResolverTable<R>& table,
                                           F&& f, const uint32_t* leafTable = nullptr)
{
    static_assert(R != Resolver::NanoVDB13, "NanoVDB13 is a device-only reference path");
    if (leafIndex == UnusedLeafIndex) return;
    if constexpr (isCachedResolver(R)) {
        if (leafTable) {
            if constexpr (R == Resolver::computeCrossStencilCached) {
                uint64_t taps[CrossTapCount];
                computeCrossStencilFromRow(grid, leafIndex, voxelOffset,
                                           leafTable + uint64_t(leafIndex) * crossTableWidth, taps);
                for (int t = 0; t < CrossTapCount; ++t)
                    f(t, taps[t]);
            } else {
                forEachBoxStencilFromRow(grid, voxelOffset, leafTable + uint64_t(leafIndex) * boxTableWidth, f);
            }
            return;
        }
    }
    if constexpr (R == Resolver::forEachBoxStencil) {
        forEachBoxStencil(grid, leafIndex, voxelOffset, f);
    } else if constexpr (R == Resolver::forEachBoxStencilCached) {
        forEachBoxStencilCachedResolve<Log2BlockWidth>(grid, firstLeafID, jumpMap, leafIndex, voxelOffset, table, f);
    } else if constexpr (R == Resolver::computeBoxStencil || R == Resolver::computeBoxStencilCached) {
        uint64_t taps[BoxTapCount];
        if constexpr (R == Resolver::computeBoxStencil)
            computeBoxStencil(grid, leafIndex, voxelOffset, taps);
        else
            computeBoxStencilCachedResolve<Log2BlockWidth>(grid, firstLeafID, jumpMap, leafIndex, voxelOffset, table,
                                                           taps);
        for (int t = 0; t < BoxTapCount; ++t)
            f(t, taps[t]);
    } else {
        uint64_t taps[CrossTapCount];
        if constexpr (R == Resolver::computeCrossStencil)
            computeCrossStencil(grid, leafIndex, voxelOffset, taps);
        else
            computeCrossStencilCachedResolve<Log2BlockWidth>(grid, firstLeafID, jumpMap, leafIndex, voxelOffset, table,
                                                             taps);
        for (int t = 0; t < CrossTapCount; ++t)
            f(t, taps[t]);
    }
}

} // namespace vbm
