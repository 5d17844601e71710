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
        mHierarchy = {}; // the old levels go first, not after the new ones are built
        mFine = ExecGrid<Exec>(grid);
        exec.reserve(mFine.valueCount());
        mDiag = Exec::template allocate<float>(mFine.valueCount());
        mRun.template cross<CountNeighbours>(mFine, mDiag.data());
        if (mMultigrid) mHierarchy = MultigridHierarchy<Exec>(grid, mFine, mRun);
        exec.synchronize();
    }

    const ExecGrid<Exec>& fine() const { return mFine; }
    /// Length of a field: last active value index + 1 (index 0 is the background).
    uint64_t valueCount() const { return mFine.valueCount(); }
    uint64_t activeVoxels() const { return mFine.activeVoxels(); }
    /// Active neighbours of each voxel (the diagonal of -L).
    const float* diag() const { return mDiag.data(); }
    /// The coarse levels (levels()[k - 1] is level k); empty without multigrid.
    std::vector<CoarseLevel<Exec>>& levels() { return mHierarchy.levels(); }
    bool hasMultigrid() const { return !mHierarchy.empty(); }

    /// Bytes of the grid and its VBMs, of the diagonal, and of the coarse levels' arrays.
    uint64_t gridAndVbmBytes() const { return mFine.gridBytes() + mFine.metaBytes(); }
    uint64_t diagBytes() const { return mFine.valueCount() * sizeof(float); }
    uint64_t levelArrayBytes() const { return mHierarchy.arrayBytes(); }

private:
    StencilRunner<Exec>& mRun;
    bool mMultigrid;
    ExecGrid<Exec> mFine;
    Array<float> mDiag;
    MultigridHierarchy<Exec> mHierarchy; ///< empty without multigrid
};

} // namespace vbm::solver
