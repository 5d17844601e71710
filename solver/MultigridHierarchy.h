// The multigrid's coarse levels of a domain: level k holds the voxels c >> 1 of level k - 1,
// down to the first of at most CoarsestVoxels. Each level keeps its Laplacian diagonal, its
// cross taps and its children in the level above, resolved once into tables (so its passes
// are element passes: a small level's stencil launch would spend its time in the decode and
// staging latency), and the V-cycle's arrays on it. Its grid and VBM are needed only to build
// those tables, so they are freed once the next level is built: NanoVDB's root and internal
// nodes make a small grid costly per voxel (on the 1.1M-voxel plume the coarse grids took
// 4.5 B per fine voxel).
#pragma once

#include "ExecGrid.h"
#include "StencilRunner.h"
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
    Array<float> diag;          ///< active neighbours per voxel (the diagonal of -L_k)
    Array<float> x, tmp, b, r;  ///< the V-cycle's solution, sweep, right-hand side and residual here
    Array<uint32_t> neighbours; ///< StoreCrossNeighbours' table, 6 per voxel
    Array<uint32_t> children;   ///< StoreChildren's table, 8 per voxel, into the level above
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
    /// current choice (they are the same for any resolver).
    MultigridHierarchy(const HostGridHandle& fineHost, const ExecGrid<Exec>& fine, StencilRunner<Exec>& run)
    {
        if (fine.valueCount() > UINT32_MAX) throw std::invalid_argument("multigrid tables need fewer than 2^32 voxels");
        HostGridHandle coarseHost;
        const IndexGrid* g = fineHost.template grid<nanovdb::ValueOnIndex>();
        ExecGrid<Exec> above; // level k - 1's grid while level k is built (k > 1)
        for (int k = 1; k <= MaxLevels && g->activeVoxelCount() > CoarsestVoxels; ++k) {
            coarseHost = coarsened(g);
            g = coarseHost.template grid<nanovdb::ValueOnIndex>();
            ExecGrid<Exec> here(coarseHost);
            addLevel(here, k > 1 ? above.grid() : fine.grid(), run);
            run.exec().synchronize(); // the launches that read `above` are done: it may go
            above = std::move(here);
        }
    }

    /// The levels below `fine` (already in executor memory), each made from the one above by
    /// coarsen(const ExecGrid<Exec>&) -> ExecGrid<Exec> (the voxels c >> 1): a rebuild's
    /// hierarchy, on the device for the CUDA backend.
    template <typename Coarsen>
    MultigridHierarchy(const ExecGrid<Exec>& fine, StencilRunner<Exec>& run, Coarsen&& coarsen)
    {
        if (fine.valueCount() > UINT32_MAX) throw std::invalid_argument("multigrid tables need fewer than 2^32 voxels");
        ExecGrid<Exec> above;
        const ExecGrid<Exec>* from = &fine;
        for (int k = 1; k <= MaxLevels && from->activeVoxels() > CoarsestVoxels; ++k) {
            ExecGrid<Exec> here = coarsen(*from);
            addLevel(here, from->grid(), run);
            run.exec().synchronize(); // the launches that read `above` are done: it may go
            above = std::move(here);
            from = &above;
        }
    }

    /// The voxels c >> 1 of g (in host memory), as a new grid.
    static HostGridHandle coarsened(const IndexGrid* g)
    {
        std::vector<nanovdb::Coord> coarse;
        coarse.reserve(g->activeVoxelCount() / 4);
        for (uint32_t i = 0; i < g->tree().nodeCount(0); ++i)
            for (auto on = leaves(g)[i].valueMask().beginOn(); on; ++on) {
                const auto c = leaves(g)[i].offsetToGlobalCoord(*on);
                coarse.emplace_back(c[0] >> 1, c[1] >> 1, c[2] >> 1);
            }
        return indexGridFromCoords(coarse);
    }

    const std::vector<CoarseLevel<Exec>>& levels() const { return mLevels; }
    std::vector<CoarseLevel<Exec>>& levels() { return mLevels; }
    bool empty() const { return mLevels.empty(); }
    /// Bytes of the levels' arrays and tables (all they keep).
    uint64_t arrayBytes() const { return mArrayBytes; }

private:
    /// Level `grid`'s arrays and tables; `above` is the grid of the level above.
    void addLevel(const ExecGrid<Exec>& grid, const IndexGrid* above, StencilRunner<Exec>& run)
    {
        CoarseLevel<Exec>& lv = mLevels.emplace_back();
        lv.n = grid.valueCount();
        for (auto* a : {&lv.diag, &lv.x, &lv.tmp, &lv.b, &lv.r}) {
            *a = Exec::template allocate<float>(lv.n);
            mArrayBytes += lv.n * sizeof(float);
        }
        run.template cross<CountNeighbours>(grid, lv.diag.data());
        lv.neighbours = Exec::template allocate<uint32_t>(6 * lv.n);
        lv.children = Exec::template allocate<uint32_t>(8 * lv.n);
        mArrayBytes += 14 * lv.n * sizeof(uint32_t);
        run.template cross<StoreCrossNeighbours>(grid, lv.neighbours.data());
        run.voxels(grid, StoreChildren{above, grid.grid(), lv.children.data()});
    }

    std::vector<CoarseLevel<Exec>> mLevels;
    uint64_t mArrayBytes = 0;
};

} // namespace vbm::solver
