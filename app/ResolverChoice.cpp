// SPDX-License-Identifier: Apache-2.0
// The app's resolver choices (see ResolverChoice.h).
#include "ResolverChoice.h"

#include "CommandLine.h"

namespace vbm::app {

std::string stepKindRefusal(Resolver r, StepKind kind) { return resolverUnavailableReason(r, Backend::Cuda, kind); }

std::string pickResolver(StencilChoice& c, Resolver r, Backend backend)
{
    if (std::string why = resolverUnavailableReason(r, backend, StepKind::Laplacian); !why.empty()) return why;
    c.laplacian = r;
    if (resolverUnavailableReason(r, backend, StepKind::Advection).empty()) c.advection = r;
    return "";
}

namespace {

void requireRunnable(const StencilChoice& c, Backend backend)
{
    if (const std::string why = choiceUnavailableReason(c, backend); !why.empty()) throw cli::UsageError(why);
}

} // namespace

StencilChoice startingChoice(const Options& o, Backend backend)
{
    StencilChoice c;
    c.log2BlockWidth = o.log2BlockWidth;
    if (o.resolver) {
        c.laplacian = *o.resolver;
        if (stepKindRefusal(*o.resolver, StepKind::Advection).empty()) c.advection = *o.resolver;
    }
    if (o.advection) c.advection = *o.advection;
    requireRunnable(c, backend);
    return c;
}

std::vector<NamedChoice> configurations(const Options& o, Backend backend)
{
    if (!o.allResolvers) {
        const StencilChoice c = startingChoice(o, backend);
        return {{resolverName(c.laplacian), c}};
    }
    std::vector<NamedChoice> out;
    for (Resolver r : AllResolvers) {
        if (!resolverUnavailableReason(r, backend, StepKind::Laplacian).empty()) continue;
        StencilChoice c;
        c.log2BlockWidth = o.log2BlockWidth;
        pickResolver(c, r, backend);
        if (o.advection) c.advection = *o.advection;
        requireRunnable(c, backend);
        out.push_back({resolverName(r), c});
    }
    return out;
}

void fitChoiceToBackend(StencilChoice& c, Backend backend)
{
    if (!resolverUnavailableReason(c.laplacian, backend, StepKind::Laplacian).empty())
        c.laplacian = Resolver::computeBoxStencil;
    if (!resolverUnavailableReason(c.advection, backend, StepKind::Advection).empty())
        c.advection = Resolver::computeBoxStencil;
}

} // namespace vbm::app
