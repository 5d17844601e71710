// SPDX-License-Identifier: Apache-2.0
// What the Solver facade drives: a simulation on one backend. Declared once here and
// implemented once, by Simulation<Exec> for either executor; the facade keeps the parameters
// and checks the choice of resolvers (ResolverRules.h), and asks the engine for what lives in
// backend memory and for the choice its passes run with (held once, by its StencilRunner).
#pragma once

#include "domain/Fields.h"
#include "FrameTimings.h"
#include "Scene.h"
#include "SolverTypes.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace vbm::solver {

class SolverEngine {
public:
    virtual ~SolverEngine() = default;
    /// One time step with these parameters and the current choice; the record stays valid until the next.
    virtual const FrameTimings& step(const SimulationParams& params) = 0;
    /// The resolvers and block width the passes run with, from the next pass on (checked by the Solver).
    virtual void setChoice(const StencilChoice& choice) = 0;
    virtual const StencilChoice& choice() const = 0;
    /// A channel's storage where the backend keeps it (device memory on CUDA), valid until the next step.
    virtual const float* fieldData(Channel c) const = 0;
    /// A host copy of a channel.
    virtual std::vector<float> download(Channel c) const = 0;
    virtual MemoryReport memory() const = 0;
    /// The cudaStream_t the work runs on; null on the CPU.
    virtual void* cudaStream() const = 0;
    virtual uint64_t activeVoxels() const = 0;
    virtual uint64_t topologyVersion() const = 0;
    /// Steps taken, the scene's startStep included.
    virtual uint64_t stepsDone() const = 0;
    /// A host copy of the current grid.
    virtual HostGridHandle hostGrid() const = 0;
    virtual uint64_t blockCount(int log2BlockWidth) const = 0;
};

/// The engines of the two backends (the choice is already checked against ResolverRules).
/// `tapTable`: the scene's tap table mode, resolved (auto is the Solver's to decide).
std::unique_ptr<SolverEngine> makeCpuEngine(const Scene& scene, const StencilChoice& choice, bool tapTable);
std::unique_ptr<SolverEngine> makeCudaEngine(const Scene& scene, const StencilChoice& choice, bool tapTable);

} // namespace vbm::solver
