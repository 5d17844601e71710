// SPDX-License-Identifier: Apache-2.0
// An adaptive scene's region (ActiveRegion) in executor memory: the obstacle and emitter balls,
// the loaded domain's grid and the mesh voxel sets, behind the RegionView the rebuild's bodies read.
#pragma once

#include "exec/ExecGrid.h"
#include "kernels/ActiveSetBodies.h"

namespace vbm::solver {

template <class Exec>
class ExecRegion {
    template <typename T>
    using Array = typename Exec::template Array<T>;

public:
    explicit ExecRegion(const ActiveRegion& r)
        : mObstacles(upload(r.obstacles)), mEmitters(upload(r.emitters)),
          mWithin(r.within ? ExecGrid<Exec>(r.within) : ExecGrid<Exec>()),
          mSolid(r.solid ? ExecGrid<Exec>(r.solid) : ExecGrid<Exec>()),
          mEmitting(r.emitting ? ExecGrid<Exec>(r.emitting) : ExecGrid<Exec>())
    {
        mView = {r.box.min(),
                 r.box.max(),
                 r.within ? mWithin.grid() : nullptr,
                 mObstacles.data(),
                 uint32_t(r.obstacles.size()),
                 mEmitters.data(),
                 uint32_t(r.emitters.size()),
                 r.solid ? mSolid.grid() : nullptr,
                 r.emitting ? mEmitting.grid() : nullptr};
    }
    const RegionView& view() const { return mView; }

private:
    static Array<Ball> upload(const std::vector<Ball>& balls)
    {
        Array<Ball> a = Exec::template allocate<Ball>(balls.size());
        if (!balls.empty()) Exec::upload(a, balls);
        return a;
    }

    Array<Ball> mObstacles, mEmitters;
    ExecGrid<Exec> mWithin, mSolid, mEmitting;
    RegionView mView{};
};

} // namespace vbm::solver
