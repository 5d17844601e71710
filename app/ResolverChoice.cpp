// SPDX-License-Identifier: Apache-2.0
// The app's resolver choices (see ResolverChoice.h).
#include "ResolverChoice.h"

#include "CommandLine.h"

#include <stdexcept>

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

/// checkChoice, its refusal a usage error (the choice came from the command line).
CheckedChoice checked(const StencilChoice& c, Backend backend)
{
    try {
        return checkChoice(c, backend);
    } catch (const std::invalid_argument& e) {
        throw cli::UsageError(e.what());
    }
}

} // namespace

CheckedChoice startingChoice(const Options& o, Backend backend)
{
    StencilChoice c;
    c.log2BlockWidth = o.log2BlockWidth;
    if (o.resolver) {
        c.laplacian = *o.resolver;
        if (stepKindRefusal(*o.resolver, StepKind::Advection).empty()) c.advection = *o.resolver;
    }
    if (o.advection) c.advection = *o.advection;
    return checked(c, backend);
}

std::vector<NamedChoice> configurations(const Options& o, Backend backend)
{
    if (!o.allResolvers) {
        const CheckedChoice c = startingChoice(o, backend);
        return {{resolverName(c.choice().laplacian), c}};
    }
    std::vector<NamedChoice> out;
    for (Resolver r : AllResolvers) {
        if (!resolverUnavailableReason(r, backend, StepKind::Laplacian).empty()) continue;
        StencilChoice c;
        c.log2BlockWidth = o.log2BlockWidth;
        pickResolver(c, r, backend);
        if (o.advection) c.advection = *o.advection;
        out.push_back({resolverName(r), checked(c, backend)});
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
