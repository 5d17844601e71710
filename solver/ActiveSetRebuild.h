// The rebuild of an adaptive scene's topology, before every K-th step (docs/adaptive.md): the
// new active set (TopologyBuilder: on the host for the CPU backend, with NanoVDB's device tools
// for CUDA), its grid and VBM at both widths, the fields copied onto it by coordinate, its air
// cells and diagonal, the emitter channel, and the multigrid levels. Each part is timed as its
// own phase.
#pragma once

#include "Domain.h"
#include "ExecRegion.h"
#include "Fields.h"
#include "PhaseTimer.h"
#include "StencilRunner.h"
#include "kernels/ActiveSetBodies.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace vbm::solver {

/// Builds active sets for an executor (HostTopology.h, CudaTopology.cuh):
/// build(grid, seed, margin) -> Topology; execGrid(Topology&&) -> ExecGrid; coarsen(ExecGrid).
template <class Exec>
struct TopologyBuilder;

/// The margin a rebuild dilates by: the scene's, widened to cover K steps of the fastest face
/// velocity (umax dt / h voxels per step along an axis) plus MinAdaptMargin, so the smoke stays
/// inside the set, and its trilinear samples inside the air layer, until the next rebuild.
inline int rebuildMargin(const Adaptation& a, double umax, const SimulationParams& p)
{
    const double reach = std::ceil(a.every * umax * p.dt / p.voxelSize) + MinAdaptMargin;
    if (!(reach < 1e4))
        throw std::runtime_error("rebuild: the flow is too fast for any margin (max |u| " + std::to_string(umax) +
                                 "): lower dt");
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

    /// Whether the step after `stepsDone` steps starts with a rebuild.
    bool due(uint64_t stepsDone) const
    {
        return mAdapt.enabled() && mAdapt.rebuilds && stepsDone > 0 && stepsDone % mAdapt.every == 0;
    }
    /// The margin the last rebuild used.
    int lastMargin() const { return mLastMargin; }

    void run(const SimulationParams& p, PhaseTimer<Exec>& timer)
    {
        Exec& exec = mRun.exec();
        Fields<Exec>& f = mFields;
        const uint64_t n = mDomain.valueCount();
        const double umax = exec.maxAbs(f[Channel::U], f[Channel::V], f[Channel::W], n);
        mLastMargin = rebuildMargin(mAdapt, umax, p);
        // the largest velocity component relative to the wind (the centre velocity's arrays are
        // free at the start of a step)
        double relative = umax;
        if (mWind[0] != 0.f || mWind[1] != 0.f || mWind[2] != 0.f) {
            float* d[3] = {f[Temp::CentreU], f[Temp::CentreV], f[Temp::CentreW]};
            for (int a = 0; a < 3; ++a)
                exec.elements(n, SubtractValue{f[Channel(int(Channel::U) + a)], d[a], mWind[a]});
            relative = exec.maxAbs(d[0], d[1], d[2], n);
        }
        const SeedTest seed{f.scalars(),
                            f[Channel::U],
                            f[Channel::V],
                            f[Channel::W],
                            float(mAdapt.threshold),
                            float(mAdapt.speedFraction() * relative),
                            {mWind[0], mWind[1], mWind[2]}};
        typename TopologyBuilder<Exec>::Topology topology;
        timer.time(Phase::RebuildTopology, [&] { topology = mBuilder.build(mDomain.fine(), seed, mLastMargin); });
        ExecGrid<Exec> grid;
        timer.time(Phase::RebuildVbm, [&] { grid = mBuilder.execGrid(std::move(topology)); });
        if (grid.activeVoxels() >= (uint64_t(1) << 31))
            throw std::runtime_error("rebuild: the active set would hold " + std::to_string(grid.activeVoxels()) +
                                     " voxels, over the 2^31-voxel limit");
        // the new fields are made while the old ones still exist
        mRun.exec().ensureRoom(
            grid.valueCount() * 5 / 4 * (sizeof(uint64_t) + mFields.bytesPerValue()),
            ("rebuild: the new active set of " + std::to_string(grid.activeVoxels()) + " voxels").c_str());
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
                    mDomain.fine(), mRun, [&](const ExecGrid<Exec>& g) { return mBuilder.coarsen(g); }));
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
};

} // namespace vbm::solver
