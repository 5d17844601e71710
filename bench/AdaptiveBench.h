// SPDX-License-Identifier: Apache-2.0
// vbm-bench --solver on an adaptive scene (docs/adaptive.md): the scene grows for --grow-steps
// steps; then, in windows of K steps, each starting with the adaptive side's rebuild step, the
// new topology and state are frozen into a fixed-topology solver (Solver::snapshot: the same
// voxels, fields and open boundaries, never rebuilding) and the two take the window's steps in
// turns. So the adaptive step (its rebuild amortized over K) is compared with the fixed-topology
// step on the same active voxels, in one run. Their fields differ by design (one topology
// moves); both are checked finite and divergence-free.
#pragma once

#include "BenchOptions.h"
#include "Scene.h"

namespace bench {

/// Prints the comparison on stdout (and opt.json when set). Returns 0 when both runs stayed
/// finite with the divergence tolerance held, else 1.
int runAdaptiveBench(const Options& opt, const vbm::Scene& scene);

} // namespace bench
