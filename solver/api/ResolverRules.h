// SPDX-License-Identifier: Apache-2.0
// Which resolver may serve which kind of step on which backend: the one rule every caller
// (the solver, the command lines, the window, the checks) asks, so a refusal reads the same
// everywhere; and CheckedChoice, a choice the rule has accepted, which the Solver takes as it is.
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

class CheckedChoice;

/// `c` checked for `backend`: the one place a whole choice is checked. Throws
/// std::invalid_argument with choiceUnavailableReason's line when it cannot run there.
CheckedChoice checkChoice(const StencilChoice& c, Backend backend);

/// A StencilChoice the rule accepted for one backend. Only checkChoice makes one, so whoever
/// holds one holds a choice that runs there: the Solver takes it without checking it again.
class CheckedChoice {
public:
    const StencilChoice& choice() const { return mChoice; }
    operator const StencilChoice&() const { return mChoice; }
    Backend backend() const { return mBackend; }
    bool operator==(const CheckedChoice&) const = default;

private:
    CheckedChoice(const StencilChoice& c, Backend backend) : mChoice(c), mBackend(backend) {}
    friend CheckedChoice checkChoice(const StencilChoice& c, Backend backend);

    StencilChoice mChoice;
    Backend mBackend;
};

} // namespace vbm
