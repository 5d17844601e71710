// SPDX-License-Identifier: Apache-2.0
// The simulation's domain: the index grid in executor memory with its VBM at both block
// widths, the Laplacian's diagonal (active neighbours per voxel) and, for a multigrid-
// preconditioned solve, the coarse levels. Everything here follows from the topology alone,
// so rebuild() from a new grid replaces all of it (and drops the executor's recorded launch
// sequences, which name its arrays and sizes). Adaptive scenes also mark their air cells here
// (kernels/ActiveSetBodies.h), and their rebuild hands in a grid already in executor memory.
// The members that launch passes are defined in DomainImpl.h, compiled per backend in a unit of
// their own (solver/CMakeLists.txt).
#pragma once

#include "exec/ExecGrid.h"
#include "domain/MultigridHierarchy.h"
#include "exec/StencilRunner.h"
#include "kernels/ActiveSetBodies.h"

#include <cstdint>

namespace vbm::solver {

template <class Exec>
class Domain {
    template <typename T>
    using Array = typename Exec::template Array<T>;

public:
    /// The domain of `grid`; with `multigrid`, its coarse levels too. Passes run through
    /// `run`'s current choice (the tables they fill are the same for any resolver). `region`
    /// (adaptive scenes, in executor memory; kept by the caller) gives the air cells.
    /// With `tapTable`, the fine level also stores its cross taps (kernels/StoredTaps.h).
    Domain(StencilRunner<Exec>& run, const HostGridHandle& grid, bool multigrid, const RegionView* region = nullptr,
           bool tapTable = false)
        : mRun(run), mMultigrid(multigrid), mTapTable(tapTable), mRegion(region)
    {
        rebuild(grid);
    }

    /// A new topology: grid, VBMs, diagonal and coarse levels made anew from `grid`.
    void rebuild(const HostGridHandle& grid);

    /// A new topology already in executor memory: its air cells and diagonal; the coarse levels
    /// are dropped until setHierarchy().
    void adopt(ExecGrid<Exec>&& grid);
    void setHierarchy(MultigridHierarchy<Exec>&& h) { mHierarchy = std::move(h); }
    bool wantsMultigrid() const { return mMultigrid; }

    const ExecGrid<Exec>& fine() const { return mFine; }
    /// Length of a field: last active value index + 1 (index 0 is the background).
    uint64_t valueCount() const { return mFine.valueCount(); }
    uint64_t activeVoxels() const { return mFine.activeVoxels(); }
    /// Active neighbours of each voxel (the diagonal of -L), 0..6.
    const uint8_t* diag() const { return mDiag.data(); }
    /// The air cells' open faces (kernels/ActiveSetBodies.h); null in fixed-topology scenes.
    const float* air() const { return mRegion ? mAir.data() : nullptr; }
    /// The coarse levels (levels()[k - 1] is level k); empty without multigrid.
    std::vector<CoarseLevel<Exec>>& levels() { return mHierarchy.levels(); }
    bool hasMultigrid() const { return !mHierarchy.empty(); }
    /// Where the coarse levels' V-cycle arrays go: `given`, a fine-level temporary (valueCount()
    /// floats at least), or where they do not fit, an array of the hierarchy's own.
    float* multigridScratch(float* given) { return mHierarchy.scratch(given, valueCount()); }

    /// Bytes of the grid, its VBMs and its tap table, of the diagonal, and of the coarse levels' arrays.
    /// Whether the fine level stores its cross taps (kept through rebuilds).
    bool tapTable() const { return mTapTable; }
    uint64_t gridAndVbmBytes() const { return mFine.gridBytes() + mFine.metaBytes() + mFine.tapTableBytes(); }
    uint64_t diagBytes() const { return mFine.valueCount() * (sizeof(uint8_t) + (mRegion ? sizeof(float) : 0)); }
    uint64_t levelArrayBytes() const { return mHierarchy.arrayBytes(); }

private:
    StencilRunner<Exec>& mRun;
    bool mMultigrid;
    bool mTapTable;
    const RegionView* mRegion;
    ExecGrid<Exec> mFine;
    Array<uint8_t> mDiag;
    Array<float> mAir;                   ///< adaptive scenes only
    MultigridHierarchy<Exec> mHierarchy; ///< empty without multigrid
};

} // namespace vbm::solver
