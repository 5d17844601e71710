// SPDX-License-Identifier: Apache-2.0
// The stencil resolvers as a run-time choice, and the one place that turns the run-time
// choice (and the block width) into compile-time template arguments.
#pragma once

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace vbm {

/// Every resolver a stencil step can use. NanoVDB13 is NanoVDB 13.0.0's shipped path
/// (shared-memory sweep decode + tree-walk box stencil), kept as a reference.
enum class Resolver : int {
    NanoVDB13,
    computeBoxStencil,
    forEachBoxStencil,
    computeBoxStencilCached,
    forEachBoxStencilCached,
    computeCrossStencil,
    computeCrossStencilCached,
};

inline constexpr std::array<Resolver, 7> AllResolvers = {Resolver::NanoVDB13,
                                                         Resolver::computeBoxStencil,
                                                         Resolver::forEachBoxStencil,
                                                         Resolver::computeBoxStencilCached,
                                                         Resolver::forEachBoxStencilCached,
                                                         Resolver::computeCrossStencil,
                                                         Resolver::computeCrossStencilCached};

/// The six resolvers of our VBM layer (all but the NanoVDB13 reference).
inline constexpr std::array<Resolver, 6> VbmResolvers = {
    Resolver::computeBoxStencil,       Resolver::forEachBoxStencil,   Resolver::computeBoxStencilCached,
    Resolver::forEachBoxStencilCached, Resolver::computeCrossStencil, Resolver::computeCrossStencilCached};

/// The name users see in flags, the GUI and tables.
constexpr const char* resolverName(Resolver r)
{
    switch (r) {
    case Resolver::NanoVDB13:
        return "NanoVDB13";
    case Resolver::computeBoxStencil:
        return "computeBoxStencil";
    case Resolver::forEachBoxStencil:
        return "forEachBoxStencil";
    case Resolver::computeBoxStencilCached:
        return "computeBoxStencilCached";
    case Resolver::forEachBoxStencilCached:
        return "forEachBoxStencilCached";
    case Resolver::computeCrossStencil:
        return "computeCrossStencil";
    case Resolver::computeCrossStencilCached:
        return "computeCrossStencilCached";
    }
    return "?";
}

inline std::optional<Resolver> parseResolver(std::string_view name)
{
    for (Resolver r : AllResolvers)
        if (name == resolverName(r)) return r;
    return std::nullopt;
}

/// Box resolvers give 27 taps (NanoVDB13 is a box resolver); cross resolvers 7.
constexpr bool isBoxResolver(Resolver r)
{
    return r != Resolver::computeCrossStencil && r != Resolver::computeCrossStencilCached;
}
constexpr bool isCachedResolver(Resolver r)
{
    return r == Resolver::computeBoxStencilCached || r == Resolver::forEachBoxStencilCached ||
           r == Resolver::computeCrossStencilCached;
}
constexpr bool isStreamedResolver(Resolver r)
{
    return r == Resolver::forEachBoxStencil || r == Resolver::forEachBoxStencilCached;
}
/// Plain forms use no shared memory and no barrier: callable from divergent threads.
constexpr bool isDivergentSafe(Resolver r) { return r != Resolver::NanoVDB13 && !isCachedResolver(r); }
constexpr int tapCount(Resolver r) { return isBoxResolver(r) ? 27 : 7; }

template <Resolver R>
using ResolverTag = std::integral_constant<Resolver, R>;

/// Calls f(ResolverTag<r>{}): kernels are templates on the resolver and never branch on it.
template <typename F>
decltype(auto) withResolver(Resolver r, F&& f)
{
    switch (r) {
    case Resolver::NanoVDB13:
        return f(ResolverTag<Resolver::NanoVDB13>{});
    case Resolver::computeBoxStencil:
        return f(ResolverTag<Resolver::computeBoxStencil>{});
    case Resolver::forEachBoxStencil:
        return f(ResolverTag<Resolver::forEachBoxStencil>{});
    case Resolver::computeBoxStencilCached:
        return f(ResolverTag<Resolver::computeBoxStencilCached>{});
    case Resolver::forEachBoxStencilCached:
        return f(ResolverTag<Resolver::forEachBoxStencilCached>{});
    case Resolver::computeCrossStencil:
        return f(ResolverTag<Resolver::computeCrossStencil>{});
    case Resolver::computeCrossStencilCached:
        return f(ResolverTag<Resolver::computeCrossStencilCached>{});
    }
    throw std::invalid_argument("unknown resolver");
}

/// Calls f(std::integral_constant<int, log2BlockWidth>{}) for a width of 64, 128, 256 or 512.
template <typename F>
decltype(auto) withBlockWidth(int log2BlockWidth, F&& f)
{
    switch (log2BlockWidth) {
    case 6:
        return f(std::integral_constant<int, 6>{});
    case 7:
        return f(std::integral_constant<int, 7>{});
    case 8:
        return f(std::integral_constant<int, 8>{});
    case 9:
        return f(std::integral_constant<int, 9>{});
    }
    throw std::invalid_argument("block width must be 64, 128, 256 or 512, got 2^" + std::to_string(log2BlockWidth));
}

} // namespace vbm
