// SPDX-License-Identifier: Apache-2.0
// The CPU form of the cached resolvers' table: for one leaf, the value indices of its 8^3
// voxels and of the one-voxel halo around it (from the neighbour leaves), dense, 0 where a
// voxel is inactive or its leaf absent. Each tap is then one load at a fixed offset from the
// voxel's entry. Filled once per leaf and pass from the mask words and prefix sums (every
// active voxel's index costs one popcount at most); 8 KB, so it stays in L1. Host only: on the
// GPU a thread block stages a table of neighbour leaves instead (CachedStencils.h).
#pragma once

#include "BitOps.h"
#include "VoxelBlockManager.h"

#include <cstdint>
#include <cstring>

namespace vbm {

struct LeafNeighbourhood {
    /// Entry of local voxel (x, y, z), each in [-1, 8].
    static constexpr int at(int x, int y, int z) { return (x + 1) * 100 + (y + 1) * 10 + (z + 1); }
    /// Offset between a voxel's entry and its neighbour's at (di, dj, dk).
    static constexpr int offset(int di, int dj, int dk) { return di * 100 + dj * 10 + dk; }
    /// Entry of voxel `voxelOffset` (0..511, x-major as NanoVDB's leaves) of the leaf itself.
    static int entryOf(uint32_t voxelOffset)
    {
        return at(int(voxelOffset >> 6), int((voxelOffset >> 3) & 7), int(voxelOffset & 7));
    }

    alignas(64) uint64_t index[1000];

    /// Fills the entries of `self` and of the halo from neighbour(di, dj, dk) (a leaf pointer,
    /// nullptr when absent): all 26 neighbours for the box, the 6 face neighbours for the cross
    /// (the cross never reads an edge or corner entry).
    template <bool Box, typename NeighbourOf>
    void fill(const IndexLeaf& self, NeighbourOf&& neighbour)
    {
        std::memset(index, 0, sizeof index);
        const auto* d = self.data();
        uint64_t next = d->firstOffset();
        for (int x = 0; x < 8; ++x)
            for (uint64_t w = d->mValueMask.words()[x]; w; w &= w - 1, ++next) {
                const int b = __builtin_ctzll(w);
                index[at(x, b >> 3, b & 7)] = next;
            }
        for (int di = -1; di <= 1; ++di)
            for (int dj = -1; dj <= 1; ++dj)
                for (int dk = -1; dk <= 1; ++dk) {
                    const int away = (di != 0) + (dj != 0) + (dk != 0);
                    if (away == 0 || (!Box && away > 1)) continue;
                    if (const IndexLeaf* n = neighbour(di, dj, dk)) fillHalo(*n, di, dj, dk);
                }
    }

private:
    /// The halo entries that leaf `n`, the neighbour at (di, dj, dk), holds: its slice next to
    /// the leaf along each axis where d != 0.
    void fillHalo(const IndexLeaf& n, int di, int dj, int dk)
    {
        const auto* d = n.data();
        const uint64_t yMask = dj < 0 ? 0xff00000000000000ull : dj > 0 ? 0xffull : ~0ull;
        const uint64_t zMask = dk < 0 ? 0x8080808080808080ull : dk > 0 ? 0x0101010101010101ull : ~0ull;
        const int x0 = di < 0 ? 7 : 0, x1 = di > 0 ? 0 : 7;
        for (int x = x0; x <= x1; ++x) {
            const uint64_t word = d->mValueMask.words()[x];
            const uint64_t base = d->firstOffset() + (x ? uint32_t(d->mPrefixSum >> (9u * (x - 1))) & 511u : 0u);
            for (uint64_t w = word & yMask & zMask; w; w &= w - 1) {
                const int b = __builtin_ctzll(w);
                index[at(x + 8 * di, (b >> 3) + 8 * dj, (b & 7) + 8 * dk)] =
                    base + popcount64(word & ((uint64_t(1) << b) - 1));
            }
        }
    }
};

} // namespace vbm
