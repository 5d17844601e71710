// SPDX-License-Identifier: Apache-2.0
// The solver's public facade: a scene simulated on the CPU or the CUDA backend, with the
// stencil resolvers chosen per kind of step and switchable between steps; whichever are
// chosen, the fields stay bitwise the same.
#pragma once

#include "FrameTimings.h"
#include "ResolverRules.h"
#include "Scene.h"
#include "SolverTypes.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vbm {

namespace solver {
class SolverEngine;
}

class Solver {
public:
    /// A solver on the backend `choice` was checked for, with that choice. Throws
    /// std::runtime_error when the CUDA backend cannot run here.
    Solver(const Scene& scene, const CheckedChoice& choice);
    /// The same with checkChoice(choice, backend): std::invalid_argument, with the rule's reason,
    /// when `choice` cannot run on `backend`.
    Solver(const Scene& scene, Backend backend, const StencilChoice& choice = {});
    ~Solver();
    Solver(const Solver&) = delete;
    Solver& operator=(const Solver&) = delete;

    /// One time step with the current parameters and resolvers: its timings, valid until the next step.
    const FrameTimings& step();
    const FrameTimings& lastStep() const { return mLast; }

    /// Switches resolvers or block width between steps; the simulation state is kept. Throws
    /// std::invalid_argument for a choice checked for the other backend.
    void setChoice(const CheckedChoice& c);
    /// The same with checkChoice(c, backend()): std::invalid_argument, with the rule's reason,
    /// for a choice this backend cannot run.
    void setChoice(const StencilChoice& c);
    /// The choice the steps run with (the engine's: there is no other copy).
    StencilChoice choice() const;
    /// The parameters the next step uses (editable between steps).
    SimulationParams& params() { return mParams; }
    const SimulationParams& params() const { return mParams; }

    Backend backend() const { return mBackend; }
    /// Whether the fine level stores its cross taps: the scene's on or off, or auto's choice for
    /// this solver alone (planTapTable with one configuration on the memory free at its start).
    bool tapTable() const { return mTapTable; }
    SimulationKind kind() const { return mKind; }
    MemoryReport memory() const;
    uint64_t activeVoxels() const;
    /// Topology rebuilds so far (0: still the scene's grid). Adaptive scenes (`adapt` in the
    /// scene) rebuild every K steps; when this changes, grid() and the fields' length have too.
    uint64_t topologyVersion() const;
    /// A host copy of the current topology, the OnIndex grid the fields are indexed by (on CUDA
    /// a device-to-host copy: call it when topologyVersion() changed, not every frame).
    HostGridHandle grid() const;
    /// VBM blocks at the current block width.
    uint64_t blockCount() const;
    /// The largest stable explicit heat step, h^2 / (6 alpha), for the current parameters.
    double explicitStableDt() const;

    /// The fields users see, by name: heat has temperature; smoke density, temperature, u, v, w
    /// (the +x, +y, +z face velocities) and pressure.
    std::vector<std::string> fieldNames() const;
    /// A host copy of a field (one float per value index; index 0 is the background).
    std::vector<float> field(const std::string& name) const;
    /// The field's storage where the backend keeps it: device memory on CUDA (for a device-to-device
    /// copy into the renderer's shared buffer), host memory on the CPU. Valid until the next step;
    /// the step has finished on the GPU when step() returns.
    const float* fieldData(const std::string& name) const;
    /// The CUDA stream (a cudaStream_t) the solver's work runs on, null on the CPU: work queued
    /// on it after a step (the renderer's copy of a field) is ordered before the next step.
    void* cudaStream() const;
    /// Steps taken since the scene started (a resumed scene's startStep included).
    uint64_t stepsDone() const;
    /// Everything a solver needs to go on from here as this one would (a checkpoint's content,
    /// Checkpoint.h): this topology, every field (the emitter's and fuel too), the parameters, the
    /// adaptive scene's region and rebuild schedule, and the steps taken (Scene::startStep, the
    /// emitter noise's phase). A solver made from it steps bitwise as this one.
    Scene state() const;
    /// state() as a fixed-topology scene starting afresh: an adaptive scene's rebuilds off
    /// (Adaptation::rebuilds) and startStep 0, so a solver made from it steps the same voxels
    /// with the same boundaries, never rebuilding.
    Scene snapshot() const;
    /// FNV-1a hash of every field's bytes, in fieldNames() order.
    uint64_t fieldsHash() const;

private:
    std::unique_ptr<solver::SolverEngine> mEngine;
    Backend mBackend;
    SimulationKind mKind;
    bool mFire; ///< the scene burns fuel: fixed at construction (its channel exists or not)
    SimulationParams mParams;
    FrameTimings mLast;
    // what snapshot() needs of the scene
    std::string mSceneName;
    Adaptation mAdapt;
    ActiveRegion mRegion;
    std::array<float, 3> mWind;
    ScalarStorage mScalars;
    bool mTapTable = false; ///< the scene's tap_table, auto resolved (planTapTable), kept for snapshots
};

} // namespace vbm
