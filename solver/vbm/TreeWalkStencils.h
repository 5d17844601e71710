// The plain resolvers: every tap found by a root-down tree walk (the cross reads its centre,
// the voxel itself, from its own leaf). Thread-local: no shared
// memory, no barrier, safe from divergent threads (the decode feeding them is too).
//
// Tap orders (an inactive or absent neighbour resolves to index 0):
//   box, 27 taps:  tap = (di+1)*9 + (dj+1)*3 + (dk+1) for di, dj, dk in {-1, 0, 1}
//   cross, 7 taps: centre, -x, +x, -y, +y, -z, +z
// Slots decoded as UnusedLeafIndex leave the output untouched (no callback, no write).
#pragma once

#include "VoxelBlockManager.h"

#include <cstdint>

namespace vbm {

inline constexpr int BoxTapCount = 27;
inline constexpr int CrossTapCount = 7;

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

/// Streams (tap, index) for the 27 box taps, in tap order, to f. Thread-local.
template <typename F>
__hostdev__ inline void forEachBoxStencil(const IndexGrid* grid, uint32_t leafIndex, uint16_t voxelOffset, F&& f)
{
    if (leafIndex == UnusedLeafIndex) return;
    const auto& tree = grid->tree();
    const nanovdb::Coord c = leaves(grid)[leafIndex].offsetToGlobalCoord(voxelOffset);
    int tap = 0;
    for (int di = -1; di <= 1; ++di)
        for (int dj = -1; dj <= 1; ++dj)
            for (int dk = -1; dk <= 1; ++dk, ++tap)
                f(tap, uint64_t(tree.getValue(c.offsetBy(di, dj, dk))));
}

/// Materializes the 27 box taps. Thread-local.
__hostdev__ inline void computeBoxStencil(const IndexGrid* grid, uint32_t leafIndex, uint16_t voxelOffset,
                                          uint64_t (&taps)[BoxTapCount])
{
    forEachBoxStencil(grid, leafIndex, voxelOffset, [&](int tap, uint64_t index) { taps[tap] = index; });
}

/// Materializes the 7 cross taps. Thread-local.
__hostdev__ inline void computeCrossStencil(const IndexGrid* grid, uint32_t leafIndex, uint16_t voxelOffset,
                                            uint64_t (&taps)[CrossTapCount])
{
    if (leafIndex == UnusedLeafIndex) return;
    const auto& tree = grid->tree();
    const IndexLeaf& leaf = leaves(grid)[leafIndex];
    const nanovdb::Coord c = leaf.offsetToGlobalCoord(voxelOffset);
    taps[0] = leaf.data()->getValue(voxelOffset);
    taps[1] = tree.getValue(c.offsetBy(-1, 0, 0));
    taps[2] = tree.getValue(c.offsetBy(1, 0, 0));
    taps[3] = tree.getValue(c.offsetBy(0, -1, 0));
    taps[4] = tree.getValue(c.offsetBy(0, 1, 0));
    taps[5] = tree.getValue(c.offsetBy(0, 0, -1));
    taps[6] = tree.getValue(c.offsetBy(0, 0, 1));
}

} // namespace vbm
