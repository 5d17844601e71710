// The multigrid's coarse levels of a domain: level k holds the voxels c >> 1 of level k - 1,
// down to the first of at most CoarsestVoxels. Each level has its grid and VBM in executor
// memory, its Laplacian diagonal, its cross taps and its children in the level above resolved
// once into tables (so its passes are element passes: a small level's stencil launch would
// spend its time in the decode and staging latency), and the V-cycle's arrays on it.
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

    ExecGrid<Exec> grid;
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
        std::vector<HostGridHandle> hosts;
        const HostGridHandle* current = &fineHost;
        for (int k = 1; k <= MaxLevels; ++k) {
            const IndexGrid* g = current->template grid<nanovdb::ValueOnIndex>();
            if (g->activeVoxelCount() <= CoarsestVoxels) break;
            hosts.push_back(coarsened(g));
            current = &hosts.back();
            const IndexGrid* above = k > 1 ? mLevels.back().grid.grid() : fine.grid();
            addLevel(*current, above, run);
        }
    }

    const std::vector<CoarseLevel<Exec>>& levels() const { return mLevels; }
    std::vector<CoarseLevel<Exec>>& levels() { return mLevels; }
    bool empty() const { return mLevels.empty(); }
    /// Bytes of the levels' grids and VBMs, and of their arrays and tables.
    uint64_t gridBytes() const { return mGridBytes; }
    uint64_t arrayBytes() const { return mArrayBytes; }

private:
    /// The voxels c >> 1 of g, as a new grid.
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

    void addLevel(const HostGridHandle& host, const IndexGrid* above, StencilRunner<Exec>& run)
    {
        CoarseLevel<Exec>& lv = mLevels.emplace_back();
        lv.grid = ExecGrid<Exec>(host);
        mGridBytes += lv.grid.gridBytes() + lv.grid.metaBytes();
        lv.n = lv.grid.valueCount();
        for (auto* a : {&lv.diag, &lv.x, &lv.tmp, &lv.b, &lv.r}) {
            *a = Exec::template allocate<float>(lv.n);
            mArrayBytes += lv.n * sizeof(float);
        }
        run.template cross<CountNeighbours>(lv.grid, lv.diag.data());
        lv.neighbours = Exec::template allocate<uint32_t>(6 * lv.n);
        lv.children = Exec::template allocate<uint32_t>(8 * lv.n);
        mArrayBytes += 14 * lv.n * sizeof(uint32_t);
        run.template cross<StoreCrossNeighbours>(lv.grid, lv.neighbours.data());
        run.voxels(lv.grid, StoreChildren{above, lv.grid.grid(), lv.children.data()});
    }

    std::vector<CoarseLevel<Exec>> mLevels;
    uint64_t mGridBytes = 0, mArrayBytes = 0;
};

} // namespace vbm::solver
