// The solver facade (see Solver.h).
#include "Solver.h"

#include "DeviceQueries.h"

#include <stdexcept>

namespace vbm {

#if !VBM_HAVE_CUDA
std::unique_ptr<SolverBackend> makeCudaSolver(const Scene&, StencilChoice)
{
    throw std::runtime_error("this build has no CUDA backend (no nvcc was found): use --backend cpu");
}
#endif

Solver::Solver(const Scene& scene, Backend backend, StencilChoice choice) : mBackend(backend), mKind(scene.kind)
{
    if (backend == Backend::Cuda)
        if (const std::string why = cudaUnavailableReason(); !why.empty())
            throw std::runtime_error("the CUDA backend cannot run here: " + why + "; use --backend cpu");
    mImpl = backend == Backend::Cuda ? makeCudaSolver(scene, choice) : makeCpuSolver(scene, choice);
}

const FrameTimings& Solver::step()
{
    mLast = mImpl->step();
    return mLast;
}

uint64_t Solver::fieldsHash() const
{
    uint64_t h = 1469598103934665603ull;
    for (const auto& name : fieldNames()) {
        const auto f = field(name);
        const auto* bytes = reinterpret_cast<const unsigned char*>(f.data());
        for (size_t i = 0; i < f.size() * sizeof(float); ++i)
            h = (h ^ bytes[i]) * 1099511628211ull;
    }
    return h;
}

} // namespace vbm
