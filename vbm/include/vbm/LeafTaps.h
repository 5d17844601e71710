// SPDX-License-Identifier: Apache-2.0
// The in-leaf tap arithmetic both resolver families share: a tap is an index in one leaf
// (its mask word, a popcount and the leaf's prefix sum), and only the neighbour leaves differ:
// the tree-walk resolvers find them by root-down walks, the cached ones read a staged table.
// Both call the generators here with a `leafOf` that says which.
//
// Indices are added in 32 bits: checkVbmGrid bounds a VBM grid's value count by MaxValueCount.
// Tap orders:
//   box, 27 taps:  tap = (di+1)*9 + (dj+1)*3 + (dk+1) for di, dj, dk in {-1, 0, 1}
//   cross, 7 taps: centre, -x, +x, -y, +y, -z, +z
// An inactive or absent neighbour resolves to index 0. Everything here is thread-local.
#pragma once

#include "BitOps.h"
#include "VoxelBlockManager.h"

#include <cstdint>

namespace vbm {

inline constexpr int BoxTapCount = 27;
inline constexpr int CrossTapCount = 7;

/// A neighbour leaf that does not exist (tables and walks alike).
inline constexpr uint32_t AbsentLeaf = 0xffffffffu;

/// Index of the leaf at `origin`, or AbsentLeaf. Root-down walk.
__hostdev__ inline uint32_t probeLeafIndex(const IndexGrid* grid, const nanovdb::Coord& origin)
{
    const IndexLeaf* leaf = grid->tree().root().probeLeaf(origin);
    return leaf ? uint32_t(leaf - leaves(grid)) : AbsentLeaf;
}

/// Index of the leaf (di, dj, dk) leaves away from the leaf at `origin`, or AbsentLeaf. The one
/// neighbour-leaf probe of the box resolvers: the tree walks per voxel, the tables once per leaf.
__hostdev__ inline uint32_t boxNeighbourAt(const IndexGrid* grid, const nanovdb::Coord& origin, int di, int dj, int dk)
{
    return probeLeafIndex(grid, origin.offsetBy(8 * di, 8 * dj, 8 * dk));
}

/// Index of the leaf across the face cross tap `tap` (1..6: -x, +x, -y, +y, -z, +z) leaves the
/// leaf at `origin` by, or AbsentLeaf. The cross resolvers' one neighbour-leaf probe.
__hostdev__ inline uint32_t crossNeighbourAt(const IndexGrid* grid, nanovdb::Coord origin, uint32_t tap)
{
    origin[(tap - 1) >> 1] += (tap & 1u) ? -8 : 8; // odd taps: the minus side
    return probeLeafIndex(grid, origin);
}

/// Value index the first set bit of mask word xw of a leaf would have: the leaf's first offset
/// plus the active voxels of words 0..xw-1 (its 9-bit prefix-sum field).
__hostdev__ inline uint32_t sliceBase(const IndexLeaf& leaf, uint32_t xw)
{
    const auto* d = leaf.data();
    return uint32_t(d->firstOffset()) + (xw ? uint32_t(d->mPrefixSum >> (9u * (xw - 1))) & 511u : 0u);
}

/// One x-slice word of a leaf's value mask with the value index its first set bit would have:
/// the index of an active bit b of the slice is base + (set bits below b). An absent leaf
/// reads as an empty word.
struct SliceWord {
    uint64_t w;
    uint32_t base;
    /// Value index of bit b (0 when inactive).
    __hostdev__ uint32_t index(uint32_t b) const
    {
        return (w >> b) & 1u ? base + popcount64(w & ((uint64_t(1) << b) - 1)) : 0;
    }
};

/// c ? a : b, field by field. A conditional between two SliceWord lvalues is a reference to one
/// of them, which on the GPU puts all four of a slice's words in local memory (64 bytes of
/// stack in the advection passes); two selects keep them in registers.
__hostdev__ inline SliceWord pickSliceWord(bool c, const SliceWord& a, const SliceWord& b)
{
    return {c ? a.w : b.w, c ? a.base : b.base};
}

/// Slice xw of leaf leafId of the leaf array (AbsentLeaf: an empty word).
__hostdev__ inline SliceWord sliceWord(const IndexLeaf* leafArray, uint32_t leafId, uint32_t xw)
{
    if (leafId == AbsentLeaf) return {0, 0};
    const IndexLeaf& leaf = leafArray[leafId];
    return {leaf.data()->mValueMask.words()[xw], sliceBase(leaf, xw)};
}

/// The three taps z-1, z, z+1 of one row (in-slice bits rowBit + 0..7) of a box x-slice: `m`
/// is the row's word, `e` the word the z-neighbour leaf holds the row in (read where z is 0
/// or 7). One popcount gives the centre's rank; its z-neighbours inside the leaf are the rank
/// minus one and plus the centre's bit.
__hostdev__ inline void boxRowTaps(const SliceWord& m, const SliceWord& e, uint32_t rowBit, uint32_t z,
                                   uint32_t (&t)[3])
{
    const uint32_t b = rowBit + z;
    const uint32_t rank = m.base + popcount64(m.w & ((uint64_t(1) << b) - 1));
    const uint32_t self = uint32_t(m.w >> b) & 1u;
    const uint32_t edge = e.index(z == 0 ? rowBit + 7 : rowBit);
    t[0] = z == 0 ? edge : ((m.w >> (b - 1)) & 1u ? rank - 1 : 0);
    t[1] = self ? rank : 0;
    t[2] = z == 7 ? edge : ((m.w >> (b + 1)) & 1u ? rank + self : 0);
}

/// Streams (tap, index) for the 27 box taps of voxel `voxelOffset`, in tap order, to f.
/// leafOf(lx, ly, lz), each in {0, 1, 2}, gives the leaf displaced by (lx-1, ly-1, lz-1) leaves
/// from the voxel's own (AbsentLeaf if none); it is called only for leaves a tap reaches.
/// The 9 taps of an x-slice lie in one mask word of at most four leaves: the slice's own, its
/// y-edge and z-edge neighbours, and the leaf diagonal to both. Each word is read once per
/// slice (a neighbour the voxel does not reach reads the own word again, so every lane runs
/// the same code); each row of three taps is then one popcount (boxRowTaps).
template <typename LeafOf, typename F>
__hostdev__ inline void forEachBoxTapOf(const IndexLeaf* leafArray, uint16_t voxelOffset, LeafOf&& leafOf, F&& f)
{
    const int x = voxelOffset >> 6, y = (voxelOffset >> 3) & 7, z = voxelOffset & 7;
    const uint32_t yE = y == 0 ? 0u : 2u, zE = z == 0 ? 0u : 2u;
    const bool yEdge = y == 0 || y == 7, zEdge = z == 0 || z == 7;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int di = -1; di <= 1; ++di) {
        const int xs = x + di;
        const uint32_t xw = uint32_t(xs) & 7u, lx = uint32_t(xs + 8) >> 3;
        const uint32_t own = leafOf(lx, 1u, 1u);
        const SliceWord v11 = sliceWord(leafArray, own, xw);
        const SliceWord vY = sliceWord(leafArray, yEdge ? leafOf(lx, yE, 1u) : own, xw);
        const SliceWord vZ = sliceWord(leafArray, zEdge ? leafOf(lx, 1u, zE) : own, xw);
        const SliceWord vYZ = sliceWord(leafArray, yEdge && zEdge ? leafOf(lx, yE, zE) : own, xw);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
        for (int dj = -1; dj <= 1; ++dj) {
            const bool outY = dj < 0 ? y == 0 : dj > 0 ? y == 7 : false;
            uint32_t t[3];
            boxRowTaps(pickSliceWord(outY, vY, v11), pickSliceWord(outY, vYZ, vZ), (uint32_t(y + dj) & 7u) * 8u,
                       uint32_t(z), t);
            const int tap = (di + 1) * 9 + (dj + 1) * 3;
            f(tap, uint64_t(t[0]));
            f(tap + 1, uint64_t(t[1]));
            f(tap + 2, uint64_t(t[2]));
        }
    }
}

/// True when box tap `tap` lies in the octant (sx, sy, sz) (each -1 or +1): each of its offsets
/// is 0 or that axis's sign. An octant holds 8 taps; the centre lies in all of them.
__hostdev__ inline constexpr bool inBoxOctant(int tap, int sx, int sy, int sz)
{
    const int di = tap / 9 - 1, dj = tap / 3 % 3 - 1, dk = tap % 3 - 1;
    return (di == 0 || di == sx) && (dj == 0 || dj == sy) && (dk == 0 || dk == sz);
}

/// The k-th (0..7) box tap of the octant (sx, sy, sz) in tap order: its corner
/// (k >> 2, (k >> 1) & 1, k & 1), each 0 for the axis's lower offset, 1 for the higher.
__hostdev__ inline constexpr int boxOctantTap(int sx, int sy, int sz, int k)
{
    const int di0 = sx < 0 ? 0 : 1, dj0 = sy < 0 ? 0 : 1, dk0 = sz < 0 ? 0 : 1; // (offset + 1) of the lower tap
    return (di0 + (k >> 2)) * 9 + (dj0 + ((k >> 1) & 1)) * 3 + dk0 + (k & 1);
}

/// g(tap) for the 8 box taps of the octant (sx, sy, sz), in tap order.
template <typename G>
__hostdev__ inline void forEachBoxOctantTap(int sx, int sy, int sz, G&& g)
{
    for (int k = 0; k < 8; ++k)
        g(boxOctantTap(sx, sy, sz, k));
}

/// Streams (tap, index) for the 8 box taps of octant (sx, sy, sz) (each -1 or +1) of voxel
/// `voxelOffset`, in tap order: the taps forEachBoxTapOf gives for offsets (di, dj, dk) in
/// {0, sx} x {0, sy} x {0, sz}, with the same values. What a trilinear interpolation towards a
/// known side reads: two x-slices, two rows each, two taps per row, from at most four leaves
/// per slice; leafOf as for forEachBoxTapOf, called only for the leaves these taps reach.
template <typename LeafOf, typename F>
__hostdev__ inline void forEachBoxOctantTapOf(const IndexLeaf* leafArray, uint16_t voxelOffset, int sx, int sy, int sz,
                                              LeafOf&& leafOf, F&& f)
{
    const int x = voxelOffset >> 6, y = (voxelOffset >> 3) & 7, z = voxelOffset & 7;
    const bool yEdge = sy < 0 ? y == 0 : y == 7, zEdge = sz < 0 ? z == 0 : z == 7;
    const uint32_t yE = sy < 0 ? 0u : 2u, zE = sz < 0 ? 0u : 2u;
    const int di0 = sx < 0 ? -1 : 0, dj0 = sy < 0 ? -1 : 0, t0 = sz < 0 ? 0 : 1; // t0: first z tap of a row
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int a = 0; a < 2; ++a) {
        const int di = di0 + a, xs = x + di;
        const uint32_t xw = uint32_t(xs) & 7u, lx = uint32_t(xs + 8) >> 3;
        const uint32_t own = leafOf(lx, 1u, 1u);
        const SliceWord v11 = sliceWord(leafArray, own, xw);
        const SliceWord vY = sliceWord(leafArray, yEdge ? leafOf(lx, yE, 1u) : own, xw);
        const SliceWord vZ = sliceWord(leafArray, zEdge ? leafOf(lx, 1u, zE) : own, xw);
        const SliceWord vYZ = sliceWord(leafArray, yEdge && zEdge ? leafOf(lx, yE, zE) : own, xw);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
        for (int b = 0; b < 2; ++b) {
            const int dj = dj0 + b;
            const bool outY = dj != 0 && yEdge;
            uint32_t t[3];
            boxRowTaps(pickSliceWord(outY, vY, v11), pickSliceWord(outY, vYZ, vZ), (uint32_t(y + dj) & 7u) * 8u,
                       uint32_t(z), t);
            const int tap = (di + 1) * 9 + (dj + 1) * 3 + t0;
            // selects, not t[t0]: a run-time index would put t in local memory
            f(tap, uint64_t(t0 ? t[1] : t[0]));
            f(tap + 1, uint64_t(t0 ? t[2] : t[1]));
        }
    }
}

/// Value index of bit `bit` of mask word `xw` of leaf `leafId`, 0 when the leaf is absent or
/// the voxel inactive.
__hostdev__ inline uint32_t leafTapIndex(const IndexLeaf* leafArray, uint32_t leafId, uint32_t xw, uint32_t bit)
{
    return sliceWord(leafArray, leafId, xw).index(bit);
}

/// The 7 cross taps of voxel `voxelOffset` of leaf `leafIndex`. neighbourOf(tap), tap in 1..6,
/// gives the leaf across the face that tap leaves by (AbsentLeaf if none); it is called only
/// for a voxel on that face. The six neighbours inside the leaf come, branch-free, from three
/// mask words and the centre's index (a neighbour's index is the centre's plus or minus the
/// active voxels between them); then, per axis, a voxel on the leaf's face replaces the tap
/// that leaves it by a lookup in the neighbour leaf. A warp so runs at most three neighbour
/// lookups, not six pairs of both paths. `centre`: the voxel's own value index where the caller
/// knows it (a skeleton's slot index), which saves reading the leaf's offsets; UnknownIndex: the
/// index is computed from the leaf.
inline constexpr uint32_t UnknownIndex = 0xffffffffu;
template <typename NeighbourOf>
__hostdev__ inline void crossTapsOf(const IndexLeaf* leafArray, uint32_t leafIndex, uint16_t voxelOffset,
                                    NeighbourOf&& neighbourOf, uint64_t (&taps)[CrossTapCount],
                                    uint32_t centre = UnknownIndex)
{
    const uint64_t* w = leafArray[leafIndex].data()->mValueMask.words();
    const uint32_t x = voxelOffset >> 6, b = voxelOffset & 63u, y = b >> 3, z = b & 7u;
    const uint64_t wSelf = w[x], wMinus = w[x > 0 ? x - 1 : x], wPlus = w[x < 7 ? x + 1 : x];
    const uint32_t below = popcount64(wSelf & ((uint64_t(1) << b) - 1));
    const uint32_t c = centre != UnknownIndex ? centre : sliceBase(leafArray[leafIndex], x) + below;
    const auto on = [](uint64_t word, uint32_t bit) { return ((word >> bit) & 1u) != 0; };
    // In-leaf values (meaningless on a face the tap leaves by; replaced below).
    uint32_t t1 = on(wMinus, b) ? c - popcount64(wMinus >> b) - below : 0;
    uint32_t t2 = on(wPlus, b) ? c + popcount64(wSelf >> b) + popcount64(wPlus & ((uint64_t(1) << b) - 1)) : 0;
    uint32_t t3 = y > 0 && on(wSelf, b - 8) ? c - popcount64((wSelf >> (b - 8)) & 0xffu) : 0;
    uint32_t t4 = y < 7 && on(wSelf, b + 8) ? c + popcount64((wSelf >> b) & 0xffu) : 0;
    uint32_t t5 = z > 0 && on(wSelf, b - 1) ? c - 1 : 0;
    uint32_t t6 = z < 7 && on(wSelf, b + 1) ? c + 1 : 0;
    if (x == 0 || x == 7) {
        const uint32_t v = leafTapIndex(leafArray, neighbourOf(x == 0 ? 1 : 2), x ^ 7u, b);
        t1 = x == 0 ? v : t1;
        t2 = x == 7 ? v : t2;
    }
    if (y == 0 || y == 7) {
        const uint32_t v = leafTapIndex(leafArray, neighbourOf(y == 0 ? 3 : 4), x, b ^ 56u);
        t3 = y == 0 ? v : t3;
        t4 = y == 7 ? v : t4;
    }
    if (z == 0 || z == 7) {
        const uint32_t v = leafTapIndex(leafArray, neighbourOf(z == 0 ? 5 : 6), x, b ^ 7u);
        t5 = z == 0 ? v : t5;
        t6 = z == 7 ? v : t6;
    }
    taps[0] = c, taps[1] = t1, taps[2] = t2, taps[3] = t3, taps[4] = t4, taps[5] = t5, taps[6] = t6;
}

} // namespace vbm
