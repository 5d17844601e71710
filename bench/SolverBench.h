// SPDX-License-Identifier: Apache-2.0
// vbm-bench --solver: whole solver steps of a scene on the GPU, the default resolvers against
// computeBoxStencil everywhere (and the defaults at block width 512), stepped in turns from the
// same state, their fields checked bitwise identical at the end.
#pragma once

#include "BenchOptions.h"

namespace bench {

/// Runs opt.steps steps of each configuration of opt.solverScene in turns and prints the phase
/// table and the summary lines on stdout (and opt.json when set). Returns 0 when the three
/// configurations' fields are bitwise identical, else 1. Throws vbm::SceneError for a bad scene.
int runSolverBench(Options opt);

} // namespace bench
