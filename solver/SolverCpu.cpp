// SPDX-License-Identifier: Apache-2.0
// The solver's CPU backend: the simulation over the host executor.
#include "exec/HostExec.h"
#include "domain/HostTopology.h"
#include "Simulation.h"

namespace vbm::solver {

std::unique_ptr<SolverEngine> makeCpuEngine(const Scene& scene, const StencilChoice& choice, bool tapTable)
{
    return std::make_unique<Simulation<HostExec>>(scene, choice, tapTable);
}

} // namespace vbm::solver
