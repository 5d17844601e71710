// SPDX-License-Identifier: Apache-2.0
// The CPU backend's TopologyBuilder (ActiveSetRebuild.h): the seeds read from host memory, the
// set made by activeSetOnHost(), the grid and VBM built on the host; the multigrid's coarse
// grids as at load time.
#pragma once

#include "domain/ActiveSet.h"
#include "domain/ActiveSetRebuild.h"
#include "exec/HostExec.h"
#include "domain/MultigridHierarchy.h"

#include <vector>

namespace vbm::solver {

template <>
struct TopologyBuilder<HostExec> {
    using Topology = HostGridHandle;

    TopologyBuilder(HostExec&, const ActiveRegion& region, const RegionView&) : mRegion(copyOf(region)) {}

    Topology build(const ExecGrid<HostExec>& grid, const SeedTest& seed, int margin) const
    {
        const IndexGrid* g = grid.grid();
        std::vector<nanovdb::Coord> seeds;
        for (uint32_t i = 0; i < g->tree().nodeCount(0); ++i)
            for (auto on = leaves(g)[i].valueMask().beginOn(); on; ++on)
                if (seed(leaves(g)[i].getValue(*on))) seeds.push_back(leaves(g)[i].offsetToGlobalCoord(*on));
        return activeSetOnHost(seeds, margin, mRegion);
    }
    ExecGrid<HostExec> execGrid(Topology&& t) const { return ExecGrid<HostExec>(t); }
    ExecGrid<HostExec> coarsen(const ExecGrid<HostExec>& g) const
    {
        return ExecGrid<HostExec>(MultigridHierarchy<HostExec>::coarsened(g.grid()));
    }

private:
    ActiveRegion mRegion; ///< the scene's (a copy: the solver may outlive the scene)
};

} // namespace vbm::solver
