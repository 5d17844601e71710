// The solver's CUDA backend: SolverCore over the CUDA executor.
#include "CudaExec.cuh"
#include "SolverBackendImpl.h"

namespace vbm {

std::unique_ptr<SolverBackend> makeCudaSolver(const Scene& scene, StencilChoice choice)
{
    return std::make_unique<solver::SolverBackendImpl<solver::CudaExec>>(scene, choice);
}

} // namespace vbm
