// The solver's CUDA backend: SolverCore over the CUDA executor.
#include "CudaExec.cuh"
#include "DeviceRuns.h"
#include "SolverBackendImpl.h"

namespace vbm {

std::string cudaBackendUnavailableReason() { return cuda::cudaUnavailableReason(); }

std::unique_ptr<SolverBackend> makeCudaSolver(const Scene& scene, StencilChoice choice)
{
    if (const std::string why = cuda::cudaUnavailableReason(); !why.empty())
        throw std::runtime_error("the CUDA backend cannot run here: " + why + "; use --backend cpu");
    return std::make_unique<solver::SolverBackendImpl<solver::CudaExec>>(scene, choice);
}

} // namespace vbm
