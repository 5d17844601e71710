// SPDX-License-Identifier: Apache-2.0
// The multigrid's coarse levels of a domain: level k holds the voxels c >> 1 of level k - 1,
// down to the first of at most CoarsestVoxels. Each level keeps its cross taps and its children
// in the level above, resolved once into tables (so its passes are element passes: a small
// level's stencil launch would spend its time in the decode and staging latency); its diagonal
// is counted from the taps' table where it is used (tableDiag). The V-cycle's arrays on the
// levels are not kept here: they live in a scratch array the caller hands in (a fine-level
// temporary that is dead during the V-cycle: the CG direction its next product overwrites), at the offsets each level
// records, and only where that does not fit (a thin domain whose levels shrink slowly) in an
// array of the hierarchy's own. Its grid and VBM are needed only to build
// those tables, so they are freed once the next level is built: NanoVDB's root and internal
// nodes make a small grid costly per voxel (on the 1.1M-voxel plume the coarse grids took
// 4.5 B per fine voxel).
#pragma once

#include "exec/ExecGrid.h"
#include "exec/StencilRunner.h"
#include "kernels/MultigridBodies.h"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace vbm::solver {

template <class Exec>
struct CoarseLevel {
    template <typename T>
    using Array = typename Exec::template Array<T>;

    uint64_t n = 0;             ///< value count (index 0 is the background)
    Array<uint32_t> neighbours; ///< StoreCrossNeighbours' table, 6 per voxel
    Array<uint32_t> childBase;  ///< StoreChildren's table (ChildTable), into the level above
    Array<uint64_t> childOffsets;
    /// Where the V-cycle's solution, sweep and right-hand side start in the scratch array (each
    /// n floats). The residual shares the solution's array: x is dead from the residual, which
    /// reads the sweep, until the sweep after the coarse correction writes it.
    uint64_t x = 0, tmp = 0, b = 0;
    /// Fixed voxels (MarkCoarseFixed: a child is fixed), nonzero where fixed; empty when the
    /// fine level has none (fixed-topology scenes).
    Array<float> fixedMask;
    ChildTable children() const { return {childBase.data(), childOffsets.data()}; }
    const float* fixed() const { return fixedMask.size() ? fixedMask.data() : nullptr; }
};

template <class Exec>
class MultigridHierarchy {
    template <typename T>
    using Array = typename Exec::template Array<T>;

public:
    /// The coarsest level is the first with at most this many voxels. On the 4.2M plume (H200,
    /// same runs) 500 voxels and 40 coarsest sweeps took 6 CG iterations, where 2000 took 7.
    static constexpr uint64_t CoarsestVoxels = 500;
    static constexpr int MaxLevels = 11;

    MultigridHierarchy() = default;
    /// The levels below `fine` (its host copy `fineHost`), tables resolved through `run`'s
    /// current choice (they are the same for any resolver). `fineFixed`: the fine level's fixed
    /// voxels (its air cells; null: none), which mark each level's (MarkCoarseFixed).
    MultigridHierarchy(const HostGridHandle& fineHost, const ExecGrid<Exec>& fine, StencilRunner<Exec>& run,
                       const float* fineFixed)
    {
        if (fine.valueCount() > UINT32_MAX) throw std::invalid_argument("multigrid tables need fewer than 2^32 voxels");
        HostGridHandle coarseHost;
        const IndexGrid* g = fineHost.template grid<nanovdb::ValueOnIndex>();
        ExecGrid<Exec> above; // level k - 1's grid while level k is built (k > 1)
        for (int k = 1; k <= MaxLevels && g->activeVoxelCount() > CoarsestVoxels; ++k) {
            coarseHost = coarsened(g);
            g = coarseHost.template grid<nanovdb::ValueOnIndex>();
            ExecGrid<Exec> here(coarseHost);
            addLevel(here, k > 1 ? above.grid() : fine.grid(), run, fineFixed);
            run.exec().synchronize(); // the launches that read `above` are done: it may go
            above = std::move(here);
        }
    }

    /// The levels below `fine` (already in executor memory), each made from the one above by
    /// coarsen(const ExecGrid<Exec>&) -> ExecGrid<Exec> (the voxels c >> 1): a rebuild's
    /// hierarchy, on the device for the CUDA backend.
    template <typename Coarsen>
    MultigridHierarchy(const ExecGrid<Exec>& fine, StencilRunner<Exec>& run, const float* fineFixed, Coarsen&& coarsen)
    {
        if (fine.valueCount() > UINT32_MAX) throw std::invalid_argument("multigrid tables need fewer than 2^32 voxels");
        ExecGrid<Exec> above;
        const ExecGrid<Exec>* from = &fine;
        for (int k = 1; k <= MaxLevels && from->activeVoxels() > CoarsestVoxels; ++k) {
            ExecGrid<Exec> here = coarsen(*from);
            addLevel(here, from->grid(), run, fineFixed);
            run.exec().synchronize(); // the launches that read `above` are done: it may go
            above = std::move(here);
            from = &above;
        }
    }

    /// The voxels c >> 1 of g (in host memory), as a new grid.
    static HostGridHandle coarsened(const IndexGrid* g) { return indexGridFromLeaves(coarsenedLeaves(g)); }

    const std::vector<CoarseLevel<Exec>>& levels() const { return mLevels; }
    std::vector<CoarseLevel<Exec>>& levels() { return mLevels; }
    bool empty() const { return mLevels.empty(); }
    /// Bytes of the levels' tables (and of the scratch array, where they needed their own).
    uint64_t arrayBytes() const { return mArrayBytes + mOwnScratch.size() * sizeof(float); }
    /// Floats of scratch the levels' V-cycle arrays take.
    uint64_t scratchFloats() const { return mScratchFloats; }
    /// The scratch array to use: `given` (at least `givenFloats` long), or the hierarchy's own
    /// where the levels do not fit in it (allocated once, on the first call that needs it).
    float* scratch(float* given, uint64_t givenFloats)
    {
        if (mScratchFloats <= givenFloats) return given;
        if (mOwnScratch.size() < mScratchFloats) mOwnScratch = Exec::template allocate<float>(mScratchFloats);
        return mOwnScratch.data();
    }

private:
    /// Level `grid`'s arrays and tables; `above` is the grid of the level above, `fineFixed` the
    /// fine level's fixed voxels (null: none).
    void addLevel(const ExecGrid<Exec>& grid, const IndexGrid* above, StencilRunner<Exec>& run, const float* fineFixed)
    {
        CoarseLevel<Exec>& lv = mLevels.emplace_back();
        lv.n = grid.valueCount();
        lv.x = mScratchFloats, lv.tmp = lv.x + lv.n, lv.b = lv.tmp + lv.n;
        mScratchFloats += 3 * lv.n;
        lv.neighbours = Exec::template allocate<uint32_t>(6 * lv.n);
        lv.childBase = Exec::template allocate<uint32_t>(lv.n);
        lv.childOffsets = Exec::template allocate<uint64_t>(lv.n);
        mArrayBytes += lv.n * (7 * sizeof(uint32_t) + sizeof(uint64_t));
        run.template cross<StoreCrossNeighbours>(grid, lv.neighbours.data());
        run.voxels(grid, StoreChildren{above, grid.grid(), lv.childBase.data(), lv.childOffsets.data()});
        if (fineFixed) {
            const float* aboveFixed = mLevels.size() > 1 ? mLevels[mLevels.size() - 2].fixed() : fineFixed;
            lv.fixedMask = Exec::template allocate<float>(lv.n);
            mArrayBytes += lv.n * sizeof(float);
            run.exec().elements(lv.n, MarkCoarseFixed{lv.children(), aboveFixed, lv.fixedMask.data()});
        }
    }

    std::vector<CoarseLevel<Exec>> mLevels;
    uint64_t mArrayBytes = 0, mScratchFloats = 0;
    Array<float> mOwnScratch; ///< only where the levels do not fit in the caller's scratch
};

} // namespace vbm::solver
