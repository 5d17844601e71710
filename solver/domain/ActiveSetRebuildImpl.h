// SPDX-License-Identifier: Apache-2.0
// ActiveSetRebuild<Exec>'s passes (domain/ActiveSetRebuild.h), compiled once per backend in a unit
// of their own (solver/CMakeLists.txt: VBM_SOLVER_UNITS).
#pragma once

#include "domain/ActiveSetRebuild.h"
#include "kernels/CgBodies.h"

namespace vbm::solver {

template <class Exec>
void ActiveSetRebuild<Exec>::watchEdge(uint64_t stepsDone)
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

template <class Exec>
void ActiveSetRebuild<Exec>::run(const SimulationParams& p, PhaseTimer<Exec>& timer)
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
    mRun.exec().ensureRoom(grid.valueCount() * 5 / 4 * (sizeof(uint64_t) + mFields.bytesPerValue()) +
                               grid.valueCount() * table,
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

template <class Exec>
void ActiveSetRebuild<Exec>::remap(const ExecGrid<Exec>& grid)
{
    auto oldIndex = Exec::template allocate<uint64_t>(grid.valueCount());
    mRun.voxels(grid, OldIndexOf{mDomain.fine().grid(), grid.grid(), oldIndex.data()});
    mFields.remap(mRun.exec(), oldIndex.data(), grid.valueCount());
}
} // namespace vbm::solver
