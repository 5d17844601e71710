// SPDX-License-Identifier: Apache-2.0
// The resolver rules (see ResolverRules.h).
#include "ResolverRules.h"

#include <stdexcept>

namespace vbm {

std::string resolverUnavailableReason(Resolver r, Backend backend, StepKind kind)
{
    if (kind == StepKind::Advection && !isBoxResolver(r))
        return std::string("advection needs a box resolver, not ") + resolverName(r);
    if (r == Resolver::NanoVDB13 && backend == Backend::Cpu)
        return "NanoVDB13 is NanoVDB's CUDA-only reference path: pick another resolver, or the CUDA backend";
    return "";
}

std::string choiceUnavailableReason(const StencilChoice& c, Backend backend)
{
    if (c.log2BlockWidth != 7 && c.log2BlockWidth != 9) return "block width must be 128 or 512";
    if (std::string why = resolverUnavailableReason(c.laplacian, backend, StepKind::Laplacian); !why.empty())
        return why;
    return resolverUnavailableReason(c.advection, backend, StepKind::Advection);
}

CheckedChoice checkChoice(const StencilChoice& c, Backend backend)
{
    if (const std::string why = choiceUnavailableReason(c, backend); !why.empty()) throw std::invalid_argument(why);
    return CheckedChoice(c, backend);
}

} // namespace vbm
