// SPDX-License-Identifier: Apache-2.0
// Per-leaf neighbour tables, built once per topology: entry `dir` of leaf l is the index of the
// leaf a cached resolver's stage would find by a root-down probe for l and direction dir (box:
// 27 directions (di+1)*9 + (dj+1)*3 + (dk+1), 13 = l itself; cross: self, -x, +x, -y, +y, -z, +z).
// With a table in the VbmView the cached resolvers read a leaf's row from it instead of staging
// rows per thread block: no probes and no barrier in the launch, the same taps. A field's many
// stencil passes between two rebuilds (CG, the advection's substeps) so share one set of probes.
#pragma once

#include "HostBlockExecutor.h"
#include "LeafTaps.h"
#include "VoxelBlockManager.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace vbm {

/// Entries per leaf of the box and cross tables.
inline constexpr uint32_t boxTableWidth = uint32_t(BoxTapCount), crossTableWidth = uint32_t(CrossTapCount);

/// The leaf in box direction `dir` of leaf `self`, AbsentLeaf if none. Thread-local.
__hostdev__ inline uint32_t boxNeighbourLeaf(const IndexGrid* grid, uint32_t self, uint32_t dir)
{
    if (dir == 13) return self;
    return boxNeighbourAt(grid, leaves(grid)[self].origin(), int(dir / 9) - 1, int(dir / 3 % 3) - 1, int(dir % 3) - 1);
}

/// The leaf in cross direction `dir` (0 = self, then -x, +x, -y, +y, -z, +z) of leaf `self`.
/// Thread-local.
__hostdev__ inline uint32_t crossNeighbourLeaf(const IndexGrid* grid, uint32_t self, uint32_t dir)
{
    return dir == 0 ? self : crossNeighbourAt(grid, leaves(grid)[self].origin(), dir);
}

/// Fills entry e (leaf e / width, direction e % width) of a box or cross table: an element
/// body for an executor's parallel loop.
struct LeafNeighbourEntries {
    const IndexGrid* grid;
    uint32_t* table;
    bool box;
    __hostdev__ void operator()(uint64_t i) const // i = entry + 1 (element loops start at 1)
    {
        const uint32_t width = box ? boxTableWidth : crossTableWidth;
        const uint64_t e = i - 1;
        const uint32_t leaf = uint32_t(e / width), dir = uint32_t(e % width);
        table[e] = box ? boxNeighbourLeaf(grid, leaf, dir) : crossNeighbourLeaf(grid, leaf, dir);
    }
};

/// The box or cross table of a grid in host memory, built on all cores.
inline std::vector<uint32_t> buildLeafNeighbourTableHost(const IndexGrid* grid, bool box)
{
    const uint32_t leafCount = grid->tree().nodeCount(0), width = box ? boxTableWidth : crossTableWidth;
    std::vector<uint32_t> table(uint64_t(leafCount) * width);
    const LeafNeighbourEntries fill{grid, table.data(), box};
    constexpr uint64_t LeavesPerTask = 1024;
    forEachBlockOnHost(0, (leafCount + LeavesPerTask - 1) / LeavesPerTask, [&](uint64_t t) {
        const uint64_t end = std::min<uint64_t>(leafCount, (t + 1) * LeavesPerTask) * width;
        for (uint64_t e = t * LeavesPerTask * width; e < end; ++e)
            fill(e + 1);
    });
    return table;
}

} // namespace vbm
