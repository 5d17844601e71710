// SPDX-License-Identifier: Apache-2.0
// The rebuild of an adaptive scene's topology, before every K-th step (docs/adaptive.md): the
// new active set (TopologyBuilder: on the host for the CPU backend, with NanoVDB's device tools
// for CUDA), its grid and VBM at both widths, the fields copied onto it by coordinate, its air
// cells and diagonal, the emitter channel, and the multigrid levels. Each part is timed as its
// own phase.
#pragma once

#include "domain/Domain.h"
#include "exec/ExecRegion.h"
#include "domain/Fields.h"
#include "exec/PhaseTimer.h"
#include "exec/StencilRunner.h"
#include "kernels/ActiveSetBodies.h"
#include "kernels/CgBodies.h"

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
    void watchEdge(uint64_t stepsDone)
    {
        const float* air = mDomain.air();
        if (!mAdapt.enabled() || !mAdapt.rebuilds || !air || stepsDone % mAdapt.every == 0) return;
        if (!mEdgeCount.data()) mEdgeCount = Exec::template allocate<double>(1);
        Exec& exec = mRun.exec();
        exec.elementsSum(mDomain.valueCount(),
                         SmokeAtEdge{mFields.scalars(), mFields.has(Channel::Fuel) ? mFields[Channel::Fuel] : nullptr, air,
                                     float(mAdapt.threshold)},
                         StoreTotal{mEdgeCount.data()});
        mEarly = exec.read(mEdgeCount, 1)[0] > 0;
    }

    void run(const SimulationParams& p, PhaseTimer<Exec>& timer)
    {
        mEarly = false;
        Exec& exec = mRun.exec();
        Fields<Exec>& f = mFields;
        const uint64_t n = mDomain.valueCount();
        const double umax = exec.maxAbs(f[Channel::U], f[Channel::V], f[Channel::W], n);
        mLastMargin = rebuildMargin(mAdapt, umax, p);
        // with speed seeds, the largest velocity component relative to the wind (the centre
        // velocity's arrays are free at the start of a step)
        double relative = umax;
        if (mAdapt.seedsBySpeed() && (mWind[0] != 0.f || mWind[1] != 0.f || mWind[2] != 0.f)) {
            float* d[3] = {f[Temp::CentreU], f[Temp::CentreV], f[Temp::CentreW]};
            for (int a = 0; a < 3; ++a)
                exec.elements(n, SubtractValue{f[Channel(int(Channel::U) + a)], d[a], mWind[a]});
            relative = exec.maxAbs(d[0], d[1], d[2], n);
        }
        const float speedLimit =
            mAdapt.seedsBySpeed() ? float(mAdapt.speedThreshold * relative) : std::numeric_limits<float>::infinity();
        const SeedTest seed{f.scalars(),
                            f[Channel::U],
                            f[Channel::V],
                            f[Channel::W],
                            float(mAdapt.threshold),
                            speedLimit,
                            {mWind[0], mWind[1], mWind[2]},
                            f.has(Channel::Fuel) ? f[Channel::Fuel] : nullptr};
        typename TopologyBuilder<Exec>::Topology topology;
        timer.time(Phase::RebuildTopology, [&] { topology = mBuilder.build(mDomain.fine(), seed, mLastMargin); });
        ExecGrid<Exec> grid;
        timer.time(Phase::RebuildVbm, [&] { grid = mBuilder.execGrid(std::move(topology)); });
        if (grid.activeVoxels() >= (uint64_t(1) << 31))
            throw std::runtime_error("rebuild: the active set would hold " + std::to_string(grid.activeVoxels()) +
                                     " voxels, over the 2^31-voxel limit");
        // the new fields (and tap table) are made while the old ones still exist
        const uint64_t table = mDomain.tapTable() ? 6 * sizeof(uint32_t) : 0;
        mRun.exec().ensureRoom(
            grid.valueCount() * 5 / 4 * (sizeof(uint64_t) + mFields.bytesPerValue()) + grid.valueCount() * table,
            ("rebuild: the new active set of " + std::to_string(grid.activeVoxels()) + " voxels" +
             (table ? " (with the tap table: --tap-table off gives 24 B per voxel back)" : ""))
                .c_str());
        timer.time(Phase::RebuildRemap, [&] { remap(grid); });
        timer.time(Phase::RebuildVbm, [&] { mDomain.adopt(std::move(grid)); });
        timer.time(Phase::RebuildRemap, [&] {
            const uint64_t n = mDomain.valueCount();
            exec.elements(n, ZeroAirCells{mDomain.air(), f[Channel::Pressure]});
            // marked as floats in a free slot, then packed a word at a time (no two threads share a word)
            mRun.voxels(mDomain.fine(), MarkEmitters{mDomain.fine().grid(), mRegion.view(), f[Temp::EmitterMarks]});
            exec.elements(n / 32 + 2, PackFlags{f[Temp::EmitterMarks], f.emitter(), n});
        });
        if (mDomain.wantsMultigrid())
            timer.time(Phase::RebuildHierarchy, [&] {
                mDomain.setHierarchy(MultigridHierarchy<Exec>(
                    mDomain.fine(), mRun, mDomain.air(), [&](const ExecGrid<Exec>& g) { return mBuilder.coarsen(g); }));
            });
        exec.synchronize();
    }

private:
    /// What a fixed-topology scene's builder gets: nothing to prepare (no emitter grid).
    static const ActiveRegion& noRegion()
    {
        static const ActiveRegion none;
        return none;
    }
    /// Every channel onto `grid`, by coordinate.
    void remap(const ExecGrid<Exec>& grid)
    {
        auto oldIndex = Exec::template allocate<uint64_t>(grid.valueCount());
        mRun.voxels(grid, OldIndexOf{mDomain.fine().grid(), grid.grid(), oldIndex.data()});
        mFields.remap(mRun.exec(), oldIndex.data(), grid.valueCount());
    }

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
