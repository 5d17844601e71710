// SPDX-License-Identifier: Apache-2.0
// Which resolver may serve which kind of step on which backend: the one rule every caller
// (the solver, the command lines, the window, the checks) asks, so a refusal reads the same
// everywhere.
#pragma once

#include "SolverTypes.h"

#include <string>

namespace vbm {

/// The kinds of stencil step a resolver can be chosen for.
enum class StepKind {
    Laplacian, ///< diffusion, divergence, the Poisson product, gradient, face/centre averages: any resolver
    Advection, ///< semi-Lagrangian advection: needs the 27 box taps
};

/// "" when `r` can serve steps of `kind` on `backend`, else one line saying why not.
std::string resolverUnavailableReason(Resolver r, Backend backend, StepKind kind);

/// "" when every resolver of `c` can run on `backend` and its block width is one the solver
/// has (128 or 512), else the first reason why not.
std::string choiceUnavailableReason(const StencilChoice& c, Backend backend);

} // namespace vbm
