// The simulation's domain: the index grid in executor memory with its VBM at both block
// widths, the Laplacian's diagonal (active neighbours per voxel) and, for a multigrid-
// preconditioned solve, the coarse levels. Everything here follows from the topology alone,
// so rebuild() from a new grid replaces all of it (and drops the executor's recorded launch
// sequences, which name its arrays and sizes).
#pragma once

#include "ExecGrid.h"
#include "MultigridHierarchy.h"
#include "StencilRunner.h"
#include "kernels/LaplacianRow.h"

#include <cstdint>
#include <memory>

namespace vbm::solver {

template <class Exec>
class Domain {
    template <typename T>
    using Array = typename Exec::template Array<T>;

public:
    /// The domain of `grid`; with `multigrid`, its coarse levels too. Passes run through
    /// `run`'s current choice (the tables they fill are the same for any resolver).
    Domain(StencilRunner<Exec>& run, const HostGridHandle& grid, bool multigrid) : mRun(run), mMultigrid(multigrid)
    {
        rebuild(grid);
    }

    /// A new topology: grid, VBMs, diagonal and coarse levels made anew from `grid`.
    void rebuild(const HostGridHandle& grid)
    {
        Exec& exec = mRun.exec();
        exec.forgetReplays();
        mHierarchy.reset();
        mFine = ExecGrid<Exec>(grid);
        exec.reserve(mFine.valueCount());
        mDiag = Exec::template allocate<float>(mFine.valueCount());
        mRun.template cross<CountNeighbours>(mFine, mDiag.data());
        if (mMultigrid) mHierarchy = std::make_unique<MultigridHierarchy<Exec>>(grid, mFine, mRun);
        exec.synchronize();
    }

    const ExecGrid<Exec>& fine() const { return mFine; }
    /// Length of a field: last active value index + 1 (index 0 is the background).
    uint64_t valueCount() const { return mFine.valueCount(); }
    uint64_t activeVoxels() const { return mFine.activeVoxels(); }
    /// Active neighbours of each voxel (the diagonal of -L).
    const float* diag() const { return mDiag.data(); }
    /// The coarse levels (levels()[k - 1] is level k); empty without multigrid.
    std::vector<CoarseLevel<Exec>>& levels() { return mHierarchy ? mHierarchy->levels() : mNoLevels; }
    bool hasMultigrid() const { return mHierarchy && !mHierarchy->empty(); }

    /// Bytes of the grids and VBMs (all levels), of the diagonal, and of the coarse levels' arrays.
    uint64_t gridAndVbmBytes() const
    {
        return mFine.gridBytes() + mFine.metaBytes() + (mHierarchy ? mHierarchy->gridBytes() : 0);
    }
    uint64_t diagBytes() const { return mFine.valueCount() * sizeof(float); }
    uint64_t levelArrayBytes() const { return mHierarchy ? mHierarchy->arrayBytes() : 0; }

private:
    StencilRunner<Exec>& mRun;
    bool mMultigrid;
    ExecGrid<Exec> mFine;
    Array<float> mDiag;
    std::unique_ptr<MultigridHierarchy<Exec>> mHierarchy;
    std::vector<CoarseLevel<Exec>> mNoLevels;
};

} // namespace vbm::solver
