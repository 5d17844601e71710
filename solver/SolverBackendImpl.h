// SolverBackend over SolverCore<Exec>: one adapter for both executors.
#pragma once

#include "Solver.h"
#include "SolverCore.h"

namespace vbm::solver {

template <class Exec>
class SolverBackendImpl final : public SolverBackend {
public:
    SolverBackendImpl(const Scene& scene, StencilChoice choice) : mCore(scene, choice) {}
    FrameTimings step() override { return mCore.step(); }
    void setChoice(StencilChoice c) override { mCore.setChoice(c); }
    StencilChoice choice() const override { return mCore.choice(); }
    SimulationParams& params() override { return mCore.params(); }
    MemoryReport memory() const override { return mCore.memory(); }
    std::vector<float> field(const std::string& name) const override { return mCore.field(name); }
    const float* fieldData(const std::string& name) const override { return mCore.fieldData(name); }
    void* cudaStream() const override { return mCore.cudaStream(); }
    std::vector<std::string> fieldNames() const override { return mCore.fieldNames(); }
    uint64_t activeVoxels() const override { return mCore.activeVoxels(); }
    uint64_t blockCount() const override { return mCore.blockCount(); }
    double explicitStableDt() const override { return mCore.explicitStableDt(); }

private:
    SolverCore<Exec> mCore;
};

} // namespace vbm::solver
