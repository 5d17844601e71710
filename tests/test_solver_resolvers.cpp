// SPDX-License-Identifier: Apache-2.0
// Every resolver and both block widths give bitwise the same fields after N steps (CPU here;
// the Gpu variant runs on the CUDA backend and is skipped without a GPU), and switching the
// resolver between steps changes nothing.
#include "DeviceQueries.h"
#include "RunCommand.h"
#include "Solver.h"
#include "TestFolder.h"
#include "TestMeshes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <type_traits>

using namespace vbm;

namespace {

Scene smallSmoke()
{
    return parseScene("kind smoke\ndomain sphere 0 12 0 12\nremove sphere 0 14 0 3\nemitter sphere 0 4 0 3\n"
                      "buoyancy 0.5\nweight 0.05\nvorticity 0.3\ndt 1\ncg_tolerance 1e-5\ncg_max_iterations 300\n"
                      "tap_table off\n", // every Laplacian-type pass through the resolver under test
                      "small smoke");
}
Scene smallFire()
{
    return parseScene("kind smoke\ndomain sphere 0 12 0 12\nemitter sphere 0 4 0 3\nemit_density 0\nemit_fuel 1\n"
                      "ignition 0.5\nburn_rate 0.3\ntap_table off\n",
                      "small fire");
}

Scene smallHeat(bool implicit)
{
    return parseScene(std::string("kind heat\ndomain shell 30 4\ntemperature gaussian 30 0 0 4 50\n"
                                  "fixed sphere -30 0 0 3 20\nalpha 1\ntap_table off\n") +
                          (implicit ? "scheme implicit\ndt 2\n" : "scheme explicit\ndt 0.16\n"),
                      "small heat");
}

std::vector<StencilChoice> allChoices(Backend b)
{
    std::vector<StencilChoice> out;
    for (int l : {7, 9})
        for (Resolver lap : AllResolvers) {
            if (b == Backend::Cpu && lap == Resolver::NanoVDB13) continue;
            out.push_back({lap, Resolver::forEachBoxStencilCached, l});
        }
    for (int l : {7, 9})
        for (Resolver adv : AllResolvers) {
            if (!isBoxResolver(adv) || (b == Backend::Cpu && adv == Resolver::NanoVDB13)) continue;
            out.push_back({Resolver::computeCrossStencilCached, adv, l});
        }
    return out;
}

std::string name(const StencilChoice& c)
{
    return std::string(resolverName(c.laplacian)) + "/" + resolverName(c.advection) + "/w" +
           std::to_string(1 << c.log2BlockWidth);
}

void expectSameHashForEveryChoice(const Scene& scene, Backend b, int steps)
{
    uint64_t reference = 0;
    for (const StencilChoice& c : allChoices(b)) {
        Solver s(scene, b, c);
        for (int k = 0; k < steps; ++k)
            s.step();
        const uint64_t h = s.fieldsHash();
        if (!reference) reference = h;
        EXPECT_EQ(h, reference) << name(c);
    }
}

bool gpuMissing(std::string& why)
{
    why = cudaUnavailableReason();
    return !why.empty();
}

} // namespace

TEST(SolverResolvers, HeatExplicitIsBitwiseIdenticalForEveryResolverAndWidth)
{
    expectSameHashForEveryChoice(smallHeat(false), Backend::Cpu, 5);
}
TEST(SolverResolvers, HeatImplicitIsBitwiseIdenticalForEveryResolverAndWidth)
{
    expectSameHashForEveryChoice(smallHeat(true), Backend::Cpu, 3);
}
// The scenes take the default wide advection substeps (voxel passes; cached resolvers read the
// per-leaf table, the others walk the tree); max_cfl 1 gives the box substeps, through the
// advection resolver under test.
static Scene withBoxSubsteps(Scene s)
{
    s.params.maxCfl = 1;
    return s;
}
TEST(SolverResolvers, SmokeIsBitwiseIdenticalForEveryResolverAndWidth)
{
    expectSameHashForEveryChoice(smallSmoke(), Backend::Cpu, 4);
    expectSameHashForEveryChoice(withBoxSubsteps(smallSmoke()), Backend::Cpu, 4);
}
// With MacCormack (the smoke default) and fire on, the fuel field in the hash.
TEST(SolverResolvers, FireIsBitwiseIdenticalForEveryResolverAndWidth)
{
    expectSameHashForEveryChoice(smallFire(), Backend::Cpu, 6);
    expectSameHashForEveryChoice(withBoxSubsteps(smallFire()), Backend::Cpu, 6);
}

// Mesh obstacles (a sphere mesh in a fixed domain; a cube mesh in open air, its set
// rebuilt every other step) and a mesh emitter.
static void expectMeshScenesBitwiseIdentical(Backend backend)
{
    const std::string dir = freshFolder("vbm-resolvers", "meshes").string();
    testmesh::writeFile(dir + "/ball.obj", testmesh::objText(testmesh::unitSphere(3)));
    testmesh::writeFile(dir + "/cube.obj", testmesh::objText(testmesh::unitCube()));
    expectSameHashForEveryChoice(parseScene("kind smoke\ndomain sphere 0 12 0 12\nremove mesh ball.obj fit 7 at 0 14 0\n"
                                            "emitter mesh cube.obj fit 5 at 0 4 0\nbuoyancy 0.5\nvorticity 0.3\ndt 1\n"
                                            "cg_tolerance 1e-5\ncg_max_iterations 300\ntap_table off\n",
                                            "mesh smoke", dir),
                                 backend, 4);
    expectSameHashForEveryChoice(parseScene("kind smoke\ndomain open\nfloor 0\nadapt every 2 margin 2 threshold 0.05\n"
                                            "remove mesh cube.obj fit 8 rotate 30 40 0 at 0 16 0\n"
                                            "emitter sphere 0 4 0 3\nbuoyancy 0.5\ndt 1\ncg_tolerance 1e-5\n"
                                            "tap_table off\n",
                                            "open mesh smoke", dir),
                                 backend, 5);
}
TEST(SolverResolvers, MeshObstaclesAndEmittersAreBitwiseIdenticalForEveryResolverAndWidth)
{
    expectMeshScenesBitwiseIdentical(Backend::Cpu);
}

// Half storage of density and temperature (opt-in): the same identity on the packed pairs.
static Scene withHalfScalars(Scene s)
{
    s.scalars = ScalarStorage::Half;
    return s;
}
TEST(SolverResolvers, HalfScalarSmokeAndFireAreBitwiseIdenticalForEveryResolverAndWidth)
{
    expectSameHashForEveryChoice(withHalfScalars(smallSmoke()), Backend::Cpu, 4);
    expectSameHashForEveryChoice(withHalfScalars(smallFire()), Backend::Cpu, 6);
}


TEST(SolverResolvers, SwitchingResolversMidRunChangesNothing)
{
    const Scene scene = smallSmoke();
    Solver a(scene, Backend::Cpu), b(scene, Backend::Cpu);
    const auto choices = allChoices(Backend::Cpu);
    for (size_t k = 0; k < 6; ++k) {
        a.step();
        b.setChoice(choices[(k * 5) % choices.size()]);
        b.step();
    }
    EXPECT_EQ(a.fieldsHash(), b.fieldsHash());
}

TEST(SolverResolvers, AdvectionRefusesCrossResolvers)
{
    Solver s(smallSmoke(), Backend::Cpu);
    EXPECT_THROW(s.setChoice({Resolver::computeCrossStencilCached, Resolver::computeCrossStencil, 7}),
                 std::invalid_argument);
    EXPECT_THROW(s.setChoice({Resolver::NanoVDB13, Resolver::forEachBoxStencilCached, 7}), std::invalid_argument)
        << "NanoVDB13 is CUDA-only";
    EXPECT_THROW(s.setChoice({Resolver::computeCrossStencilCached, Resolver::forEachBoxStencilCached, 8}),
                 std::invalid_argument);
}

// The choice is checked once, by the rule's checkChoice: a CheckedChoice comes only from it, the
// Solver takes one as it is (and a plain choice through checkChoice, with the rule's words), and
// the choice the steps run with is the engine's, seen at once after setChoice.
static_assert(!std::is_default_constructible_v<CheckedChoice>);
static_assert(!std::is_constructible_v<CheckedChoice, StencilChoice>);
static_assert(!std::is_constructible_v<CheckedChoice, StencilChoice, Backend>);

TEST(SolverResolvers, TheChoiceIsCheckedOnceByTheRule)
{
    const StencilChoice wide{Resolver::computeBoxStencil, Resolver::computeBoxStencil, 9};
    const CheckedChoice c = checkChoice(wide, Backend::Cpu);
    EXPECT_EQ(c.choice(), wide);
    EXPECT_EQ(c.backend(), Backend::Cpu);
    for (const StencilChoice& bad : {StencilChoice{Resolver::NanoVDB13, Resolver::forEachBoxStencilCached, 7},
                                     StencilChoice{Resolver::computeCrossStencil, Resolver::computeCrossStencil, 7},
                                     StencilChoice{Resolver::computeCrossStencil, Resolver::computeBoxStencil, 8}}) {
        try {
            checkChoice(bad, Backend::Cpu);
            ADD_FAILURE() << "taken";
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(e.what(), choiceUnavailableReason(bad, Backend::Cpu));
        }
    }
    EXPECT_NO_THROW(checkChoice({Resolver::NanoVDB13, Resolver::NanoVDB13, 7}, Backend::Cuda));

    Solver s(smallSmoke(), c);
    EXPECT_EQ(s.backend(), Backend::Cpu);
    EXPECT_EQ(s.choice(), wide);
    s.setChoice(StencilChoice{});
    EXPECT_EQ(s.choice(), StencilChoice{}) << "no second copy to catch up at the next step";
    s.setChoice(c);
    EXPECT_EQ(s.choice(), wide);
    EXPECT_THROW(s.setChoice(checkChoice(StencilChoice{}, Backend::Cuda)), std::invalid_argument);
    EXPECT_EQ(s.choice(), wide) << "a refused choice leaves the solver's";
    EXPECT_THROW(Solver(smallSmoke(), Backend::Cpu, {Resolver::NanoVDB13, Resolver::forEachBoxStencilCached, 7}),
                 std::invalid_argument);

    Solver plain(smallSmoke(), Backend::Cpu);
    for (int k = 0; k < 3; ++k)
        s.step(), plain.step();
    EXPECT_EQ(s.fieldsHash(), plain.fieldsHash());
}

TEST(GpuSolver, BitwiseIdenticalForEveryResolverAndWidthOnTheGpu)
{
    std::string why;
    if (gpuMissing(why)) GTEST_SKIP() << "GPU test skipped: " << why;
    expectSameHashForEveryChoice(smallSmoke(), Backend::Cuda, 4);
    expectSameHashForEveryChoice(smallFire(), Backend::Cuda, 6);
    expectSameHashForEveryChoice(smallHeat(true), Backend::Cuda, 3);
    expectSameHashForEveryChoice(smallHeat(false), Backend::Cuda, 5);
    expectSameHashForEveryChoice(withHalfScalars(smallSmoke()), Backend::Cuda, 4);
    expectSameHashForEveryChoice(withHalfScalars(smallFire()), Backend::Cuda, 6);
    expectSameHashForEveryChoice(withBoxSubsteps(smallSmoke()), Backend::Cuda, 4);
    expectSameHashForEveryChoice(withBoxSubsteps(withHalfScalars(smallFire())), Backend::Cuda, 6);
    expectMeshScenesBitwiseIdentical(Backend::Cuda);
}

// CPU and GPU agree to float tolerance: max difference below 1e-3 of the field's range
// after a few steps (the reductions and fused multiply-adds differ between them).
TEST(GpuSolver, AgreesWithTheCpuWithinTolerance)
{
    std::string why;
    if (gpuMissing(why)) GTEST_SKIP() << "GPU test skipped: " << why;
    for (const Scene& scene : {smallHeat(true), smallHeat(false), smallSmoke(), withHalfScalars(smallSmoke()),
                               withBoxSubsteps(smallSmoke())}) {
        Solver cpu(scene, Backend::Cpu), gpu(scene, Backend::Cuda);
        for (int k = 0; k < 3; ++k)
            cpu.step(), gpu.step();
        for (const auto& f : cpu.fieldNames()) {
            const auto a = cpu.field(f), b = gpu.field(f);
            ASSERT_EQ(a.size(), b.size());
            double range = 0, diff = 0;
            for (size_t i = 1; i < a.size(); ++i)
                range = std::max(range, double(std::abs(a[i]))), diff = std::max(diff, double(std::abs(a[i] - b[i])));
            EXPECT_LE(diff, 1e-3 * std::max(range, 1e-6)) << f;
        }
    }
}

// The built-in plume scene (1.1M voxels) for 1,000 steps on the CUDA backend: nothing blows up.
TEST(GpuSolver, BuiltinPlumeStaysFiniteFor1000Steps)
{
    std::string why;
    if (gpuMissing(why)) GTEST_SKIP() << "GPU test skipped: " << why;
    Solver s(loadScene("smoke-plume"), Backend::Cuda);
    double worstDivergence = 0;
    for (int k = 0; k < 1000; ++k)
        worstDivergence = std::max(worstDivergence, s.step().divergenceAfter);
    for (const auto& f : s.fieldNames())
        for (float x : s.field(f))
            ASSERT_TRUE(std::isfinite(x)) << f;
    EXPECT_LT(worstDivergence, 1e-4);
    RecordProperty("worstDivergence", std::to_string(worstDivergence));
}
