// SPDX-License-Identifier: Apache-2.0
// Scenes: the built-ins, the files in assets/scenes, .nvdb domains and malformed input.
#include "Scene.h"
#include "TestFolder.h"
#include "vbm/BuildVoxelBlockManager.h"

#include <nanovdb/io/IO.h>
#include <nanovdb/tools/CreatePrimitives.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace vbm;
namespace fs = std::filesystem;

TEST(Scene, BuiltinsAreTheAssetFiles)
{
    const auto names = builtinSceneNames();
    ASSERT_GE(names.size(), 3u);
    for (const std::string name : {"heat-shell", "heat-block", "smoke-plume"}) {
        SCOPED_TRACE(name);
        const Scene a = loadScene(name);
        const Scene b = loadScene(std::string(VBM_SOURCE_DIR) + "/assets/scenes/" + name + ".scene");
        EXPECT_EQ(a.kind, b.kind);
        EXPECT_EQ(a.grid.gridSize(), b.grid.gridSize());
        EXPECT_EQ(a.temperature, b.temperature);
        EXPECT_EQ(checkVbmGrid(a.grid.grid<nanovdb::ValueOnIndex>()), "");
    }
    EXPECT_NEAR(double(loadScene("heat-shell").grid.grid<nanovdb::ValueOnIndex>()->activeVoxelCount()), 1.29e6, 0.02e6);
    const Scene plume = loadScene("smoke-plume");
    EXPECT_EQ(plume.kind, SimulationKind::Smoke);
    EXPECT_FALSE(plume.emitter.empty());
    // the fire scene burns (fuel in its emitter) and is sized for a CPU
    const Scene fire = loadScene("fire");
    EXPECT_TRUE(isFire(fire.params));
    EXPECT_EQ(fire.kind, SimulationKind::Smoke);
    EXPECT_LT(fire.grid.grid<nanovdb::ValueOnIndex>()->activeVoxelCount(), 100000u);
}

// Smoke advects with MacCormack unless the scene says semi-lagrangian.
TEST(Scene, AdvectionIsMacCormackUnlessTheSceneSaysSemiLagrangian)
{
    const std::string smoke = "kind smoke\ndomain box 0 0 0 4 4 4\nemitter sphere 2 2 2 1\n";
    EXPECT_EQ(parseScene(smoke, "s").params.advection, AdvectionScheme::MacCormack);
    EXPECT_EQ(parseScene(smoke + "advection semi-lagrangian\n", "s").params.advection, AdvectionScheme::SemiLagrangian);
    EXPECT_EQ(parseScene(smoke + "advection maccormack\n", "s").params.advection, AdvectionScheme::MacCormack);
}

TEST(Scene, NvdbLevelSetDomainInteriorAndBand)
{
    const fs::path p = testFolder() / "vbm-scene-ls.nvdb";
    nanovdb::io::writeGrid(p.string(), nanovdb::tools::createLevelSetSphere<float>(20.0, nanovdb::Vec3d(0), 1.0, 3.0));
    const Scene in = parseScene("kind heat\ndomain nvdb " + p.string() + " interior\n", "t");
    const Scene band = parseScene("kind heat\ndomain nvdb " + p.string() + " band\n", "t");
    const double inside = double(in.grid.grid<nanovdb::ValueOnIndex>()->activeVoxelCount());
    EXPECT_NEAR(inside, 4.0 / 3.0 * M_PI * 20 * 20 * 20, 0.05 * inside);
    EXPECT_GT(band.grid.grid<nanovdb::ValueOnIndex>()->activeVoxelCount(), 4 * M_PI * 400 * 4);
    fs::remove(p);
}

TEST(Scene, MalformedTextNamesTheLine)
{
    const std::pair<const char*, int> cases[] = {
        {"kind heat\ndomain box 0 0 0 4 4 4\nalpha x\n", 3},
        {"kind heat\ndomain box 0 0 0 4 4\n", 2},
        {"kind fire\n", 1},
        {"kind heat\n\ndomain cube 1\n", 3},
        {"kind heat\ndomain box 0 0 0 4 4 4\ndomain box 0 0 0 4 4 4\n", 3},
        {"kind heat\ndomain box 0 0 0 4 4 4\nwibble 3\n", 3},
        {"kind heat\ndomain box 0 0 0 4 4 4\ndt -1\n", 3},
        {"kind smoke\ndomain box 0 0 0 4 4 4\nfixed sphere 1 1 1 1 5\n", 3},
        {"kind heat\ndomain box 0 0 0 4 4 4\nfixed sphere 100 100 100 1 5\n", 3},
        {"kind heat\ndomain box 4 4 4 0 0 0\n", 2},
        {"kind heat\ndomain nvdb /nonexistent.nvdb band\n", 2},
        {"kind heat\ndomain box 0 0 0 4 4 4\ncg_max_iterations 2.5\n", 3},
        {"kind smoke\ndomain box 0 0 0 4 4 4\nemitter sphere 2 2 2 1\nadvection bfecc\n", 4},
        {"kind smoke\ndomain box 0 0 0 4 4 4\nemitter sphere 2 2 2 1\nadvection\n", 4},
        {"kind smoke\ndomain box 0 0 0 4 4 4\nemitter sphere 2 2 2 1\nburn_rate 0\n", 4},
        {"kind heat\ndomain box 0 0 0 4 4 4\nemit_fuel 1\n", 3},
    };
    for (const auto& [text, line] : cases) {
        SCOPED_TRACE(text);
        try {
            parseScene(text, "s.scene");
            ADD_FAILURE() << "no error";
        } catch (const SceneError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("s.scene:" + std::to_string(line) + ": ", 0), 0u) << e.what();
        }
    }
    EXPECT_THROW(parseScene("", "empty"), SceneError);
    EXPECT_THROW(parseScene("kind smoke\ndomain box 0 0 0 4 4 4\n", "no emitter"), SceneError);
    EXPECT_THROW(loadScene("/nonexistent/file.scene"), SceneError);
}

namespace {

/// The error of parsing `text` (as s.scene), or "" when it parses.
std::string sceneError(const std::string& text)
{
    try {
        parseScene(text, "s.scene");
    } catch (const SceneError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(Scene, HostileNumbersAndShapesGetALineNumberedError)
{
    const std::pair<const char*, const char*> cases[] = {
        // coordinates past the safe index range (+-2^30), or past the int range
        {"kind heat\ndomain box 0 0 0 3e9 4 4\n", "s.scene:2: a coordinate"},
        {"kind heat\ndomain box 2147483600 0 0 2147483640 4 4\n", "s.scene:2: a coordinate"},
        {"kind heat\ndomain sphere 1073741800 0 0 30\n", "s.scene:2: the sphere reaches past the safe index range"},
        {"kind smoke\ndomain box 0 0 0 8 8 8\nemitter sphere -2e9 0 0 1\n", "s.scene:3: a coordinate"},
        {"kind heat\ndomain box 0 0 0 8 8 8\nremove sphere 0 0 0 1e300\n", "s.scene:3: the sphere reaches past"},
        {"kind heat\ndomain box 0 0 0 8 8 8\ntemperature sphere 4 4 4 -1 1\n",
         "s.scene:3: the sphere needs a positive"},
        // one voxel cap for every domain kind
        {"kind heat\ndomain shell 90000 9000\n", "s.scene:2: the domain would hold about"},
        {"kind heat\ndomain sphere 0 0 0 1100\n", "s.scene:2: the domain would hold about"},
        {"kind heat\ndomain box 0 0 0 2000 2000 1100\n",
         "s.scene:2: the domain would hold about 4.4e+09 voxels, over the limit of 2^32 - 1024 (the VBM's 32-bit "
         "indices)"},
        // a remove that empties the domain
        {"kind heat\ndomain shell 20 2\nremove sphere 0 0 0 100\n",
         "s.scene:3: this 'remove' leaves the domain no voxel"},
        {"kind heat\ndomain box 0 0 0 4 4 4\nremove sphere 2 2 2 1\nremove sphere 2 2 2 10\n",
         "s.scene:4: this 'remove'"},
        // settings: their own line, not line 0
        {"kind smoke\ndomain box 0 0 0 4 4 4\nemitter sphere 2 2 2 1\nmax_cfl 7.5\n",
         "s.scene:4: max_cfl must be at most 7 (a wide advection substep reaches 7 voxels; at most 1 keeps the box "
         "taps)"},
        {"kind smoke\ndomain box 0 0 0 4 4 4\nemitter sphere 2 2 2 1\nwind 0 500 0\n", "s.scene:4: a wind component"},
        // binary junk is not echoed raw
        {"kind heat\ndomain box 0 0 0 4 4 4\n\x01\x7fjunk\xff\n", "s.scene:3: unknown statement '\\x01\\x7fjunk\\xff'"},
    };
    for (const auto& [text, want] : cases) {
        SCOPED_TRACE(text);
        const std::string e = sceneError(text);
        EXPECT_EQ(e.rfind(want, 0), 0u) << e;
        for (char c : e)
            EXPECT_TRUE(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) << e;
    }
    // a byte-order mark before the first statement is not part of it
    EXPECT_EQ(sceneError("\xEF\xBB\xBFkind heat\ndomain box 0 0 0 4 4 4\n"), "");
    // UTF-8 text in a message stays readable
    EXPECT_EQ(sceneError("kind heat\ndomain box 0 0 0 4 4 4\ntempérature 3\n"),
              "s.scene:3: unknown statement 'température'");
}

TEST(Scene, LoadingChecksWhatWouldStopTheFirstStep)
{
    const fs::path dir = testFolder() / "vbm-scene-load";
    fs::create_directories(dir);
    const fs::path p = dir / "explicit.scene";
    std::ofstream(p) << "kind heat\ndomain box 0 0 0 8 8 8\ntemperature sphere 4 4 4 2 1\n";
    // parseScene leaves dt to the caller; loadScene, for a run, names the line where the default applies
    EXPECT_NO_THROW(parseScene("kind heat\ndomain box 0 0 0 8 8 8\n", "t"));
    try {
        loadScene(p.string());
        ADD_FAILURE() << "no error";
    } catch (const SceneError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(p.string() + ":1: the explicit heat scheme needs dt <=", 0), 0u)
            << e.what();
    }
    std::ofstream(p) << "kind heat\ndomain box 0 0 0 8 8 8\ndt 0.5\n";
    try {
        loadScene(p.string());
        ADD_FAILURE() << "no error";
    } catch (const SceneError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(p.string() + ":3: ", 0), 0u) << e.what();
    }
    // fire: cooling or dissipation that would take more than all there is in one step
    for (const char* key : {"cooling", "dissipation"}) {
        std::ofstream(p) << "kind smoke\ndomain box 0 0 0 8 8 8\nemitter sphere 4 2 4 2\nemit_fuel 1\ndt 2\n"
                         << key << " 0.6\n";
        try {
            loadScene(p.string());
            ADD_FAILURE() << key << ": no error";
        } catch (const SceneError& e) {
            EXPECT_EQ(std::string(e.what()).rfind(p.string() + ":6: " + key, 0), 0u) << e.what();
        }
    }
    EXPECT_THROW(loadScene(dir.string()), SceneError);
    EXPECT_THROW(loadScene(""), SceneError);
    fs::remove_all(dir);
}
