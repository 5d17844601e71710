// SPDX-License-Identifier: Apache-2.0
// The voxel tap table (scene `tap_table on`, solver/kernels/StoredTaps.h): the fine level's cross
// taps stored once and read by every Laplacian-type pass. It must change nothing but the time:
// the fields are bitwise those of the resolved passes, for every scene kind, every resolver
// that fills it and both block widths, on the CPU here and on the GPU in the Gpu test (skipped
// without one), and through the rebuilds of an adaptive scene.
#include "AdaptChecks.h"
#include "DeviceQueries.h"
#include "Solver.h"

#include <gtest/gtest.h>

using namespace vbm;

namespace {

Scene sceneText(const std::string& text, const std::string& name) { return parseScene(text, name); }

/// The scenes checked, as (name, text): every kind and the solver's options that change its passes.
std::vector<std::pair<std::string, std::string>> sceneTexts()
{
    const std::string smoke = "kind smoke\ndomain sphere 0 12 0 12\nremove sphere 0 14 0 3\nemitter sphere 0 4 0 3\n"
                              "buoyancy 0.5\nweight 0.05\nvorticity 0.3\ndt 1\ncg_tolerance 1e-5\n";
    const std::string heat = "kind heat\ndomain shell 30 4\ntemperature gaussian 30 0 0 4 50\n"
                             "fixed sphere -30 0 0 3 20\nalpha 1\n";
    return {{"heat explicit", heat + "scheme explicit\ndt 0.16\n"},
            {"heat implicit", heat + "scheme implicit\ndt 2\n"},
            {"smoke", smoke},
            {"smoke, Jacobi", smoke + "pressure_preconditioner jacobi\n"},
            {"smoke, half, box substeps", smoke + "scalar_storage half\nmax_cfl 1\n"},
            {"fire", "kind smoke\ndomain sphere 0 12 0 12\nemitter sphere 0 4 0 3\nemit_density 0\nemit_fuel 1\n"
                     "ignition 0.5\nburn_rate 0.3\n"}};
}

Scene withTapTable(Scene s, TapTableMode mode = TapTableMode::On)
{
    s.tapTable = mode;
    return s;
}
Scene withoutTapTable(Scene s) { return withTapTable(std::move(s), TapTableMode::Off); }

uint64_t hashAfter(const Scene& scene, Backend b, const StencilChoice& c, int steps)
{
    Solver s(scene, b, c);
    for (int k = 0; k < steps; ++k)
        s.step();
    return s.fieldsHash();
}

/// Every resolver that can fill the table, at both widths, against the resolved passes.
void expectTheTableChangesNothing(Backend b)
{
    for (const auto& [name, text] : sceneTexts()) {
        const Scene scene = withoutTapTable(sceneText(text, name));
        const Scene stored = withTapTable(sceneText(text, name));
        const int steps = scene.kind == SimulationKind::Heat ? 4 : 5;
        const uint64_t resolved = hashAfter(scene, b, StencilChoice{}, steps);
        for (int l : {7, 9})
            for (Resolver r : AllResolvers) {
                if (b == Backend::Cpu && r == Resolver::NanoVDB13) continue;
                const StencilChoice c{r, Resolver::forEachBoxStencilCached, l};
                EXPECT_EQ(hashAfter(stored, b, c, steps), resolved)
                    << name << ", table filled by " << resolverName(r) << " at width " << (1 << l);
            }
    }
}

bool gpuMissing(std::string& why)
{
    why = cudaUnavailableReason();
    return !why.empty();
}

} // namespace

TEST(TapTable, SceneKeyAndItsErrors)
{
    EXPECT_EQ(sceneText("kind heat\ndomain box 0 0 0 8 8 8\n", "t").tapTable, TapTableMode::Auto);
    EXPECT_EQ(sceneText("kind heat\ndomain box 0 0 0 8 8 8\ntap_table on\n", "t").tapTable, TapTableMode::On);
    EXPECT_EQ(sceneText("kind heat\ndomain box 0 0 0 8 8 8\ntap_table on\ntap_table off\n", "t").tapTable,
              TapTableMode::Off);
    EXPECT_EQ(sceneText("kind heat\ndomain box 0 0 0 8 8 8\ntap_table off\ntap_table auto\n", "t").tapTable,
              TapTableMode::Auto);
    try {
        sceneText("kind heat\ndomain box 0 0 0 8 8 8\ntap_table yes\n", "t.scene");
        FAIL() << "tap_table yes was accepted";
    } catch (const SceneError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("t.scene:3:"), std::string::npos) << m;
        EXPECT_NE(m.find("tap_table must be auto, off or on"), std::string::npos) << m;
    }
}

TEST(TapTable, GivesBitwiseTheSameFieldsForEveryResolverAndWidth) { expectTheTableChangesNothing(Backend::Cpu); }

TEST(TapTable, GivesBitwiseTheSameFieldsThroughAdaptiveRebuilds)
{
    Solver plain(withoutTapTable(loadScene("smoke-open")), Backend::Cpu), stored(withTapTable(loadScene("smoke-open")), Backend::Cpu);
    for (int k = 0; k < 13; ++k) {
        plain.step(), stored.step();
        ASSERT_EQ(stored.fieldsHash(), plain.fieldsHash()) << "after step " << k + 1;
    }
    // the table was built anew with each rebuild (smoke-open rebuilds every K steps)
    EXPECT_EQ(stored.topologyVersion(), uint64_t(12 / loadScene("smoke-open").adapt.every));
}

TEST(TapTable, Costs24BytesPerValueIndexAndSnapshotsKeepIt)
{
    const std::string text = sceneTexts()[2].second;
    Solver plain(withoutTapTable(sceneText(text, "smoke")), Backend::Cpu), stored(withTapTable(sceneText(text, "smoke")), Backend::Cpu);
    const MemoryReport a = plain.memory(), b = stored.memory();
    const std::vector<float> density = stored.field("density");
    EXPECT_EQ(b.gridAndVbm - a.gridAndVbm, 24u * density.size());
    EXPECT_EQ(b.fields, a.fields);
    EXPECT_EQ(b.temporaries, a.temporaries);
    stored.step();
    EXPECT_EQ(stored.snapshot().tapTable, TapTableMode::On);
    EXPECT_EQ(plain.snapshot().tapTable, TapTableMode::Off);
    EXPECT_TRUE(stored.tapTable());
    EXPECT_FALSE(plain.tapTable());
}

TEST(GpuSolver, TapTableGivesBitwiseTheSameFieldsOnTheGpu)
{
    std::string why;
    if (gpuMissing(why)) GTEST_SKIP() << "GPU test skipped: " << why;
    expectTheTableChangesNothing(Backend::Cuda);
    Solver plain(withoutTapTable(loadScene("smoke-open")), Backend::Cuda), stored(withTapTable(loadScene("smoke-open")), Backend::Cuda);
    for (int k = 0; k < 13; ++k)
        plain.step(), stored.step();
    EXPECT_EQ(stored.topologyVersion(), uint64_t(12 / loadScene("smoke-open").adapt.every));
    EXPECT_EQ(stored.fieldsHash(), plain.fieldsHash());
}
