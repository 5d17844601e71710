// SPDX-License-Identifier: Apache-2.0
// The window, driven by a script under Xvfb on whatever Vulkan device is there (Mesa's lavapipe on
// CI) with the validation layer on: it cycles through the resolvers, pauses, steps, takes a
// screenshot, exports the fields and quits. Checked: exit code 0, no validation errors, the
// screenshot shows the panel and the volume, the export reads back (NanoVDB and vbm-check) with
// the solver's values, and the timing table has a row per resolver used.
#include "PngImage.h"
#include "RunCommand.h"
#include "TestFolder.h"

#include "Scene.h"
#include "Solver.h"

#include <nanovdb/io/IO.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>

namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

/// The density an export holds, by the scene's value index (index 0 unused); empty where the
/// export has no density grid.
std::vector<float> exportedDensity(const fs::path& fields, const fs::path& scene)
{
    const vbm::Scene s = vbm::loadScene(scene.string());
    const auto handles = nanovdb::io::readGrids(fields.string());
    const nanovdb::FloatGrid* grid = nullptr;
    for (const auto& h : handles)
        if (h.grid<float>() && std::string(h.grid<float>()->gridName()) == "density") grid = h.grid<float>();
    if (!grid) return {};
    const auto* domain = s.grid.grid<nanovdb::ValueOnIndex>();
    std::vector<float> out(domain->valueCount(), 0.f);
    auto acc = grid->getAccessor();
    for (uint32_t l = 0; l < domain->tree().nodeCount(0); ++l) {
        const auto& leaf = domain->tree().getFirstNode<0>()[l];
        for (auto on = leaf.valueMask().beginOn(); on; ++on)
            out[leaf.getValue(*on)] = acc.getValue(leaf.offsetToGlobalCoord(*on));
    }
    return out;
}

/// A small smoke scene run in the window (CPU backend, under Xvfb) by the script lines
/// `commands`, then its fields exported at frame `exportFrame` and the window closed.
struct ScriptedSmoke {
    fs::path dir, scene, fields;
    CommandResult run;
    int steps = -1; ///< the steps the export was taken after (-1: no export line)
};
ScriptedSmoke runScriptedSmoke(const std::string& tag, const std::string& commands, int exportFrame)
{
    ScriptedSmoke r;
    r.dir = testFolder() / ("vbm-gui-" + tag);
    fs::create_directories(r.dir);
    r.scene = r.dir / "smoke.scene", r.fields = r.dir / "fields.nvdb";
    const fs::path script = r.dir / "script.txt";
    write(r.scene, "kind smoke\ndomain sphere 0 8 0 8\nemitter sphere 0 3 0 2\ndt 1\n");
    write(script, commands + std::to_string(exportFrame) + " export " + r.fields.string() + "\n" +
                      std::to_string(exportFrame + 1) + " quit\n");
    r.run = runCommand("xvfb-run -a -s '-screen 0 1024x768x24' " + std::string(VBM_FLUID_PATH) +
                       " --backend cpu --size 640x400 --scene " + r.scene.string() + " --script " + script.string());
    std::smatch m;
    if (std::regex_search(r.run.out, m, std::regex("export: .* \\(after ([0-9]+) steps"))) r.steps = std::stoi(m[1]);
    return r;
}

/// Value indices 1.. where a and b differ in any bit.
int differingValues(const std::vector<float>& a, const std::vector<float>& b)
{
    int n = 0;
    for (size_t i = 1; i < a.size() && i < b.size(); ++i)
        n += std::memcmp(&a[i], &b[i], sizeof(float)) != 0;
    return n;
}

const char* const Resolvers[] = {"computeBoxStencil",       "forEachBoxStencil",   "computeBoxStencilCached",
                                 "forEachBoxStencilCached", "computeCrossStencil", "computeCrossStencilCached"};

} // namespace

TEST(GuiWindow, ScriptedSessionUnderXvfb)
{
    const fs::path dir = testFolder() / "vbm-gui-test";
    fs::create_directories(dir);
    // A small heat scene: a 32^3 block with a hot and a cold spot, implicit steps (CG).
    const fs::path scene = dir / "small.scene";
    write(scene, "kind heat\ndomain box 0 0 0 32 32 32\nfixed sphere 10 16 16 4 100\n"
                 "fixed sphere 22 16 16 4 -100\nscheme implicit\nalpha 1\ndt 2\ncg_tolerance 1e-6\n");
    const fs::path shot = dir / "window.png", fields = dir / "fields.nvdb", script = dir / "script.txt";
    std::string text;
    int frame = 0;
    for (const char* r : Resolvers) // two steps with each, the window playing
        text += std::to_string(frame) + " resolver " + r + "\n", frame += 2;
    // resized smaller and back while playing: the swapchain and the volume image are remade
    const fs::path small = dir / "small.png";
    text += std::to_string(frame) + " resize 480x300\n" + std::to_string(frame + 1) + " screenshot " + small.string() +
            "\n" + std::to_string(frame + 2) + " resize 640x400\n";
    frame += 4;
    text += std::to_string(frame) + " pause\n" + std::to_string(frame + 1) + " step\n" + std::to_string(frame + 2) +
            " screenshot " + shot.string() + "\n" + std::to_string(frame + 3) + " export " + fields.string() + "\n" +
            std::to_string(frame + 4) + " quit\n";
    write(script, text);

    ASSERT_EQ(runCommand("command -v xvfb-run").code, 0) << "xvfb-run is missing: run scripts/setup.sh";
    const CommandResult r =
        runCommand("VBM_VULKAN_VALIDATION=1 xvfb-run -a -s '-screen 0 1024x768x24' " + std::string(VBM_FLUID_PATH) +
                   " --backend cpu --size 640x400 --scene " + scene.string() + " --script " + script.string());
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("vbm-fluid (window)"), std::string::npos) << "did not open the window:\n" << r.out;
    EXPECT_NE(r.out.find("Vulkan validation errors: 0"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("validation error:"), std::string::npos) << r.out;

    // One table row per resolver used, with its step count and a ratio against computeBoxStencil.
    for (const char* name : Resolvers) {
        const std::regex row("\\n\\| " + std::string(name) + " \\| \\w+ \\| 128 \\| [0-9]+ \\|.*\\| [0-9.]+x \\|");
        EXPECT_TRUE(std::regex_search(r.out, row)) << "no timing row for " << name << ":\n" << r.out;
    }

    // The screenshot: the whole window. The panel (left 2/5) has ImGui's blue headers and light
    // text; the volume (the rest) glows warm where the hot spot is and stays dark at its corners.
    const Image resized = readPng(small);
    EXPECT_EQ(resized.width, 480u) << "the resize did not reach the swapchain";
    EXPECT_EQ(resized.height, 300u);
    const Image img = readPng(shot);
    ASSERT_EQ(img.width, 640u) << r.out;
    ASSERT_EQ(img.height, 400u);
    const auto blue = [](const uint8_t* p) { return p[2] > p[0] + 40 && p[2] > 90; };
    const auto light = [](const uint8_t* p) { return p[0] > 200 && p[1] > 200 && p[2] > 200; };
    const auto warm = [](const uint8_t* p) { return p[0] > 150 && p[0] > p[2] + 40; };
    EXPECT_GT(img.fraction(0, 0, 0.38, 1, blue), 0.05) << "no panel headers";
    EXPECT_GT(img.fraction(0, 0, 0.38, 1, light), 0.005) << "no panel text";
    EXPECT_GT(img.fraction(0.42, 0.2, 1, 0.8, warm), 0.01) << "no volume";
    EXPECT_EQ(img.fraction(0.42, 0, 0.5, 0.08, warm), 0) << "the volume spills into the corner";
    EXPECT_EQ(img.fraction(0.42, 0, 1, 1, blue), 0) << "the panel covers the volume";

    // The export: one float grid per field, over the domain's voxels, with the solver's values
    // after as many steps (resolvers give bitwise identical fields, so any resolver reproduces it).
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("export: .* \\(after ([0-9]+) steps")));
    const int steps = std::stoi(m[1]);
    EXPECT_EQ(steps, 17); // 12 + 4 while playing (resolvers, resizes), then one single step
    const vbm::Scene s = vbm::loadScene(scene.string());
    vbm::Solver solver(s, vbm::Backend::Cpu);
    for (int i = 0; i < steps; ++i)
        solver.step();
    const std::vector<float> expected = solver.field("temperature");
    const auto handles = nanovdb::io::readGrids(fields.string());
    ASSERT_EQ(handles.size(), 1u);
    const auto* grid = handles[0].grid<float>();
    ASSERT_NE(grid, nullptr) << "not a float grid";
    EXPECT_STREQ(grid->gridName(), "temperature");
    EXPECT_EQ(grid->activeVoxelCount(), solver.activeVoxels());
    const auto* domain = s.grid.grid<nanovdb::ValueOnIndex>();
    auto domainAcc = domain->getAccessor();
    auto acc = grid->getAccessor();
    int checked = 0, wrong = 0;
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 32; ++j)
            for (int k = 0; k < 32; ++k) {
                const nanovdb::Coord ijk(i, j, k);
                const float want = expected[domainAcc.getValue(ijk)], got = acc.getValue(ijk);
                wrong += std::memcmp(&want, &got, 4) != 0 || !acc.isActive(ijk);
                ++checked;
            }
    EXPECT_EQ(checked, 32768);
    EXPECT_EQ(wrong, 0);
    const CommandResult check = runCommand(std::string(VBM_CHECK_PATH) + " --cpu --width 128 " + fields.string());
    EXPECT_EQ(check.code, 0) << check.out;

    fs::remove_all(dir);
}

// The script's `tap-table on` restarts the scene with the voxel tap table (the reload says so)
// and the fields are bitwise those of a solver without it after as many steps.
TEST(GuiWindow, TapTableFromTheScriptRestartsWithTheTable)
{
    ASSERT_EQ(runCommand("command -v xvfb-run").code, 0) << "xvfb-run is missing: run scripts/setup.sh";
    const ScriptedSmoke r = runScriptedSmoke("taps", "0 pause\n0 tap-table on\n1 step\n2 step\n", 3);
    ASSERT_EQ(r.run.code, 0) << r.run.out;
    EXPECT_NE(r.run.out.find(", cross taps stored"), std::string::npos) << r.run.out;
    ASSERT_GE(r.steps, 0) << "no export line:\n" << r.run.out;
    const int steps = r.steps;
    EXPECT_EQ(steps, 2);

    vbm::Solver plain(vbm::loadScene(r.scene.string()), vbm::Backend::Cpu);
    for (int i = 0; i < steps; ++i)
        plain.step();
    const std::vector<float> got = exportedDensity(r.fields, r.scene), want = plain.field("density");
    ASSERT_FALSE(got.empty()) << "no density grid in the export";
    ASSERT_EQ(got.size(), want.size());
    EXPECT_GT(got.size(), 1000u);
    EXPECT_NE(std::count(got.begin() + 1, got.end(), 0.f), std::ptrdiff_t(got.size() - 1)) << "no smoke yet";
    EXPECT_EQ(differingValues(got, want), 0) << "the window's fields with the tap table are not the plain solver's";
    fs::remove_all(r.dir);
}

// The script's `scalars half` restarts a smoke scene with half storage: the exported density is
// bitwise that of a half-storage solver after as many steps, and not the float one's.
TEST(GuiWindow, ScalarsHalfFromTheScriptRestartsWithHalfStorage)
{
    ASSERT_EQ(runCommand("command -v xvfb-run").code, 0) << "xvfb-run is missing: run scripts/setup.sh";
    const ScriptedSmoke r = runScriptedSmoke("half", "0 pause\n0 scalars half\n1 step\n2 step\n3 step\n", 4);
    ASSERT_EQ(r.run.code, 0) << r.run.out;
    ASSERT_GE(r.steps, 0) << "no export line:\n" << r.run.out;
    const int steps = r.steps;
    EXPECT_EQ(steps, 3);

    std::vector<float> density[2];
    for (int half = 0; half < 2; ++half) {
        vbm::Scene s = vbm::loadScene(r.scene.string());
        s.scalars = half ? vbm::ScalarStorage::Half : vbm::ScalarStorage::Float;
        vbm::Solver solver(s, vbm::Backend::Cpu);
        for (int i = 0; i < steps; ++i)
            solver.step();
        density[half] = solver.field("density");
    }
    const std::vector<float> got = exportedDensity(r.fields, r.scene);
    ASSERT_FALSE(got.empty()) << "no density grid in the export";
    EXPECT_GT(got.size(), 1000u);
    EXPECT_EQ(differingValues(got, density[1]), 0) << "the window's density is not the half-storage solver's";
    EXPECT_GT(differingValues(got, density[0]), 0) << "the window ran with float storage";
    fs::remove_all(r.dir);
}

// The Output panel's sequence, driven by the script: `record NAME_%04d.vdb` writes every stepped
// frame as OpenVDB (or .nvdb) until `record off`; an export of a .vdb name writes one frame.
TEST(GuiWindow, RecordsAFrameSequenceAndExportsAVdbFrame)
{
    const fs::path dir = testFolder() / "vbm-gui-record";
    fs::remove_all(dir);
    const std::string pattern = (dir / "rec_%04d.nvdb").string();
    const ScriptedSmoke r = runScriptedSmoke("record", "0 record " + pattern + "\n3 record off\n4 export " +
                                                           (dir / "one.vdb").string() + "\n", 6);
    ASSERT_EQ(r.run.code, 0) << r.run.out;
    EXPECT_NE(r.run.out.find("record: 3 files"), std::string::npos) << r.run.out;
    for (const char* f : {"rec_0000.nvdb", "rec_0001.nvdb", "rec_0002.nvdb"})
        EXPECT_TRUE(fs::exists(dir / f)) << f << "\n" << r.run.out;
    EXPECT_FALSE(fs::exists(dir / "rec_0003.nvdb")) << "recorded after 'record off'";
    EXPECT_TRUE(fs::exists(dir / "one.vdb")) << r.run.out;
}
