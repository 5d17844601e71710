// The solver's CPU backend: SolverCore over the host executor.
#include "HostExec.h"
#include "SolverBackendImpl.h"

namespace vbm {

std::unique_ptr<SolverBackend> makeCpuSolver(const Scene& scene, StencilChoice choice)
{
    return std::make_unique<solver::SolverBackendImpl<solver::HostExec>>(scene, choice);
}

} // namespace vbm
