// SPDX-License-Identifier: Apache-2.0
// Grids built a leaf at a time (solver/grids/LeafVoxels.cpp) against NanoVDB's builder fed one
// voxel at a time: the same bytes, on shapes that cross node boundaries and zero.
#include "GridGenerators.h"
#include "Scene.h"

#include <nanovdb/tools/CreateNanoGrid.h>
#include <nanovdb/tools/GridBuilder.h>

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace vbm;

namespace {

using Coords = std::vector<nanovdb::Coord>;

/// The reference: every voxel placed on its own in NanoVDB's builder.
HostGridHandle voxelByVoxel(const Coords& coords)
{
    nanovdb::tools::build::Grid<float> grid(0.f);
    auto acc = grid.getAccessor();
    for (const nanovdb::Coord& c : coords)
        acc.setValue(c, 1.f);
    return nanovdb::tools::createNanoGrid<nanovdb::tools::build::Grid<float>, nanovdb::ValueOnIndex>(grid, 0u, false,
                                                                                                     false);
}

void expectSameBytes(const HostGridHandle& a, const HostGridHandle& b)
{
    ASSERT_TRUE(a.grid<nanovdb::ValueOnIndex>() && b.grid<nanovdb::ValueOnIndex>());
    EXPECT_EQ(a.grid<nanovdb::ValueOnIndex>()->activeVoxelCount(), b.grid<nanovdb::ValueOnIndex>()->activeVoxelCount());
    ASSERT_EQ(a.bufferSize(), b.bufferSize());
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.bufferSize()), 0);
}

/// Random voxels in clusters around points on both sides of zero and of the internal nodes'
/// boundaries (128 and 4096), with repeats.
Coords scattered(uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> near(-20, 20);
    Coords out;
    for (int centre : {-4096, -128, 0, 128, 4096})
        for (int n = 0; n < 3000; ++n)
            out.emplace_back(centre + near(rng), near(rng) - centre, centre + near(rng));
    out.push_back(out.front()); // a duplicate
    return out;
}

bool inBall(const nanovdb::Coord& c, double x, double y, double z, double r)
{
    const double dx = c[0] - x, dy = c[1] - y, dz = c[2] - z;
    return dx * dx + dy * dy + dz * dz < r * r;
}

} // namespace

TEST(LeafVoxels, GridFromCoordsIsTheVoxelByVoxelGrid)
{
    for (uint64_t seed : {1u, 2u}) {
        const Coords c = scattered(seed);
        expectSameBytes(indexGridFromCoords(c), voxelByVoxel(c));
    }
}

TEST(LeafVoxels, ShapeListsExactlyTheVoxelsThePredicateAccepts)
{
    const nanovdb::CoordBBox box{nanovdb::Coord(-21, -3, -17), nanovdb::Coord(18, 25, 9)};
    auto inside = [](const nanovdb::Coord& c) { return inBall(c, -2.5, 4, -3, 17) && !inBall(c, 5, 9, 0, 6); };
    Coords loop;
    for (int i = box.min()[0]; i <= box.max()[0]; ++i)
        for (int j = box.min()[1]; j <= box.max()[1]; ++j)
            for (int k = box.min()[2]; k <= box.max()[2]; ++k)
                if (inside(nanovdb::Coord(i, j, k))) loop.emplace_back(i, j, k);
    std::vector<double> reported;
    const LeafVoxelList leaves = leavesOfShape(box, inside, [&](const char*, double f) { reported.push_back(f); });
    EXPECT_EQ(voxelCount(leaves), loop.size());
    expectSameBytes(indexGridFromLeaves(leaves), voxelByVoxel(loop));
    ASSERT_FALSE(reported.empty());
    EXPECT_EQ(reported.front(), 0.0);
    EXPECT_EQ(reported.back(), 1.0);

    nanovdb::CoordBBox bounds;
    for (const nanovdb::Coord& c : loop)
        bounds.expand(c);
    EXPECT_EQ(voxelBounds(leaves), bounds);
}

TEST(LeafVoxels, CoarsenedLeavesAreTheHalvedVoxels)
{
    const Coords fine = scattered(3);
    Coords half;
    for (const nanovdb::Coord& c : fine)
        half.emplace_back(c[0] >> 1, c[1] >> 1, c[2] >> 1);
    const HostGridHandle g = indexGridFromCoords(fine);
    expectSameBytes(indexGridFromLeaves(coarsenedLeaves(g.grid<nanovdb::ValueOnIndex>())), voxelByVoxel(half));
    expectSameBytes(indexGridFromLeaves(leavesOfGrid(g.grid<nanovdb::ValueOnIndex>())), g);
}

TEST(LeafVoxels, ClearedVoxelsLeaveTheGrid)
{
    const Coords all = scattered(4);
    LeafVoxelList leaves = leavesOfCoords(all);
    auto gone = [](const nanovdb::Coord& c) { return (c[0] + c[1] + c[2]) % 3 == 0; };
    clearVoxels(leaves, gone);
    Coords kept;
    for (const nanovdb::Coord& c : all)
        if (!gone(c)) kept.push_back(c);
    expectSameBytes(indexGridFromLeaves(leaves), voxelByVoxel(kept));
    clearVoxels(leaves, [](const nanovdb::Coord&) { return true; });
    EXPECT_EQ(voxelCount(leaves), 0u);
    EXPECT_TRUE(voxelBounds(leaves).empty());
}

// A scene's ball less a removed ball, as the scene builds it, against the voxels listed one by one.
TEST(LeafVoxels, SceneDomainIsTheBallLessTheRemovedBall)
{
    const Scene scene = parseScene("kind smoke\ndomain sphere 1 -2 3 21\nremove sphere 1 10 3 7\nemitter sphere 1 -12 3 4\n", "ball", ".");
    Coords loop;
    for (int i = -21; i <= 23; ++i)
        for (int j = -24; j <= 20; ++j)
            for (int k = -19; k <= 25; ++k) {
                const nanovdb::Coord c(i, j, k);
                if (inBall(c, 1, -2, 3, 21) && !inBall(c, 1, 10, 3, 7)) loop.push_back(c);
            }
    expectSameBytes(scene.grid, voxelByVoxel(loop));
}
