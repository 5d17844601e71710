// SPDX-License-Identifier: Apache-2.0
// The pressure multigrid's transfer operators on a sparse domain with walls and an obstacle:
// restriction is exactly the transpose of the trilinear prolongation (so the V-cycle, and CG
// preconditioned by it, stay symmetric), interpolation keeps constants, and a wall cuts links.
// The cross-neighbour and children tables are built here by plain accessor lookups, not by the
// solver's resolver passes, so the test checks the transfer bodies on their own.
#include "GridGenerators.h"
#include "kernels/TrilinearTransfer.h"
#include "vbm/VoxelBlockManager.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace vbm;
using namespace vbm::solver;

namespace {

struct LevelPair {
    HostGridHandle fine, coarse;
    uint64_t fineCount = 0, coarseCount = 0; ///< value counts (index 0 is the background)
    std::vector<uint32_t> neighbours;        ///< 6 per coarse voxel
    std::vector<uint32_t> children;          ///< 8 per coarse voxel
    std::vector<uint32_t> childBase;         ///< children packed as the solver keeps them (ChildTable)
    std::vector<uint64_t> childOffsets;
    ChildTable table() const { return {childBase.data(), childOffsets.data()}; }
};

std::vector<nanovdb::Coord> activeCoords(const IndexGrid* g)
{
    std::vector<nanovdb::Coord> out;
    for (uint32_t i = 0; i < g->tree().nodeCount(0); ++i)
        for (auto on = leaves(g)[i].valueMask().beginOn(); on; ++on)
            out.push_back(leaves(g)[i].offsetToGlobalCoord(*on));
    return out;
}

/// A ball of radius 9 less a slab wall through it (one voxel thick, with a hole) and a small
/// ball: concave corners, one-voxel gaps and partial 2x2x2 blocks, all of which the linked-box
/// rule has to treat the same from both ends.
std::vector<nanovdb::Coord> ballWithWallAndObstacle()
{
    std::vector<nanovdb::Coord> fine;
    for (int x = -10; x <= 10; ++x)
        for (int y = -10; y <= 10; ++y)
            for (int z = -10; z <= 10; ++z) {
                if (x * x + y * y + z * z > 81) continue;
                if (x == 1 && !(y * y + z * z < 9)) continue;                    // the wall, and its hole
                if ((x + 4) * (x + 4) + (y - 3) * (y - 3) + z * z < 7) continue; // the obstacle
                fine.emplace_back(x, y, z);
            }
    return fine;
}

LevelPair makeLevels(const std::vector<nanovdb::Coord>& fine = ballWithWallAndObstacle())
{
    LevelPair p;
    p.fine = indexGridFromCoords(fine);
    std::vector<nanovdb::Coord> coarse;
    for (const auto& c : fine)
        coarse.emplace_back(c[0] >> 1, c[1] >> 1, c[2] >> 1);
    p.coarse = indexGridFromCoords(coarse);
    const IndexGrid* fg = p.fine.grid<nanovdb::ValueOnIndex>();
    const IndexGrid* cg = p.coarse.grid<nanovdb::ValueOnIndex>();
    p.fineCount = fg->valueCount();
    p.coarseCount = cg->valueCount();
    p.neighbours.assign(6 * p.coarseCount, 0);
    p.children.assign(8 * p.coarseCount, 0);
    auto fa = fg->getAccessor();
    auto ca = cg->getAccessor();
    for (const auto& c : activeCoords(cg)) {
        const uint64_t i = ca.getValue(c);
        for (int axis = 0; axis < 3; ++axis)
            for (int s = 0; s < 2; ++s) {
                nanovdb::Coord n = c;
                n[axis] += s ? 1 : -1;
                p.neighbours[6 * i + 2 * axis + s] = uint32_t(ca.getValue(n));
            }
        for (int o = 0; o < 8; ++o)
            p.children[8 * i + o] = uint32_t(
                fa.getValue(nanovdb::Coord(2 * c[0] + (o >> 2), 2 * c[1] + ((o >> 1) & 1), 2 * c[2] + (o & 1))));
    }
    p.childBase.assign(p.coarseCount, 0);
    p.childOffsets.assign(p.coarseCount, 0);
    for (uint64_t i = 1; i < p.coarseCount; ++i) {
        uint32_t eight[8];
        for (int o = 0; o < 8; ++o)
            eight[o] = p.children[8 * i + o];
        packChildren(eight, p.childBase[i], p.childOffsets[i]);
    }
    return p;
}

std::vector<float> prolong(const LevelPair& p, const std::vector<float>& xc)
{
    std::vector<float> x(p.fineCount, 0.f);
    const TrilinearProlongAdd body{p.neighbours.data(), p.table(), xc.data(), x.data()};
    for (uint64_t i = 1; i < p.coarseCount; ++i)
        body(i);
    return x;
}

std::vector<float> restrict(const LevelPair& p, const std::vector<float>& r)
{
    std::vector<float> out(p.coarseCount, 0.f);
    const TrilinearRestrict body{p.neighbours.data(), p.table(), r.data(), out.data(), FirstSweep{}};
    for (uint64_t i = 1; i < p.coarseCount; ++i)
        body(i);
    return out;
}

} // namespace

TEST(Multigrid, PackedChildrenDecodeToTheAccessorsChildren)
{
    const LevelPair p = makeLevels();
    int partial = 0;
    for (uint64_t i = 1; i < p.coarseCount; ++i) {
        uint32_t got[8];
        p.table().half(i, 0, got);
        p.table().half(i, 1, got + 4);
        int present = 0;
        for (int o = 0; o < 8; ++o) {
            ASSERT_EQ(got[o], p.children[8 * i + o]) << "coarse voxel " << i << " octant " << o;
            present += got[o] != 0;
        }
        partial += present < 8;
    }
    EXPECT_GT(partial, 0); // partial 2x2x2 blocks are in the test
}

TEST(Multigrid, RestrictionIsExactlyTheTransposeOfProlongation)
{
    const LevelPair p = makeLevels();
    ASSERT_GT(p.coarseCount, 100u);
    // P column by column (coarse unit vectors), R row by row (fine unit vectors): entrywise equal.
    // The weights are multiples of 1/64, so both sides are exact in float.
    std::vector<float> P((p.fineCount) * p.coarseCount), R((p.fineCount) * p.coarseCount);
    std::vector<float> unit(p.coarseCount, 0.f);
    for (uint64_t c = 1; c < p.coarseCount; ++c) {
        unit[c] = 1.f;
        const auto column = prolong(p, unit);
        for (uint64_t j = 1; j < p.fineCount; ++j)
            P[j * p.coarseCount + c] = column[j];
        unit[c] = 0.f;
    }
    std::vector<float> fineUnit(p.fineCount, 0.f);
    for (uint64_t j = 1; j < p.fineCount; ++j) {
        fineUnit[j] = 1.f;
        const auto row = restrict(p, fineUnit);
        for (uint64_t c = 1; c < p.coarseCount; ++c)
            R[j * p.coarseCount + c] = row[c];
        fineUnit[j] = 0.f;
    }
    uint64_t mismatches = 0, links = 0, cut = 0;
    for (uint64_t k = 0; k < P.size(); ++k) {
        mismatches += P[k] != R[k];
        links += P[k] != 0.f;
        cut += P[k] == 0.f && R[k] != 0.f;
    }
    EXPECT_EQ(mismatches, 0u);
    EXPECT_EQ(cut, 0u);
    // most fine voxels interpolate from 8 coarse ones; the walls leave fewer
    EXPECT_GT(links, 6 * (p.fineCount - 1));
    EXPECT_LT(links, 8 * (p.fineCount - 1));
}

TEST(Multigrid, ProlongationKeepsConstantsAndRestrictionKeepsTheTotal)
{
    const LevelPair p = makeLevels();
    std::vector<float> ones(p.coarseCount, 1.f);
    const auto x = prolong(p, ones);
    for (uint64_t j = 1; j < p.fineCount; ++j)
        ASSERT_EQ(x[j], 1.f) << "fine voxel " << j;
    // columns of R sum to 1 (rows of P do), so restriction moves the residual, never loses it
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> value(-20, 20);
    std::vector<float> r(p.fineCount, 0.f);
    double fineTotal = 0;
    for (uint64_t j = 1; j < p.fineCount; ++j)
        fineTotal += r[j] = float(value(rng));
    double coarseTotal = 0;
    for (float v : restrict(p, r))
        coarseTotal += v;
    EXPECT_EQ(coarseTotal, fineTotal);
}

TEST(Multigrid, AMissingVoxelInTheBoxBetweenTwoCoarseVoxelsCutsTheirLink)
{
    // three full coarse voxels in an L: A = (0,0,0), X = (1,0,0), B = (1,1,0); (0,1,0) is
    // missing. A walk x then y gets from A to B, but the box between them is not all active,
    // so A's children take nothing from B (and B's nothing from A), while X, a face partner,
    // still gives its 9/64 to A's +x children.
    std::vector<nanovdb::Coord> fine;
    for (const nanovdb::Coord c : {nanovdb::Coord(0, 0, 0), nanovdb::Coord(1, 0, 0), nanovdb::Coord(1, 1, 0)})
        for (int o = 0; o < 8; ++o)
            fine.emplace_back(2 * c[0] + (o >> 2), 2 * c[1] + ((o >> 1) & 1), 2 * c[2] + (o & 1));
    const LevelPair p = makeLevels(fine);
    auto fa = p.fine.grid<nanovdb::ValueOnIndex>()->getAccessor();
    auto ca = p.coarse.grid<nanovdb::ValueOnIndex>()->getAccessor();
    const uint64_t b = ca.getValue(nanovdb::Coord(1, 1, 0)), x = ca.getValue(nanovdb::Coord(1, 0, 0));
    const uint64_t a = ca.getValue(nanovdb::Coord(0, 0, 0));
    // A's child at octant (+, +, +), fine (1, 1, 1): partners X (+x), B (+x+y) and the missing (0,1,0)
    const uint64_t j = fa.getValue(nanovdb::Coord(1, 1, 1));
    ASSERT_NE(j, 0u);
    std::vector<float> unit(p.coarseCount, 0.f);
    unit[b] = 1.f;
    EXPECT_EQ(prolong(p, unit)[j], 0.f);
    unit[b] = 0.f, unit[x] = 1.f;
    EXPECT_EQ(prolong(p, unit)[j], 9.f / 64.f);
    // A itself: 27/64, plus 9/64 (+y missing), 3/64 (+x+y cut), 3/64 and 1/64 (+y+z, +x+y+z
    // missing or cut), 9/64 (+z: nothing there), 3/64 (+x+z: nothing)
    unit[x] = 0.f, unit[a] = 1.f;
    EXPECT_EQ(prolong(p, unit)[j], (27.f + 9.f + 3.f + 3.f + 1.f + 9.f + 3.f) / 64.f);
}

TEST(Multigrid, BoxesFullIsTheAndOverEachBoxsVoxels)
{
    // Neighbourhood::boxesFull against the definition: bit e set where every voxel of the box
    // from the centre to offset e (each component 0 or e's) was found, on random patterns
    std::mt19937 rng(15);
    for (int k = 0; k < 20000; ++k) {
        uint32_t n[27];
        const uint32_t keep = k % 4 == 0 ? 2 : 8; // sparse and dense patterns
        for (uint32_t& v : n)
            v = rng() % 10 < keep ? 1u : 0u;
        n[13] = 1u + rng() % 3; // the centre is a voxel
        uint32_t want = 0;
        for (int e = 0; e < 27; ++e) {
            const int d[3] = {e / 9 - 1, (e / 3) % 3 - 1, e % 3 - 1};
            bool full = true;
            for (int m = 0; m < 8; ++m) {
                const int x = (m >> 2) ? d[0] : 0, y = ((m >> 1) & 1) ? d[1] : 0, z = (m & 1) ? d[2] : 0;
                full = full && n[solver::trilinear::slot(x, y, z)] != 0;
            }
            want |= uint32_t(full) << e;
        }
        ASSERT_EQ(solver::trilinear::Neighbourhood::boxesFull(n), want) << "pattern " << k;
    }
}

namespace {

/// Random floats in [-4, 4) with a few exact zeros, so both branches of firstSweep run.
std::vector<float> randomValues(uint64_t n, std::mt19937& rng)
{
    std::uniform_real_distribution<float> value(-4.f, 4.f);
    std::vector<float> v(n, 0.f);
    for (uint64_t j = 1; j < n; ++j)
        v[j] = rng() % 16 == 0 ? 0.f : value(rng);
    return v;
}

/// 1 on about one voxel in five (air cells), else 0.
std::vector<float> randomFixed(uint64_t n, std::mt19937& rng)
{
    std::vector<float> f(n, 0.f);
    for (uint64_t j = 1; j < n; ++j)
        f[j] = rng() % 5 == 0 ? 1.f : 0.f;
    return f;
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

} // namespace

TEST(Multigrid, ProlongationOntoTheFirstSweepIsTheStoredSweepAddedTo)
{
    // the sweep formed again where the correction is added, against the sweep as the V-cycle
    // stored it (CG's update, or FineFirstSweep) with TrilinearProlongAdd adding to it, bit for bit
    const LevelPair p = makeLevels();
    std::mt19937 rng(21);
    const std::vector<float> r = randomValues(p.fineCount, rng), xc = randomValues(p.coarseCount, rng);
    std::vector<uint8_t> diag(p.fineCount, 0);
    for (uint64_t j = 1; j < p.fineCount; ++j)
        diag[j] = uint8_t(rng() % 7); // 0 included
    const float scale = 1.f / 0.9f;
    for (const bool withAir : {false, true}) {
        const std::vector<float> air = withAir ? randomFixed(p.fineCount, rng) : std::vector<float>();
        const float* fixed = withAir ? air.data() : nullptr;
        std::vector<float> want(p.fineCount, 0.f);
        for (uint64_t j = 1; j < p.fineCount; ++j)
            want[j] = firstSweep(r[j], float(diag[j]), scale);
        const TrilinearProlongAdd add{p.neighbours.data(), p.table(), xc.data(), want.data(), fixed};
        std::vector<float> got(p.fineCount, 0.f);
        const TrilinearProlongOntoFirstSweep onto{p.neighbours.data(), p.table(), xc.data(),  r.data(),
                                                  diag.data(),         scale,     got.data(), fixed};
        for (uint64_t i = 1; i < p.coarseCount; ++i)
            add(i), onto(i);
        EXPECT_TRUE(sameBits(got, want)) << (withAir ? "with" : "without") << " air cells";
        uint64_t moved = 0; // the correction did reach the sweep
        for (uint64_t j = 1; j < p.fineCount; ++j)
            moved += want[j] != firstSweep(r[j], float(diag[j]), scale);
        EXPECT_GT(moved, (p.fineCount - 1) / 2);
    }
}

TEST(Multigrid, ACoarseVoxelIsFixedWhenOneOfItsChildrenIs)
{
    // open boundaries keep their type on every level (docs/solver.md): against the children
    // found by accessor lookups
    const LevelPair p = makeLevels();
    std::mt19937 rng(5);
    const std::vector<float> air = randomFixed(p.fineCount, rng);
    std::vector<float> fixed(p.coarseCount, -1.f);
    const MarkCoarseFixed mark{p.table(), air.data(), fixed.data()};
    uint64_t marked = 0;
    for (uint64_t i = 1; i < p.coarseCount; ++i) {
        mark(i);
        bool any = false;
        for (int o = 0; o < 8; ++o)
            any = any || (p.children[8 * i + o] && air[p.children[8 * i + o]] != 0.f);
        ASSERT_EQ(fixed[i], any ? 1.f : 0.f) << "coarse voxel " << i;
        marked += any;
    }
    EXPECT_GT(marked, 0u);
    EXPECT_LT(marked, p.coarseCount - 1);
}
