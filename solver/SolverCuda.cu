// SPDX-License-Identifier: Apache-2.0
// The solver's CUDA backend: the simulation over the CUDA executor.
#include "exec/CudaExec.cuh"
#include "domain/CudaTopology.cuh"
#include "Simulation.h"

namespace vbm::solver {

std::unique_ptr<SolverEngine> makeCudaEngine(const Scene& scene, const StencilChoice& choice, bool tapTable)
{
    return std::make_unique<Simulation<CudaExec>>(scene, choice, tapTable);
}

} // namespace vbm::solver
