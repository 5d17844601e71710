// The solver's public API: a scene simulated on the CPU or the CUDA backend, with the
// stencil resolvers chosen per step kind and switchable between steps.
#pragma once

#include "FrameTimings.h"
#include "Scene.h"
#include "SolverTypes.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vbm {

/// What a backend implements (SolverCore<Exec> behind it).
class SolverBackend {
public:
    virtual ~SolverBackend() = default;
    virtual FrameTimings step() = 0;
    virtual void setChoice(StencilChoice) = 0;
    virtual StencilChoice choice() const = 0;
    virtual SimulationParams& params() = 0;
    virtual MemoryReport memory() const = 0;
    virtual std::vector<float> field(const std::string& name) const = 0;
    virtual const float* fieldData(const std::string& name) const = 0;
    virtual void* cudaStream() const = 0;
    virtual std::vector<std::string> fieldNames() const = 0;
    virtual uint64_t activeVoxels() const = 0;
    virtual uint64_t blockCount() const = 0;
    virtual double explicitStableDt() const = 0;
};

std::unique_ptr<SolverBackend> makeCpuSolver(const Scene& scene, StencilChoice choice);
/// Throws if this build has no CUDA or there is no GPU.
std::unique_ptr<SolverBackend> makeCudaSolver(const Scene& scene, StencilChoice choice);

class Solver {
public:
    Solver(const Scene& scene, Backend backend, StencilChoice choice = {});

    /// One time step with the current parameters and resolvers.
    const FrameTimings& step();
    /// Switches resolvers or block width between steps; the simulation state is kept.
    void setChoice(StencilChoice c) { mImpl->setChoice(c); }
    StencilChoice choice() const { return mImpl->choice(); }
    SimulationParams& params() { return mImpl->params(); }

    const FrameTimings& lastStep() const { return mLast; }
    MemoryReport memory() const { return mImpl->memory(); }
    std::vector<float> field(const std::string& name) const { return mImpl->field(name); }
    /// The field's storage where the backend keeps it: device memory on CUDA (for a device-to-device
    /// copy into the renderer's shared buffer), host memory on the CPU. Valid until the next step;
    /// the step has finished on the GPU when step() returns.
    const float* fieldData(const std::string& name) const { return mImpl->fieldData(name); }
    /// The CUDA stream (a cudaStream_t) the solver's work runs on, null on the CPU: work queued
    /// on it after a step (the renderer's copy of a field) is ordered before the next step.
    void* cudaStream() const { return mImpl->cudaStream(); }
    std::vector<std::string> fieldNames() const { return mImpl->fieldNames(); }
    uint64_t activeVoxels() const { return mImpl->activeVoxels(); }
    uint64_t blockCount() const { return mImpl->blockCount(); }
    Backend backend() const { return mBackend; }
    SimulationKind kind() const { return mKind; }
    double explicitStableDt() const { return mImpl->explicitStableDt(); }
    /// FNV-1a hash of every field's bytes, in fieldNames() order.
    uint64_t fieldsHash() const;

private:
    std::unique_ptr<SolverBackend> mImpl;
    Backend mBackend;
    SimulationKind mKind;
    FrameTimings mLast;
};

} // namespace vbm
