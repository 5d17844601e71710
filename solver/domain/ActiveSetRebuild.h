// SPDX-License-Identifier: Apache-2.0
// The rebuild of an adaptive scene's topology, before every K-th step (docs/adaptive.md): the
// new active set (TopologyBuilder: on the host for the CPU backend, with NanoVDB's device tools
// for CUDA), its grid and VBM at both widths, the fields copied onto it by coordinate, its air
// cells and diagonal, the emitter channel, and the multigrid levels. Each part is timed as its
// own phase.
// The members that launch passes are defined in ActiveSetRebuildImpl.h, compiled per backend in a
// unit of their own (solver/CMakeLists.txt).
#pragma once

#include "domain/Domain.h"
#include "exec/ExecRegion.h"
#include "domain/Fields.h"
#include "exec/PhaseTimer.h"
#include "exec/StencilRunner.h"
#include "kernels/ActiveSetBodies.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace vbm::solver {

/// Builds active sets for an executor (HostTopology.h, CudaTopology.cuh):
/// build(grid, seed, margin) -> Topology; execGrid(Topology&&) -> ExecGrid; coarsen(ExecGrid).
template <class Exec>
struct TopologyBuilder;

/// The largest upward acceleration buoyancy can give the gas (voxels per unit time squared, in
/// world units): buoyancy times the hottest the gas gets, the emitter's temperature (with its
/// noise) plus, in fire scenes, what burning its fuel releases.
inline double buoyancyBound(const SimulationParams& p)
{
    const double peak = 1.0 + p.emitNoise;
    return p.buoyancy * peak * (p.emitTemperature + (isFire(p) ? p.burnHeat * p.emitFuel : 0.0));
}

/// Margins of this many voxels or more are refused: the flow outruns any set.
inline constexpr double MaxRebuildReach = 1e4;

/// The voxels the smoke above the threshold may spread over in K steps, step by step: step j
/// moves a departure point at most d_j = (umax + a dt j) dt / h voxels, and its trilinear taps
/// reach less than one voxel past it, so a value above T lands at most ceil(d_j) voxels from one
/// that was (the sample, and MacCormack's clamped correction, never exceed their taps). None in
/// still air; counted only up to MaxRebuildReach (each moving step adds at least one).
inline double stepwiseSpread(int every, double umax, double accel, const SimulationParams& p)
{
    if (umax <= 0 && accel <= 0) return 0;
    double spread = 0;
    for (int j = 1; j <= every && spread < MaxRebuildReach; ++j)
        spread += std::ceil((umax + accel * p.dt * j) * p.dt / p.voxelSize);
    return spread;
}

/// The margin a rebuild dilates by: the scene's, widened to where the smoke can get in K steps
/// (docs/adaptive.md): K steps at the fastest face velocity umax, plus what buoyancy's
/// acceleration a adds over them (a dt^2 K (K + 1) / 2: the speed may grow by a dt a step), in
/// voxels, plus MinAdaptMargin (the trilinear sample's reach and the air layer); and at least
/// the stepwise spread plus the air layer, which can be larger from K = 3 on (each step's taps
/// reach a voxel on, where the first term counts that voxel once).
inline int rebuildMargin(const Adaptation& a, double umax, const SimulationParams& p)
{
    const double k = a.every, accel = buoyancyBound(p);
    const double travel = k * umax * p.dt + accel * p.dt * p.dt * k * (k + 1) / 2;
    const double reach =
        std::max(std::ceil(travel / p.voxelSize) + MinAdaptMargin, stepwiseSpread(a.every, umax, accel, p) + 1);
    if (!(reach < MaxRebuildReach))
        throw std::runtime_error("rebuild: the smoke may spread " + std::to_string(int(MaxRebuildReach)) +
                                 " voxels or more between rebuilds (max |u| " + std::to_string(umax) + ", every " +
                                 std::to_string(a.every) + " steps): lower dt or rebuild more often");
    return std::max(a.margin, int(reach));
}

template <class Exec>
class ActiveSetRebuild {
public:
    ActiveSetRebuild(StencilRunner<Exec>& run, Domain<Exec>& domain, Fields<Exec>& fields,
                     const ExecRegion<Exec>& region, const Scene& scene)
        : mRun(run), mDomain(domain), mFields(fields), mRegion(region), mAdapt(scene.adapt), mWind(scene.wind),
          mBuilder(run.exec(), scene.adapt.enabled() ? scene.region : noRegion(), region.view())
    {
    }

    /// Whether the step after `stepsDone` steps starts with a rebuild: every K-th, and early
    /// after a step that left smoke at the set's edge (watchEdge).
    bool due(uint64_t stepsDone) const
    {
        return mAdapt.enabled() && mAdapt.rebuilds && stepsDone > 0 && (stepsDone % mAdapt.every == 0 || mEarly);
    }
    /// The margin the last rebuild used.
    int lastMargin() const { return mLastMargin; }
    /// Whether the next rebuild, if due now, comes early (before run() clears it).
    bool early() const { return mEarly; }

    /// After step `stepsDone`: whether any air cell (the set's open edge) holds density,
    /// temperature or fuel above T. The margin is meant to keep the smoke off the edge until the
    /// next rebuild (docs/adaptive.md); where a flow outran it (an acceleration the margin does
    /// not bound, such as vorticity confinement's), the next step rebuilds at once instead of
    /// letting the smoke leave the set. Skipped where the next step rebuilds anyway.
    void watchEdge(uint64_t stepsDone);

    void run(const SimulationParams& p, PhaseTimer<Exec>& timer);

private:
    /// What a fixed-topology scene's builder gets: nothing to prepare (no emitter grid).
    static const ActiveRegion& noRegion()
    {
        static const ActiveRegion none;
        return none;
    }
    /// Every channel onto `grid`, by coordinate.
    void remap(const ExecGrid<Exec>& grid);

    StencilRunner<Exec>& mRun;
    Domain<Exec>& mDomain;
    Fields<Exec>& mFields;
    const ExecRegion<Exec>& mRegion;
    Adaptation mAdapt;
    std::array<float, 3> mWind;
    TopologyBuilder<Exec> mBuilder;
    int mLastMargin = 0;
    bool mEarly = false; ///< the last step left smoke at the edge: the next one rebuilds
    typename Exec::template Array<double> mEdgeCount; ///< where watchEdge's sum lands
};

} // namespace vbm::solver
