// SPDX-License-Identifier: Apache-2.0
// The wide advection bodies (max_cfl above 1, kernels/WideAdvectionBodies.h): their corner
// lookup finds the index NanoVDB's accessor does, from the per-leaf table and by tree walks
// alike; a whole-voxel displacement moves every value exactly; MacCormack's correction makes
// no new extrema; and the solver's fields stay bitwise the same for every advection resolver.
#include "GridGenerators.h"
#include "exec/HostExec.h"
#include "Solver.h"
#include "kernels/WideAdvectionBodies.h"
#include "steps/Advection.h"
#include "vbm/BuildVoxelBlockManager.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace vbm;

namespace {

struct SparseGrid {
    HostGridHandle handle = makeRandomSparse(6, 0.6, 0.4, 21);
    const IndexGrid* grid = handle.grid<nanovdb::ValueOnIndex>();
    VbmMetadata meta = buildVoxelBlockManagerHost<7>(grid);
    std::vector<uint32_t> table = buildLeafNeighbourTableHost(grid, true);
    VbmView view() const { return hostView(grid, meta); }
    uint64_t valueCount() const { return meta.extent.lastOffset + 1; }
    /// f(coord, value index, leaf, voxel offset) for every active voxel.
    template <typename F>
    void forEachVoxel(F&& f) const
    {
        for (uint32_t l = 0; l < grid->tree().nodeCount(0); ++l)
            for (auto on = leaves(grid)[l].valueMask().beginOn(); on; ++on)
                f(leaves(grid)[l].offsetToGlobalCoord(*on), leaves(grid)[l].getValue(*on), l, uint16_t(*on));
    }
};

} // namespace

TEST(WideAdvection, LeafReachFindsTheIndexNanoVdbsAccessorDoes)
{
    const SparseGrid s;
    const solver::LeafReach fromTable{s.grid, s.table.data()}, byWalk{s.grid, nullptr};
    auto acc = s.grid->getAccessor();
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> local(-8, 15);
    uint64_t checked = 0, active = 0;
    s.forEachVoxel([&](const nanovdb::Coord&, uint64_t, uint32_t l, uint16_t) {
        const nanovdb::Coord origin = leaves(s.grid)[l].origin();
        for (int k = 0; k < 24; ++k) {
            const int x = local(rng), y = local(rng), z = local(rng);
            const uint64_t want = acc.getValue(origin + nanovdb::Coord(x, y, z));
            ASSERT_EQ(fromTable.indexAt(l, x, y, z), want) << "leaf " << l << " at " << x << "," << y << "," << z;
            ASSERT_EQ(byWalk.indexAt(l, x, y, z), want);
            ++checked, active += want != 0;
        }
    });
    EXPECT_GT(active, checked / 10); // the grid is sparse, but many lookups hit voxels
    EXPECT_LT(active, checked);      // and many miss
}

// Every displacement, NaN and the infinities included, keeps the lower corner within
// +-WideReach (so both corners stay inside the 27 leaves of a row), with weights in [0, 1] that
// sum to 1 (so some corner of nonzero weight on every axis bounds MacCormack's correction). A
// tiny negative d puts all the weight on the upper corner (d - floor(d) rounds to 1).
TEST(WideAdvection, EveryDisplacementStaysWithinReach)
{
    const float reach = solver::WideReach;
    for (float d : {NAN, INFINITY, -INFINITY, 1e30f, -1e30f, reach, -reach, 6.5f, -6.5f, 0.25f, 0.f, -0.f, -1e-30f}) {
        SCOPED_TRACE(d);
        const solver::WideAxis a = solver::WideAxis::of(d);
        EXPECT_GE(a.lower, -int(reach));
        EXPECT_LE(a.lower, int(reach));
        EXPECT_GE(a.w0, 0.f);
        EXPECT_GE(a.w1, 0.f);
        EXPECT_EQ(a.w0 + a.w1, 1.f);
    }
    EXPECT_EQ(solver::WideAxis::of(INFINITY).lower, int(reach));
    EXPECT_EQ(solver::WideAxis::of(-2.75f).lower, -3);
    EXPECT_EQ(solver::WideAxis::of(-2.75f).w1, 0.25f);
}

// A step takes wide substeps only where they cost less than the box ones (a wide substep costs
// WideSubstepCost box substeps): a slow step stays on the box taps. Every substep keeps its CFL
// number within its kind's reach, and no plan costs more than the box substeps would.
TEST(WideAdvection, StepsTakeWideSubstepsOnlyWhereTheyCostLess)
{
    const auto expectPlan = [](double cfl, double maxCfl, int substeps, bool wide) {
        const solver::SubstepPlan p = solver::planSubsteps(cfl, maxCfl);
        EXPECT_EQ(p.substeps, substeps) << "CFL " << cfl << ", max_cfl " << maxCfl;
        EXPECT_EQ(p.wide, wide) << "CFL " << cfl << ", max_cfl " << maxCfl;
    };
    expectPlan(0, 7, 1, false);
    expectPlan(1.5, 7, 2, false);
    expectPlan(2.0, 7, 2, false);
    expectPlan(2.5, 7, 1, true);
    expectPlan(6.5, 7, 1, true);
    expectPlan(7.5, 7, 2, true);
    expectPlan(2.5, 1, 3, false);
    expectPlan(0.7, 0.5, 2, false);
    expectPlan(5, 2, 5, false);
    expectPlan(10, 3, 4, true);
    for (double maxCfl : {0.25, 0.5, 1.0, 1.5, 2.0, 3.5, 7.0})
        for (double cfl = 0; cfl < 60; cfl += 0.37) {
            const solver::SubstepPlan p = solver::planSubsteps(cfl, maxCfl);
            const double reach = p.wide ? maxCfl : std::min(maxCfl, 1.0);
            const int box = std::max(1, int(std::ceil(cfl / std::min(maxCfl, 1.0))));
            EXPECT_LE(cfl / p.substeps, reach * (1 + 1e-12)) << cfl << " " << maxCfl;
            EXPECT_LE(p.substeps * (p.wide ? solver::WideSubstepCost : 1.0), box) << cfl << " " << maxCfl;
            if (maxCfl <= 1) {
                EXPECT_FALSE(p.wide);
            }
        }
}

// u = (3, -5, 7) voxels per step: every departure point is a voxel, so each value is the one
// at c - u, or the voxel's own where that is inactive; through the table and by walks.
TEST(WideAdvection, WholeVoxelDisplacementsMoveEveryValueExactly)
{
    const SparseGrid s;
    const uint64_t n = s.valueCount();
    std::vector<float> phi(n), u(n, 3.f), v(n, -5.f), w(n, 7.f), out(n, -1.f), outWalk(n, -1.f);
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> value(-1.f, 1.f);
    for (float& p : phi)
        p = value(rng);
    solver::HostExec exec;
    const solver::Advect<1> box{u.data(), v.data(), w.data(), 1.f, {phi.data()}, {out.data()}};
    exec.voxels<7>(s.view(), solver::WideAdvect<1>{box, {s.grid, s.table.data()}});
    solver::Advect<1> walkBox = box;
    walkBox.out[0] = outWalk.data();
    exec.voxels<9>(s.view(), solver::WideAdvect<1>{walkBox, {s.grid, nullptr}});
    auto acc = s.grid->getAccessor();
    uint64_t moved = 0;
    s.forEachVoxel([&](const nanovdb::Coord& c, uint64_t i, uint32_t, uint16_t) {
        const uint64_t from = acc.getValue(c - nanovdb::Coord(3, -5, 7));
        ASSERT_EQ(out[i], phi[from ? from : i]) << "voxel " << c[0] << "," << c[1] << "," << c[2];
        ASSERT_EQ(outWalk[i], out[i]);
        moved += from != 0;
    });
    EXPECT_GT(moved, 0u);
}

// Random velocities up to 7 voxels per step on every axis: each corrected value lies within
// the min and max of phi over the forward interpolation's corners of nonzero weight, its
// midpoint-rule departure point found independently through NanoVDB's accessor.
TEST(WideAdvection, MacCormackMakesNoNewExtrema)
{
    const SparseGrid s;
    const uint64_t n = s.valueCount();
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> value(-1.f, 1.f), speed(-7.f, 7.f);
    std::vector<float> phi(n), forward(n), out(n, 0.f),
        vel[3] = {std::vector<float>(n), std::vector<float>(n), std::vector<float>(n)};
    for (uint64_t i = 1; i < n; ++i) {
        phi[i] = value(rng);
        for (auto& c : vel)
            c[i] = speed(rng);
    }
    const solver::LeafReach reach{s.grid, s.table.data()};
    solver::HostExec exec;
    const solver::Advect<1> a{vel[0].data(), vel[1].data(), vel[2].data(), 1.f, {phi.data()}, {forward.data()}};
    exec.voxels<7>(s.view(), solver::WideAdvect<1>{a, reach});
    const solver::MacCormackCorrect<1> c{vel[0].data(), vel[1].data(),    vel[2].data(), 1.f,
                                         {phi.data()},  {forward.data()}, {out.data()}};
    exec.voxels<7>(s.view(), solver::WideMacCormackCorrect<1>{c, reach});
    auto acc = s.grid->getAccessor();
    uint64_t checked = 0, outside = 0, clamped = 0;
    s.forEachVoxel([&](const nanovdb::Coord& coord, uint64_t i, uint32_t, uint16_t) {
        // the departure point by the midpoint rule: the velocity half way back, read through
        // the accessor (an inactive corner reads the voxel's own), in the bodies' float order
        solver::WideAxis half[3], ax[3];
        for (int k = 0; k < 3; ++k)
            half[k] = solver::WideAxis::of(-0.5f * vel[k][i]);
        float mid[3] = {};
        for (int corner = 0; corner < 8; ++corner) {
            const int cx = corner >> 2, cy = (corner >> 1) & 1, cz = corner & 1;
            const float weight = half[0].at(cx) * half[1].at(cy) * half[2].at(cz);
            if (weight == 0.f) continue;
            const uint64_t k =
                acc.getValue(coord + nanovdb::Coord(half[0].lower + cx, half[1].lower + cy, half[2].lower + cz));
            for (int a = 0; a < 3; ++a)
                mid[a] += weight * vel[a][k ? k : i];
        }
        for (int k = 0; k < 3; ++k)
            ax[k] = solver::WideAxis::of(-mid[k]);
        float lo = 1e30f, hi = -1e30f;
        for (int corner = 0; corner < 8; ++corner) {
            const int cx = corner >> 2, cy = (corner >> 1) & 1, cz = corner & 1;
            if (ax[0].at(cx) == 0.f || ax[1].at(cy) == 0.f || ax[2].at(cz) == 0.f) continue;
            const uint64_t k =
                acc.getValue(coord + nanovdb::Coord(ax[0].lower + cx, ax[1].lower + cy, ax[2].lower + cz));
            lo = std::min(lo, phi[k ? k : i]), hi = std::max(hi, phi[k ? k : i]);
        }
        ++checked;
        outside += out[i] < lo || out[i] > hi;
        clamped += out[i] == lo || out[i] == hi;
    });
    EXPECT_EQ(checked, s.grid->activeVoxelCount());
    EXPECT_EQ(outside, 0u);
    EXPECT_GT(clamped, 0u); // the limiter acts somewhere, so the bound is tested
}

// The solver with max_cfl 7: the fields are bitwise the same whichever box resolver advects
// (cached ones read the per-leaf table, the others walk the tree) and at both block widths;
// it takes fewer substeps than the box reach for the same flow, and the projection still leaves
// max |div u| / max |u| under the stated 1e-4.
TEST(WideAdvection, SolverFieldsAreBitwiseIdenticalForEveryAdvectionResolver)
{
    for (const char* extra : {"", "emit_fuel 1\nignition 0.5\n", "scalar_storage half\n"}) {
        const auto make = [&](const char* maxCfl) {
            return parseScene(std::string("kind smoke\ndomain sphere 0 12 0 12\nremove sphere 0 14 0 3\n"
                                          "emitter sphere 0 4 0 3\nbuoyancy 0.8\nweight 0.05\ndt 2\nmax_cfl ") +
                                  maxCfl + "\n" + extra,
                              "wide smoke");
        };
        const Scene scene = make("7");
        uint64_t reference = 0;
        int wideSubsteps = 0, boxSubsteps = 0;
        {
            Solver wide(scene, Backend::Cpu), box(make("1"), Backend::Cpu);
            for (int k = 0; k < 6; ++k) {
                const FrameTimings& r = wide.step();
                wideSubsteps += r.substeps;
                EXPECT_LT(r.divergenceAfter, 1e-4) << "the projection's bound holds after wide substeps";
                boxSubsteps += box.step().substeps;
            }
        }
        EXPECT_LT(wideSubsteps, boxSubsteps) << extra;
        for (int l : {7, 9})
            for (Resolver r : {Resolver::computeBoxStencil, Resolver::forEachBoxStencil,
                               Resolver::computeBoxStencilCached, Resolver::forEachBoxStencilCached}) {
                Solver s(scene, Backend::Cpu, {Resolver::computeCrossStencilCached, r, l});
                for (int k = 0; k < 6; ++k)
                    s.step();
                const uint64_t h = s.fieldsHash();
                if (!reference) reference = h;
                EXPECT_EQ(h, reference) << resolverName(r) << " w" << (1 << l) << " " << extra;
            }
    }
}
