// SPDX-License-Identifier: Apache-2.0
// The plain resolvers: each neighbour leaf a tap reaches is found by a root-down tree walk;
// the taps inside the voxel's own leaf read its mask directly (LeafTaps.h, the arithmetic
// the cached resolvers share). Thread-local: no shared memory, no barrier, safe from
// divergent threads (the decode feeding them is too).
//
// Tap orders (an inactive or absent neighbour resolves to index 0):
//   box, 27 taps:  tap = (di+1)*9 + (dj+1)*3 + (dk+1) for di, dj, dk in {-1, 0, 1}
//   cross, 7 taps: centre, -x, +x, -y, +y, -z, +z
// Slots decoded as UnusedLeafIndex leave the output untouched (no callback, no write).
#pragma once

#include "LeafTaps.h"
#include "VoxelBlockManager.h"

#include <cstdint>

namespace vbm {

/// Box tap of a cross tap (centre, -x, +x, -y, +y, -z, +z), for box resolvers feeding cross consumers.
__hostdev__ inline constexpr int boxTapOfCrossTap(int crossTap)
{
    constexpr int map[CrossTapCount] = {13, 4, 22, 10, 16, 12, 14};
    return map[crossTap];
}

/// Gathers the 7 cross taps, in cross order, from a cross resolver's 7 or a box resolver's 27
/// (box taps 13, 4, 22, 10, 16, 12, 14: boxTapOfCrossTap). Thread-local.
template <bool FromBox>
struct CrossTaps {
    uint64_t n[CrossTapCount] = {};
    __hostdev__ void operator()(int tap, uint64_t index)
    {
        if constexpr (FromBox) {
            switch (tap) {
            case 13:
                n[0] = index;
                break;
            case 4:
                n[1] = index;
                break;
            case 22:
                n[2] = index;
                break;
            case 10:
                n[3] = index;
                break;
            case 16:
                n[4] = index;
                break;
            case 12:
                n[5] = index;
                break;
            case 14:
                n[6] = index;
                break;
            default:
                break;
            }
        } else {
            n[tap] = index;
        }
    }
};

/// The cross taps of one voxel from a `taps(f)` that streams (tap, index).
template <bool FromBox, typename Taps>
__hostdev__ inline CrossTaps<FromBox> gatherCross(Taps&& taps)
{
    CrossTaps<FromBox> c;
    taps(c);
    return c;
}

/// Streams (tap, index) for the 27 box taps, in tap order, to f: the neighbour leaves a tap
/// reaches by walks from the root, each at most once per x-slice. Thread-local.
template <typename F>
__hostdev__ inline void forEachBoxStencil(const IndexGrid* grid, uint32_t leafIndex, uint16_t voxelOffset, F&& f)
{
    if (leafIndex == UnusedLeafIndex) return;
    const IndexLeaf* const leafArray = leaves(grid);
    const nanovdb::Coord o = leafArray[leafIndex].origin();
    const auto leafOf = [&](uint32_t lx, uint32_t ly, uint32_t lz) {
        return lx == 1 && ly == 1 && lz == 1 ? leafIndex
                                             : boxNeighbourAt(grid, o, int(lx) - 1, int(ly) - 1, int(lz) - 1);
    };
    forEachBoxTapOf(leafArray, voxelOffset, leafOf, f);
}

/// Streams (tap, index) for the 8 box taps of octant (sx, sy, sz) (forEachBoxOctantTapOf), in
/// tap order, finding neighbour leaves by walks from the root. Thread-local.
template <typename F>
__hostdev__ inline void forEachBoxOctant(const IndexGrid* grid, uint32_t leafIndex, uint16_t voxelOffset, int sx,
                                         int sy, int sz, F&& f)
{
    if (leafIndex == UnusedLeafIndex) return;
    const IndexLeaf* const leafArray = leaves(grid);
    const nanovdb::Coord o = leafArray[leafIndex].origin();
    const auto leafOf = [&](uint32_t lx, uint32_t ly, uint32_t lz) {
        return lx == 1 && ly == 1 && lz == 1 ? leafIndex
                                             : boxNeighbourAt(grid, o, int(lx) - 1, int(ly) - 1, int(lz) - 1);
    };
    forEachBoxOctantTapOf(leafArray, voxelOffset, sx, sy, sz, leafOf, f);
}

/// Materializes the 27 box taps. Thread-local.
__hostdev__ inline void computeBoxStencil(const IndexGrid* grid, uint32_t leafIndex, uint16_t voxelOffset,
                                          uint64_t (&taps)[BoxTapCount])
{
    forEachBoxStencil(grid, leafIndex, voxelOffset, [&](int tap, uint64_t index) { taps[tap] = index; });
}

/// Materializes the 7 cross taps: the neighbour leaf across a face the voxel lies on by a walk
/// from the root. `centre`: the voxel's value index where known (crossTapsOf). Thread-local.
__hostdev__ inline void computeCrossStencil(const IndexGrid* grid, uint32_t leafIndex, uint16_t voxelOffset,
                                            uint64_t (&taps)[CrossTapCount], uint32_t centre = UnknownIndex)
{
    if (leafIndex == UnusedLeafIndex) return;
    const IndexLeaf* const leafArray = leaves(grid);
    const nanovdb::Coord o = leafArray[leafIndex].origin();
    const auto neighbourOf = [&](int tap) { return crossNeighbourAt(grid, o, uint32_t(tap)); };
    crossTapsOf(leafArray, leafIndex, voxelOffset, neighbourOf, taps, centre);
}

} // namespace vbm
