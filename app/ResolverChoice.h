// SPDX-License-Identifier: Apache-2.0
// The app's resolver choices, every one decided by the one rule (ResolverRules.h) and every
// whole choice checked by its checkChoice: the choice a run starts with (from the command line),
// the configurations of --resolver all, what a resolver key or script line picks, and what a
// switch of backend must give up.
#pragma once

#include "FluidOptions.h"
#include "ResolverRules.h"

#include <string>
#include <vector>

namespace vbm::app {

/// A resolver configuration, checked for its backend, and the name its timing rows carry.
struct NamedChoice {
    std::string name;
    CheckedChoice choice;
};

/// "" when steps of `kind` take `r` on some backend, else the rule's reason. The CUDA backend
/// runs every resolver, so what the rule refuses there is refused by the step kind itself.
std::string stepKindRefusal(Resolver r, StepKind kind);

/// `r` for the Laplacian-type steps, and for advection too where it serves advection on
/// `backend` (the keys 1-7, --resolver, a script's resolver line). Returns "" or the rule's reason
/// why `r` cannot run on `backend`; the choice is then left as it was.
std::string pickResolver(StencilChoice& c, Resolver r, Backend backend);

/// The choice from --resolver, --advection-resolver and --block-width, checked for `backend`.
/// Throws cli::UsageError with the rule's reason when it cannot run there.
CheckedChoice startingChoice(const Options& o, Backend backend);

/// The configurations a headless run steps: the starting choice, or with --resolver all every
/// resolver that can run on `backend`, each named after its Laplacian-type resolver.
std::vector<NamedChoice> configurations(const Options& o, Backend backend);

/// Replaces what cannot run on `backend` by computeBoxStencil (the window's backend switch).
void fitChoiceToBackend(StencilChoice& c, Backend backend);

} // namespace vbm::app
