// Scenes: the built-ins, the files in assets/scenes, .nvdb domains and malformed input.
#include "Scene.h"
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
}

TEST(Scene, NvdbLevelSetDomainInteriorAndBand)
{
    const fs::path p = fs::temp_directory_path() / ("vbm-scene-ls-" + std::to_string(::getpid()) + ".nvdb");
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
