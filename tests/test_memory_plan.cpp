// SPDX-License-Identifier: Apache-2.0
// The memory plan (MemoryPlan.h): its estimates against what the solver allocates, the tap
// table's auto choice and the refusal against a stubbed offer, the byte counts, and the scene
// build's hooks (the check before any voxel is built, the progress on the way).
#include "MemoryPlan.h"
#include "Scene.h"
#include "Solver.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace vbm;

namespace {

struct Variant {
    const char* name;
    std::string text;
};

/// Scene texts whose domain grows with `r` (the same upper nodes at both sizes used).
std::vector<Variant> variants(int r = 24)
{
    const std::string R = std::to_string(r);
    const std::string plume = "kind smoke\ndomain sphere 0 " + R + " 0 " + R + "\nemitter sphere 0 8 0 4\n";
    return {{"smoke", plume},
            {"smoke, half", plume + "scalar_storage half\n"},
            {"smoke, Jacobi", plume + "pressure_preconditioner jacobi\n"},
            {"smoke, box",
             "kind smoke\ndomain box -" + R + " -" + R + " -" + R + " " + R + " " + R + " " + R +
                 "\nemitter sphere 0 -12 0 4\n"},
            {"fire", plume + "emit_density 0\nemit_fuel 1\nignition 0.5\n"},
            {"heat", "kind heat\ndomain sphere 0 0 0 " + R + "\ntemperature gaussian 0 0 0 4 50\n"}};
}

struct Measured {
    double voxels, bytes, estimate;
};

Measured measure(const Variant& v, TapTableMode mode)
{
    Scene scene = parseScene(v.text, v.name);
    scene.tapTable = mode;
    const Solver solver(scene, Backend::Cpu);
    const MemoryReport m = solver.memory();
    return {double(m.activeVoxels), double(m.total()),
            estimatedSolverBytes(scene, double(m.activeVoxels), mode == TapTableMode::On)};
}

MemoryOffer offerOf(double deviceBytes, double hostBytes = 1e12)
{
    MemoryOffer o;
    o.device = uint64_t(deviceBytes), o.host = uint64_t(hostBytes), o.deviceName = "the GPU";
    return o;
}

} // namespace

// The estimate is what the refusal and the tap table's choice rest on: from above in all, and
// per voxel (the bytes a domain adds as it grows, its fixed part aside) within a quarter.
TEST(MemoryPlan, EstimateIsFromAboveAndItsBytesPerVoxelWithinAQuarter)
{
    const std::vector<Variant> small = variants(24), large = variants(36);
    for (size_t k = 0; k < small.size(); ++k)
        for (TapTableMode mode : {TapTableMode::Off, TapTableMode::On}) {
            const std::string name = small[k].name + std::string(mode == TapTableMode::On ? ", tap table" : "");
            const Measured a = measure(small[k], mode), b = measure(large[k], mode);
            EXPECT_GE(a.estimate, a.bytes) << name;
            EXPECT_GE(b.estimate, b.bytes) << name;
            const double measuredSlope = (b.bytes - a.bytes) / (b.voxels - a.voxels);
            const double estimatedSlope = (b.estimate - a.estimate) / (b.voxels - a.voxels);
            EXPECT_GE(estimatedSlope, measuredSlope) << name;
            EXPECT_LE(estimatedSlope, 1.25 * measuredSlope) << name;
            std::printf("%-24s %.1f B per voxel measured, %.1f estimated\n", name.c_str(), measuredSlope,
                        estimatedSlope);
        }
}

TEST(MemoryPlan, TapTableAutoIsOnWhenItFitsAndOffWhenNot)
{
    Scene scene = parseScene(variants()[0].text, "plume");
    ASSERT_EQ(scene.tapTable, TapTableMode::Auto);
    const double voxels = 1e6, need = estimatedSolverBytes(scene, voxels, true);
    // fits in 95% of the offer (a fixed set): on, and the line says so with the bytes
    const TapTablePlan on = planTapTable(scene, voxels, 1, offerOf(need / 0.94));
    EXPECT_TRUE(on.on);
    EXPECT_EQ(on.why.rfind("on (fits: ", 0), 0u) << on.why;
    EXPECT_NE(on.why.find(" B per voxel"), std::string::npos) << on.why;
    // just over 95%: off, saying why
    const TapTablePlan off = planTapTable(scene, voxels, 1, offerOf(need / 0.96));
    EXPECT_FALSE(off.on);
    EXPECT_EQ(off.why.rfind("off (would not fit: ", 0), 0u) << off.why;
    // every configuration counts
    EXPECT_FALSE(planTapTable(scene, voxels, 2, offerOf(need / 0.94)).on);
    // a set that rebuilds keeps 10% of the offer to grow into
    Scene open = parseScene(variants()[0].text, "plume");
    open.adapt.every = 2;
    const double openNeed = estimatedSolverBytes(open, voxels, true);
    EXPECT_TRUE(planTapTable(open, voxels, 1, offerOf(openNeed / 0.89)).on);
    EXPECT_FALSE(planTapTable(open, voxels, 1, offerOf(openNeed / 0.91)).on);
    // the scene's (or the flag's) on and off are kept whatever the memory
    scene.tapTable = TapTableMode::On;
    EXPECT_TRUE(planTapTable(scene, voxels, 1, offerOf(1)).on);
    scene.tapTable = TapTableMode::Off;
    EXPECT_FALSE(planTapTable(scene, voxels, 1, offerOf(1e15)).on);
}

TEST(MemoryPlan, SolverResolvesAutoOnItsOwnOffer)
{
    Scene scene = parseScene(variants()[0].text, "plume");
    setenv("VBM_DEVICE_MEMORY", "1T", 1);
    EXPECT_TRUE(Solver(scene, Backend::Cpu).tapTable());
    setenv("VBM_DEVICE_MEMORY", "1M", 1);
    EXPECT_FALSE(Solver(scene, Backend::Cpu).tapTable());
    unsetenv("VBM_DEVICE_MEMORY");
}

TEST(MemoryPlan, RefusalNamesVoxelsBytesAndWhatToTry)
{
    const Scene scene = parseScene(variants()[0].text, "plume");
    const double need = estimatedSolverBytes(scene, 1e6, false);
    EXPECT_EQ(memoryRefusal(scene, 1e6, 1, offerOf(need * 1.01)), "");
    EXPECT_NE(memoryRefusal(scene, 1e6, 1, offerOf(need * 0.99)), "");
    const std::string device = memoryRefusal(scene, 3.5e9, 1, offerOf(140e9));
    EXPECT_NE(device.find("3.50G voxels"), std::string::npos) << device;
    EXPECT_NE(device.find("the GPU has 140.0 GB free"), std::string::npos) << device;
    EXPECT_NE(device.find("--scalars half"), std::string::npos) << device;
    char needed[32];
    std::snprintf(needed, sizeof needed, "%.1f GB", estimatedSolverBytes(scene, 3.5e9, false) / 1e9);
    EXPECT_NE(device.find(needed), std::string::npos) << device << " (want " << needed << ")";
    // several configurations: each holds a solver
    EXPECT_NE(memoryRefusal(scene, 1e6, 7, offerOf(need * 2)).find("7 configurations"), std::string::npos);
    // fits the device but not the host that builds it
    const std::string host = memoryRefusal(scene, 1e8, 1, offerOf(1e12, 1e9));
    EXPECT_NE(host.find("of host memory"), std::string::npos) << host;
    EXPECT_NE(host.find("1.0 GB are available"), std::string::npos) << host;
}

TEST(MemoryPlan, ByteCounts)
{
    uint64_t b = 0;
    EXPECT_TRUE(parseByteCount("4096", b));
    EXPECT_EQ(b, 4096u);
    EXPECT_TRUE(parseByteCount("2K", b));
    EXPECT_EQ(b, 2048u);
    EXPECT_TRUE(parseByteCount("1.5G", b));
    EXPECT_EQ(b, 1536ull << 20);
    EXPECT_TRUE(parseByteCount("80T", b));
    EXPECT_EQ(b, 80ull << 40);
    for (const char* bad : {"", "G", "-1", "1X", "nan", "1e30", "12 G"})
        EXPECT_FALSE(parseByteCount(bad, b)) << bad;
}

TEST(MemoryPlan, MalformedEnvironmentIsALine)
{
    setenv("VBM_HOST_MEMORY", "lots", 1);
    try {
        memoryOffer(Backend::Cpu);
        ADD_FAILURE() << "VBM_HOST_MEMORY=lots was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("VBM_HOST_MEMORY='lots' is not a byte count"), std::string::npos)
            << e.what();
    }
    unsetenv("VBM_HOST_MEMORY");
}

// The check runs with the voxel count before any voxel is listed, so a refusal costs nothing.
TEST(SceneBuildHooks, CheckComesBeforeTheVoxelsAndProgressAdvances)
{
    SceneBuildHooks hooks;
    double seen = -1;
    std::vector<std::pair<std::string, double>> fractions;
    hooks.beforeBuild = [&](Scene& s, double voxels) {
        EXPECT_FALSE(s.grid.grid<nanovdb::ValueOnIndex>()) << "no grid yet";
        EXPECT_TRUE(fractions.empty()) << "nothing listed yet";
        seen = voxels;
    };
    hooks.progress = [&](const char* what, double f) { fractions.emplace_back(what, f); };
    const Scene scene = parseScene("kind heat\ndomain sphere 0 0 0 30\n", "ball", ".", hooks);
    const double actual = double(scene.grid.grid<nanovdb::ValueOnIndex>()->activeVoxelCount());
    EXPECT_NEAR(seen, actual, 0.01 * actual);
    ASSERT_GT(fractions.size(), 10u);
    EXPECT_EQ(fractions.front().first, "listing the domain's voxels");
    EXPECT_EQ(fractions.front().second, 0.0);
    double lastListed = 0;
    for (size_t k = 1; k < fractions.size(); ++k)
        if (fractions[k].first == fractions[k - 1].first) {
            EXPECT_GE(fractions[k].second, fractions[k - 1].second) << fractions[k].first;
            EXPECT_LE(fractions[k].second, 1.0);
            if (fractions[k].first == "listing the domain's voxels") lastListed = fractions[k].second;
        }
    EXPECT_GT(lastListed, 0.95);
    EXPECT_EQ(fractions.back().first, "converting to a NanoVDB index grid");

    // a refusal stops the parse before anything is built
    hooks.beforeBuild = [](Scene&, double) { throw SceneError("refused"); };
    fractions.clear();
    EXPECT_THROW(parseScene("kind heat\ndomain sphere 0 0 0 900\n", "big ball", ".", hooks), SceneError);
    EXPECT_TRUE(fractions.empty());
    EXPECT_THROW(parseScene("kind heat\ndomain shell 800 4\n", "big shell", ".", hooks), SceneError);
    EXPECT_TRUE(fractions.empty());
}
