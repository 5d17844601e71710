// SPDX-License-Identifier: Apache-2.0
// vbm-fluid's headless run from the command line: help, bad input, an A/B run of every
// resolver that must stay bitwise identical and write its timings, and the active voxels per
// frame in its progress and timings files. Its timing outputs (the files, the summary table)
// are also checked on made-up records with rebuild phases, which no built-in scene runs yet.
#include "FallingSmokeScene.h"
#include "RunCommand.h"
#include "TestFolder.h"

#include "Scene.h"
#include "Solver.h"
#include "TimingSummary.h"
#include "TimingsFile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <regex>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;

namespace {

CommandResult fluid(const std::string& args) { return runCommand(std::string(VBM_FLUID_PATH) + " " + args); }

std::string readAll(const fs::path& p)
{
    std::ifstream in(p);
    return std::string((std::istreambuf_iterator<char>(in)), {});
}

fs::path writeFile(const std::string& name, const std::string& text)
{
    const fs::path p = testFolder() / ("vbm-fluid-test-" + name);
    std::ofstream(p) << text;
    return p;
}

} // namespace

TEST(VbmFluidCli, HelpDocumentsEveryFlag)
{
    const CommandResult r = fluid("--help");
    EXPECT_EQ(r.code, 0);
    for (const char* flag : {"--headless", "--steps", "--frames", "--scene", "--backend", "--resolver",
                             "--advection-resolver", "--block-width", "--render", "--size", "--screenshot", "--json",
                             "--timings", "--seed", "--interop", "--export", "--script", "--scalars", "--max-cfl",
                             "exit codes"})
        EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

TEST(VbmFluidCli, BadUsageAndInputGiveOneLineAndExitCode2)
{
    const fs::path bad = writeFile("bad.scene", "kind heat\ndomain box 0 0 0 4 4\n");
    const std::pair<std::string, std::string> cases[] = {
        {"--frames 0", "--frames"},
        {"--bogus", "unknown option"},
        {"--resolver nope", "unknown resolver"},
        {"--advection-resolver computeCrossStencil", "box resolver"},
        {"--block-width 256", "--block-width"},
        {"--timings out.txt", ".csv or .json"},
        {"--render sideways", "--render"},
        {"--size 10x10", "--size"},
        {"--screenshot out.jpg", ".png"},
        {"--export out.vdb", ".nvdb"},
        {"--interop sometimes", "--interop"},
        {"--scalars double", "--scalars"},
        {"--headless --backend cpu --scalars half --scene heat-shell", "is for smoke scenes"},
        {"--max-cfl 7.5", "--max-cfl must be above 0 and at most 7, got 7.5"},
        {"--max-cfl 0", "--max-cfl must be above 0"},
        {"--tap-table yes", "--tap-table"},
        {"--max-cfl fast", "--max-cfl takes a number"},
        {"--headless --backend cpu --max-cfl 3 --scene heat-shell", "--max-cfl is for smoke scenes"},
        {"--headless --backend cpu --resolver NanoVDB13", "CUDA-only"},
        {"--headless --scene /nonexistent.scene", "/nonexistent.scene"},
        {"--headless --scene " + bad.string(), bad.string() + ":2:"},
        // output folders are checked before the first step
        {"--headless --backend cpu --timings /nonexistent-dir/t.csv", "'/nonexistent-dir' does not exist"},
        {"--headless --backend cpu --export /nonexistent-dir/f.nvdb", "'/nonexistent-dir' does not exist"},
        {"--headless --backend cpu --screenshot /nonexistent-dir/f.png", "'/nonexistent-dir' does not exist"},
        {"--headless --backend cpu --scene ''", "--scene needs"},
        {"--headless --backend cpu --scene " + testFolder().string(), "is a directory"},
        {"--headless --backend cpu --slice z:1e300", "within +-2^30"},
    };
    for (const auto& [args, words] : cases) {
        SCOPED_TRACE(args);
        const CommandResult r = fluid(args);
        EXPECT_EQ(r.code, 2) << r.out;
        EXPECT_NE(lastLine(r.out).find(words), std::string::npos) << r.out;
        EXPECT_EQ(lastLine(r.out).rfind("vbm-fluid: ", 0), 0u) << r.out;
    }
}

TEST(VbmFluidCli, AFieldThatStopsBeingFiniteStopsTheRunWithExitCode1)
{
    const fs::path scene =
        writeFile("blowup.scene", "kind smoke\ndomain sphere 0 0 0 8\nemitter sphere 0 -4 0 2\ndt 1e300\n");
    const CommandResult r = fluid("--headless --backend cpu --render none --frames 20 --scene " + scene.string());
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_EQ(lastLine(r.out).rfind("vbm-fluid: step 1: ", 0), 0u) << r.out;
    EXPECT_NE(lastLine(r.out).find("lower dt"), std::string::npos) << r.out;
}

TEST(VbmFluidCli, EveryResolverInTurnStaysIdenticalAndWritesTimings)
{
    const fs::path scene = writeFile("plume.scene", "kind smoke\ndomain sphere 0 8 0 8\nremove sphere 0 10 0 2\n"
                                                    "emitter sphere 0 3 0 2\ndt 1\n");
    const fs::path csv = testFolder() / "vbm-fluid-test.csv";
    const CommandResult r = fluid("--headless --backend cpu --render none --frames 3 --resolver all --scene " +
                                  scene.string() + " --timings " + csv.string());
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("Fields bitwise identical across all 6 resolvers after every frame: yes"), std::string::npos)
        << r.out;
    std::ifstream in(csv);
    std::string line, all;
    int rows = 0;
    while (std::getline(in, line))
        ++rows, all += line + "\n";
    // 6 resolvers x 3 frames x (5 phases + step), a whole-frame row per frame, plus the header
    // (phases: sources+centre velocity+buoyancy, advection, face velocity+divergence, pressure CG,
    // gradient)
    EXPECT_EQ(rows, 1 + 6 * 3 * 6 + 3) << all;
    for (const char* phase : {"advection", "divergence", "pressure CG", "gradient", "step", "frame"})
        EXPECT_NE(all.find(phase), std::string::npos) << phase;
    fs::remove(csv);
}

// Heavy smoke falling out of its first set (test_open_air.cpp): the progress marks the early
// rebuilds and the run's end counts them with what to change; a scene whose margin holds says
// nothing of them.
TEST(VbmFluidCli, EarlyRebuildsAreMarkedAndCountedWithWhatToChange)
{
    const fs::path scene = writeFile("falling.scene", vbm::FallingSmokeScene);
    const fs::path csv = testFolder() / "vbm-fluid-test-falling.csv";
    const CommandResult r =
        fluid("--headless --backend cpu --render none --frames 12 --scene " + scene.string() + " --timings " + csv.string());
    ASSERT_EQ(r.code, 0) << r.out;
    const std::regex marked(R"(frame \d+/12, .* \(rebuilt early: smoke had reached the set's edge\))");
    const auto marks = std::distance(std::sregex_iterator(r.out.begin(), r.out.end(), marked), std::sregex_iterator());
    EXPECT_GE(marks, 1) << r.out;
    std::smatch count;
    ASSERT_TRUE(std::regex_search(r.out, count, std::regex(R"(Early rebuilds: (\d+): smoke above the adapt threshold)")))
        << r.out;
    EXPECT_EQ(std::stol(count[1]), marks) << r.out;
    EXPECT_NE(r.out.find("A larger `adapt ... margin` or a smaller `every`"), std::string::npos) << r.out;
    // the timings file's step rows say which frames rebuilt early: as many as the progress marked
    std::istringstream lines(readAll(csv));
    std::string line;
    long earlySteps = 0, everySteps = 0;
    while (std::getline(lines, line))
        if (line.find(",step,") != std::string::npos)
            earlySteps += line.ends_with(",early"), everySteps += line.ends_with(",every");
    EXPECT_EQ(earlySteps, marks) << readAll(csv);
    EXPECT_GE(everySteps, 1) << readAll(csv);

    const CommandResult held = fluid("--headless --backend cpu --render none --frames 12 --scene fire-small");
    ASSERT_EQ(held.code, 0) << held.out;
    EXPECT_EQ(held.out.find("early"), std::string::npos) << held.out;
}

// --scalars half: the header says so, the memory is 4 B per voxel less, and every resolver in
// turn stays identical on the half pairs.
TEST(VbmFluidCli, HalfScalarsShowInTheHeaderAndMemory)
{
    const fs::path scene = writeFile("plume-half.scene", "kind smoke\ndomain sphere 0 8 0 8\nremove sphere 0 10 0 2\n"
                                                         "emitter sphere 0 3 0 2\ndt 1\n");
    const auto memory = [](const std::string& out) {
        std::smatch m;
        EXPECT_TRUE(std::regex_search(out, m, std::regex("fields ([0-9.]+),")));
        return m.size() > 1 ? std::stod(m[1]) : 0.0;
    };
    const std::string common = "--headless --backend cpu --render none --frames 2 --scene " + scene.string();
    const CommandResult full = fluid(common), half = fluid(common + " --scalars half --resolver all");
    ASSERT_EQ(full.code, 0) << full.out;
    ASSERT_EQ(half.code, 0) << half.out;
    EXPECT_NE(full.out.find("scalars:    density and temperature as floats"), std::string::npos) << full.out;
    EXPECT_NE(half.out.find("scalars:    density and temperature as half pairs"), std::string::npos) << half.out;
    EXPECT_NEAR(memory(full.out) - memory(half.out), 4.0, 0.06) << full.out << half.out;
    EXPECT_NE(half.out.find("identical across all 6 resolvers after every frame: yes"), std::string::npos) << half.out;
}

// Wide substeps are the default and the header says so; --max-cfl 1 gives the box taps, says so,
// keeps every resolver identical, and its fields are those of the scene with `max_cfl 1` in it
// (the flag is the scene key), not the default's.
TEST(VbmFluidCli, MaxCflOverridesTheScenesAndShowsInTheHeader)
{
    const std::string body =
        "kind smoke\ndomain sphere 0 8 0 8\nremove sphere 0 10 0 2\nemitter sphere 0 3 0 2\ndt 2\n";
    const fs::path plain = writeFile("plume-cfl.scene", body),
                   keyed = writeFile("plume-cfl1.scene", body + "max_cfl 1\n");
    const fs::path out[3] = {testFolder() / "vbm-fluid-cfl-a.nvdb", testFolder() / "vbm-fluid-cfl-b.nvdb",
                             testFolder() / "vbm-fluid-cfl-c.nvdb"};
    const std::string common = "--headless --backend cpu --render none --frames 4 --scene ";
    const CommandResult wide = fluid(common + plain.string() + " --export " + out[0].string()),
                        flag =
                            fluid(common + plain.string() + " --max-cfl 1 --resolver all --export " + out[1].string()),
                        key = fluid(common + keyed.string() + " --export " + out[2].string());
    for (const CommandResult* r : {&wide, &flag, &key})
        ASSERT_EQ(r->code, 0) << r->out;
    EXPECT_NE(wide.out.find("advection:  CFL at most 7 per substep (wide substeps"), std::string::npos) << wide.out;
    EXPECT_NE(flag.out.find("advection:  CFL at most 1 per substep (box taps)"), std::string::npos) << flag.out;
    EXPECT_NE(flag.out.find("identical across all 6 resolvers after every frame: yes"), std::string::npos) << flag.out;
    const auto bytes = [](const fs::path& p) {
        std::ifstream f(p, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(f), {});
    };
    EXPECT_TRUE(bytes(out[1]) == bytes(out[2])) << "--max-cfl 1 is the scene's max_cfl 1";
    EXPECT_FALSE(bytes(out[0]) == bytes(out[1])) << "box substeps are another discretisation";
    for (const fs::path& p : out)
        fs::remove(p);
}

// The advection row's iterations column counts the frame's substeps (the advection's time scales
// with them): at least one each frame, and fewer with wider substeps on the same plume.
TEST(VbmFluidCli, TimingsCountTheAdvectionSubsteps)
{
    const fs::path scene = writeFile("plume-substeps.scene", "kind smoke\ndomain sphere 0 8 0 8\nremove sphere 0 10 0 "
                                                             "2\nemitter sphere 0 3 0 2\ndt 2\n");
    const auto substeps = [&](const std::string& flags) {
        const fs::path csv = testFolder() / "vbm-fluid-substeps.csv";
        const CommandResult r = fluid("--headless --backend cpu --render none --frames 6 --scene " + scene.string() +
                                      " --timings " + csv.string() + " " + flags);
        EXPECT_EQ(r.code, 0) << r.out;
        std::vector<int> counts;
        std::ifstream in(csv);
        std::smatch m;
        for (std::string line; std::getline(in, line);)
            if (std::regex_match(line, m, std::regex("[0-9]+,[^,]+,advection,[0-9.e+-]+,([0-9]*),,.*")))
                counts.push_back(m[1].length() ? std::stoi(m[1]) : 0);
        fs::remove(csv);
        return counts;
    };
    const std::vector<int> narrow = substeps("--max-cfl 1"), wide = substeps("--max-cfl 7");
    ASSERT_EQ(narrow.size(), 6u);
    ASSERT_EQ(wide.size(), 6u);
    for (int k = 0; k < 6; ++k) {
        EXPECT_GE(narrow[k], 1) << "frame " << k;
        EXPECT_GE(wide[k], 1) << "frame " << k;
    }
    EXPECT_GE(*std::max_element(narrow.begin(), narrow.end()), 2) << "dt 2 moves the plume more than a voxel";
    EXPECT_GT(std::accumulate(narrow.begin(), narrow.end(), 0), std::accumulate(wide.begin(), wide.end(), 0));
}

// --tap-table on: the header says so, and the export is byte for byte the one without it, with
// every resolver filling the table in turn.
TEST(VbmFluidCli, TapTableShowsInTheHeaderAndChangesNoByteOfTheExport)
{
    const fs::path scene = writeFile("plume-taps.scene", "kind smoke\ndomain sphere 0 8 0 8\nremove sphere 0 10 0 2\n"
                                                         "emitter sphere 0 3 0 2\ndt 2\n");
    const fs::path out[2] = {testFolder() / "vbm-fluid-taps-a.nvdb", testFolder() / "vbm-fluid-taps-b.nvdb"};
    const std::string common = "--headless --backend cpu --render none --frames 4 --scene " + scene.string();
    const CommandResult plain = fluid(common + " --tap-table off --export " + out[0].string()),
                        stored = fluid(common + " --tap-table on --resolver all --export " + out[1].string());
    ASSERT_EQ(plain.code, 0) << plain.out;
    ASSERT_EQ(stored.code, 0) << stored.out;
    EXPECT_NE(plain.out.find("tap table:  off (tap_table off)\n"), std::string::npos) << plain.out;
    EXPECT_NE(stored.out.find("tap table:  on (tap_table on); read by every Laplacian-type pass"), std::string::npos)
        << stored.out;
    EXPECT_NE(stored.out.find("identical across all 6 resolvers after every frame: yes"), std::string::npos)
        << stored.out;
    const auto bytes = [](const fs::path& p) {
        std::ifstream f(p, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(f), {});
    };
    EXPECT_FALSE(bytes(out[0]).empty());
    EXPECT_EQ(bytes(out[0]), bytes(out[1])) << "the table changes no result";
    for (const fs::path& p : out)
        fs::remove(p);
}

// --fields-hash prints Solver::fieldsHash after the last frame: the same for runs with the same
// bits (another resolver, the tap table), another after one more frame.
TEST(VbmFluidCli, FieldsHashMatchesForTheSameBitsAndNotForOthers)
{
    const fs::path scene = writeFile("plume-hash.scene", "kind smoke\ndomain sphere 0 8 0 8\nremove sphere 0 10 0 2\n"
                                                         "emitter sphere 0 3 0 2\ndt 2\n");
    const auto hashOf = [&](const std::string& extra, int frames) {
        const CommandResult r = fluid("--headless --backend cpu --render none --fields-hash --scene " + scene.string() +
                                      " --frames " + std::to_string(frames) + extra);
        EXPECT_EQ(r.code, 0) << r.out;
        std::smatch m;
        const std::regex line("fields hash: ([0-9a-f]{16}) \\(6 fields, [0-9]+ active voxels, after " +
                              std::to_string(frames) + " frames\\)");
        EXPECT_TRUE(std::regex_search(r.out, m, line)) << r.out;
        return m.empty() ? std::string() : m[1].str();
    };
    const std::string plain = hashOf("", 4);
    ASSERT_FALSE(plain.empty());
    EXPECT_EQ(hashOf(" --resolver computeCrossStencil --tap-table on", 4), plain);
    EXPECT_NE(hashOf("", 5), plain);
}

// --export writes every field after the last frame; two resolvers give byte-identical files, and
// vbm-check reads the file back and checks the VBM layer on each of its grids.
TEST(VbmFluidCli, ExportWritesFieldsThatEveryResolverReproduces)
{
    const fs::path scene =
        writeFile("export.scene", "kind smoke\ndomain sphere 0 8 0 8\nemitter sphere 0 3 0 2\ndt 1\n");
    const fs::path a = testFolder() / "vbm-fluid-test-a.nvdb";
    const fs::path b = testFolder() / "vbm-fluid-test-b.nvdb";
    const std::string base = "--headless --backend cpu --render none --frames 3 --scene " + scene.string();
    const CommandResult ra = fluid(base + " --resolver computeBoxStencil --export " + a.string());
    ASSERT_EQ(ra.code, 0) << ra.out;
    EXPECT_NE(ra.out.find("export: " + a.string() + " (6 float grids after 3 frames)"), std::string::npos) << ra.out;
    const CommandResult rb = fluid(base + " --resolver computeCrossStencilCached --export " + b.string());
    ASSERT_EQ(rb.code, 0) << rb.out;
    std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
    const std::string bytesA((std::istreambuf_iterator<char>(fa)), {}),
        bytesB((std::istreambuf_iterator<char>(fb)), {});
    EXPECT_GT(bytesA.size(), 1000u);
    EXPECT_TRUE(bytesA == bytesB) << "the exports of two resolvers differ";
    const CommandResult check = runCommand(std::string(VBM_CHECK_PATH) + " --cpu --width 128 " + a.string());
    EXPECT_EQ(check.code, 0) << check.out;
    EXPECT_NE(check.out.find(" 0 failed"), std::string::npos) << check.out;
    fs::remove(a), fs::remove(b);
}

// heat-block, a fixed topology: every row of the CSV and of the JSON carries active_voxels, the
// solver's active voxel count, every frame has rows, and the progress lines say the count and
// mark no frame as rebuilt.
TEST(VbmFluidCli, TimingsCarryTheActiveVoxelsOfEveryFrame)
{
    const uint64_t voxels = vbm::Solver(vbm::loadScene("heat-block"), vbm::Backend::Cpu).activeVoxels();
    ASSERT_GT(voxels, 0u);
    const std::string base = "--headless --backend cpu --render none --frames 3 --scene heat-block --timings ";
    const fs::path csv = testFolder() / "vbm-fluid-test-av.csv";
    const fs::path json = testFolder() / "vbm-fluid-test-av.json";
    for (const fs::path& file : {csv, json}) {
        const CommandResult r = fluid(base + file.string());
        ASSERT_EQ(r.code, 0) << r.out;
        for (int f = 1; f <= 3; ++f)
            EXPECT_NE(r.out.find("frame " + std::to_string(f) + "/3, last step "), std::string::npos) << r.out;
        EXPECT_TRUE(std::regex_search(
            r.out, std::regex("frame 3/3, last step [0-9.]+ ms, " + std::to_string(voxels) + " active voxels\n")))
            << r.out;
        EXPECT_EQ(r.out.find("(rebuilt)"), std::string::npos) << r.out;
        EXPECT_EQ(r.out.find("rebuild"), std::string::npos) << "rebuild rows for a fixed topology:\n" << r.out;
    }

    std::istringstream lines(readAll(csv));
    std::string line;
    ASSERT_TRUE(std::getline(lines, line));
    EXPECT_EQ(line, "frame,resolver,phase,ms,iterations,residual,active_voxels,smoke_voxels,rebuild");
    std::map<int, int> rowsPerFrame;
    while (std::getline(lines, line)) {
        ++rowsPerFrame[std::stoi(line)];
        EXPECT_TRUE(line.ends_with("," + std::to_string(voxels) + ",0,")) << line; // no smoke counted, no rebuild
    }
    EXPECT_EQ(rowsPerFrame.size(), 3u);
    for (const auto& [frame, rows] : rowsPerFrame)
        EXPECT_GE(rows, 3) << "frame " << frame; // heat's phases, step, frame

    const std::string text = readAll(json);
    const std::regex row("\\{\"frame\": ([0-9]+), [^}]*\\}");
    std::map<int, int> jsonRows;
    size_t rows = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator(); ++it, ++rows) {
        ++jsonRows[std::stoi((*it)[1])];
        EXPECT_NE(it->str().find("\"active_voxels\": " + std::to_string(voxels) + ", \"smoke_voxels\": 0}"),
                  std::string::npos)
            << it->str();
    }
    EXPECT_EQ(jsonRows, rowsPerFrame) << text;
    EXPECT_GT(rows, 0u);
    fs::remove(csv), fs::remove(json);
}

namespace {

/// A made-up run of `frames` frames of one configuration that rebuilds in the frames `rebuilt`
/// (each rebuild phase taking 2 ms + the frame number), 10 ms of diffusion in every frame, with
/// the active voxels growing by 100 at each rebuild.
vbm::app::TimingRecords madeUpRun(int frames, const std::vector<int>& rebuilt)
{
    using vbm::Phase;
    vbm::app::TimingRecords t{"made-up", vbm::Backend::Cpu, 1, {"computeBoxStencil"}, {}};
    uint64_t voxels = 1000;
    for (int f = 0; f < frames; ++f) {
        vbm::FrameTimings r;
        r.frame = f;
        r.rebuilt = std::find(rebuilt.begin(), rebuilt.end(), f) != rebuilt.end();
        if (r.rebuilt) {
            voxels += 100;
            for (Phase p : {Phase::RebuildTopology, Phase::RebuildVbm, Phase::RebuildRemap, Phase::RebuildHierarchy})
                r.add(p, 2.0 + f);
        }
        r.add(Phase::Diffusion, 10);
        r.add(Phase::Step, 10 + (r.rebuilt ? 4 * (2.0 + f) : 0));
        r.add(Phase::Render, 1);
        r.add(Phase::Frame, r.stepMs() + 1);
        r.activeVoxels = voxels;
        t.frames.push_back({r});
    }
    return t;
}

} // namespace

// The rebuild phases, which run in 2 of 10 frames, first seen after the others: listed where they
// run (before diffusion, not after the frame), with their median and p95 over the 2 frames that
// ran them, then one row with their sum over all frames / 10; the footnote says so. Fixed
// topologies get neither.
TEST(HeadlessSummary, RebuildPhasesOverTheFramesThatRanThemAndAmortized)
{
    const std::string table = vbm::app::summaryTable(madeUpRun(10, {3, 7}));
    // frames 3 and 7: each phase 5 and 9 ms (median 7, p95 8.8); amortized 4 * (5 + 9) / 10 = 5.6
    for (const char* phase : {"rebuild topology", "rebuild VBM", "rebuild remap", "rebuild hierarchy"})
        EXPECT_NE(table.find(std::string("| computeBoxStencil | ") + phase + " (2 of 10 frames) | 7.000 | 8.800 |"),
                  std::string::npos)
            << phase << "\n"
            << table;
    EXPECT_NE(table.find("| computeBoxStencil | rebuild, amortized per step | 5.600 | |"), std::string::npos) << table;
    EXPECT_NE(table.find("| computeBoxStencil | diffusion | 10.000 | 10.000 |"), std::string::npos) << table;
    const size_t first = table.find("rebuild topology"), hierarchy = table.find("rebuild hierarchy"),
                 amortized = table.find("amortized per step |"), diffusion = table.find("| diffusion |"),
                 frame = table.find("| frame |");
    EXPECT_LT(first, hierarchy);
    EXPECT_LT(hierarchy, amortized);
    EXPECT_LT(amortized, diffusion);
    EXPECT_LT(diffusion, frame);
    EXPECT_NE(table.find("median and p95 over the frames that rebuilt the topology only"), std::string::npos) << table;

    const std::string fixed = vbm::app::summaryTable(madeUpRun(10, {}));
    EXPECT_EQ(fixed.find("rebuild"), std::string::npos) << fixed;
    EXPECT_NE(fixed.find("| computeBoxStencil | diffusion | 10.000 | 10.000 |"), std::string::npos) << fixed;
}

// The timings file of the same made-up run: the rebuild rows only in the frames that rebuilt, in
// the order they ran, and every row with the frame's active voxels and its rebuild: none, the
// K-th step's ("every") or the edge watch's ("early", made up here on the last frame).
TEST(HeadlessSummary, TimingsFileHasRebuildRowsAndActiveVoxelsPerFrame)
{
    vbm::app::TimingRecords t = madeUpRun(5, {2});
    const std::vector<vbm::Phase> order = vbm::app::phasesInRowOrder(t);
    const std::vector<vbm::Phase> want = {
        vbm::Phase::RebuildTopology, vbm::Phase::RebuildVbm, vbm::Phase::RebuildRemap, vbm::Phase::RebuildHierarchy,
        vbm::Phase::Diffusion,       vbm::Phase::Step,       vbm::Phase::Render,       vbm::Phase::Frame};
    EXPECT_EQ(order, want);
    t.frames[4][0].rebuilt = t.frames[4][0].rebuiltEarly = true;
    const fs::path csv = testFolder() / "vbm-fluid-test-made.csv";
    EXPECT_EQ(vbm::app::writeTimings(csv.string(), t), size_t(5 * 4 + 4));
    const std::string text = readAll(csv);
    EXPECT_NE(text.find("\n2,computeBoxStencil,rebuild topology,4,,,1100,0,every\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\n1,computeBoxStencil,diffusion,10,,,1000,0,\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\n4,computeBoxStencil,frame,11,,,1100,0,early\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("\n1,computeBoxStencil,rebuild"), std::string::npos) << text;
    const fs::path json = testFolder() / "vbm-fluid-test-made.json";
    vbm::app::writeTimings(json.string(), t);
    const std::string rows = readAll(json);
    EXPECT_NE(rows.find("{\"frame\": 2, \"resolver\": \"computeBoxStencil\", \"phase\": \"diffusion\", \"ms\": 10, "
                        "\"active_voxels\": 1100, \"smoke_voxels\": 0, \"rebuild\": \"every\"}"),
              std::string::npos)
        << rows;
    EXPECT_NE(rows.find("\"phase\": \"frame\", \"ms\": 11, \"active_voxels\": 1100, \"smoke_voxels\": 0, \"rebuild\": \"early\"}"),
              std::string::npos)
        << rows;
    EXPECT_NE(rows.find("{\"frame\": 1, \"resolver\": \"computeBoxStencil\", \"phase\": \"diffusion\", \"ms\": 10, "
                        "\"active_voxels\": 1000, \"smoke_voxels\": 0}"),
              std::string::npos)
        << rows;
    fs::remove(csv), fs::remove(json);
}

// --seed replaces the scene's seed of the emitter noise: the same seed, the same bits (the
// scene's own seed is 3 here); another seed, other bits; and it is recorded in the timings.
TEST(VbmFluidCli, SeedChangesTheEmitterNoiseAndNothingElse)
{
    const fs::path scene =
        writeFile("noisy.scene", "kind smoke\ndomain sphere 0 8 0 8\nemitter sphere 0 3 0 2\nemit_noise 0.5\nseed 3\n");
    const fs::path json = testFolder() / "vbm-fluid-test-seed.json";
    const auto hashOf = [&](const std::string& extra) {
        const CommandResult r = fluid("--headless --backend cpu --render none --fields-hash --frames 4 --scene " +
                                      scene.string() + extra);
        EXPECT_EQ(r.code, 0) << r.out;
        std::smatch m;
        EXPECT_TRUE(std::regex_search(r.out, m, std::regex("fields hash: ([0-9a-f]{16})"))) << r.out;
        return m.empty() ? std::string() : m[1].str();
    };
    const std::string own = hashOf("");
    EXPECT_EQ(hashOf(" --seed 3"), own);
    EXPECT_NE(hashOf(" --seed 4 --timings " + json.string()), own);
    EXPECT_NE(readAll(json).find("\"seed\": 4,"), std::string::npos);
    EXPECT_EQ(fluid("--headless --seed -1").code, 2);
    EXPECT_EQ(fluid("--headless --seed x").code, 2);
    fs::remove(json);
}

// With no flag the tap table is on where it fits, off where it does not (a stubbed offer), and
// the header says which and why; the fields are the same bits either way.
TEST(VbmFluidCli, TapTableIsOnByDefaultWhereItFits)
{
    const fs::path scene = writeFile("plume-auto.scene", "kind smoke\ndomain sphere 0 8 0 8\nemitter sphere 0 3 0 2\n");
    const std::string args = " --headless --backend cpu --render none --frames 3 --fields-hash --scene " + scene.string();
    const CommandResult roomy = fluid(args), tight = runCommand("VBM_DEVICE_MEMORY=17M " + std::string(VBM_FLUID_PATH) + args);
    ASSERT_EQ(roomy.code, 0) << roomy.out;
    ASSERT_EQ(tight.code, 0) << tight.out;
    EXPECT_TRUE(std::regex_search(roomy.out, std::regex("tap table:  on \\(fits: 78\\.3 B per voxel, [0-9]+ MB of [0-9.]+ [GM]B free\\)")))
        << roomy.out;
    EXPECT_NE(tight.out.find("tap table:  off (would not fit: 78.3 B per voxel, 17 MB of 18 MB free)"), std::string::npos)
        << tight.out;
    std::smatch a, b;
    ASSERT_TRUE(std::regex_search(roomy.out, a, std::regex("fields hash: ([0-9a-f]{16})")));
    ASSERT_TRUE(std::regex_search(tight.out, b, std::regex("fields hash: ([0-9a-f]{16})")));
    EXPECT_EQ(a[1], b[1]);
}

// A scene too big for the memory on offer stops before building anything: one line with the
// voxels, the bytes needed and free, and what to try; exit 2. The offer is stubbed, and a scene
// of 3.5 billion voxels is refused on this machine's real memory.
TEST(VbmFluidCli, SceneTooBigForTheMemoryIsRefusedAtOnce)
{
    const fs::path ball = writeFile("big-ball.scene", "kind smoke\ndomain sphere 0 940 0 940\nemitter sphere 0 100 0 40\n");
    const CommandResult huge = fluid("--headless --backend cpu --render none --frames 1 --scene " + ball.string());
    EXPECT_EQ(huge.code, 2) << huge.out;
    EXPECT_EQ(std::count(huge.out.begin(), huge.out.end(), '\n'), 1) << huge.out;
    EXPECT_TRUE(std::regex_search(huge.out, std::regex("the domain would hold 3\\.48G voxels: the solver needs about "
                                                       "189\\.0 GB \\(54\\.3 B per voxel\\), the host has [0-9.]+ [GM]B "
                                                       "free: try --scalars half")))
        << huge.out;

    const std::string small = " --headless --backend cpu --render none --frames 1 --scene smoke-plume";
    const CommandResult device = runCommand("VBM_DEVICE_MEMORY=40M " + std::string(VBM_FLUID_PATH) + small);
    EXPECT_EQ(device.code, 2) << device.out;
    EXPECT_NE(device.out.find("the domain would hold 1.1M voxels: the solver needs about 76 MB (54.3 B per voxel), "
                              "the host has 42 MB free"),
              std::string::npos)
        << device.out;
    const CommandResult seven = runCommand("VBM_DEVICE_MEMORY=200M " + std::string(VBM_FLUID_PATH) + small +
                                           " --resolver all");
    EXPECT_EQ(seven.code, 2) << seven.out;
    EXPECT_NE(seven.out.find("6 configurations"), std::string::npos) << seven.out;
    EXPECT_NE(seven.out.find("or one resolver instead of 6"), std::string::npos) << seven.out;
    const CommandResult host =
        runCommand("VBM_DEVICE_MEMORY=1T VBM_HOST_MEMORY=20M " + std::string(VBM_FLUID_PATH) + small);
    EXPECT_EQ(host.code, 2) << host.out;
    EXPECT_NE(host.out.find("building it needs about"), std::string::npos) << host.out;
    EXPECT_NE(host.out.find("of host memory (35 B per voxel), 21 MB are available"), std::string::npos) << host.out;
    const CommandResult bad = runCommand("VBM_DEVICE_MEMORY=plenty " + std::string(VBM_FLUID_PATH) + small);
    EXPECT_EQ(bad.code, 2) << bad.out;
    EXPECT_NE(bad.out.find("VBM_DEVICE_MEMORY='plenty' is not a byte count"), std::string::npos) << bad.out;
}

// A long set-up says what it builds and how far along it is (every report here, where a real
// run prints one every 5 s).
TEST(VbmFluidCli, SetUpPrintsProgress)
{
    // a ball of 115K voxels: every set-up stage, quickly (the sanitized build runs this too)
    const fs::path scene =
        writeFile("plume-setup.scene", "kind smoke\ndomain sphere 0 30 0 30\nemitter sphere 0 10 0 4\ndt 1\n");
    const CommandResult r = runCommand("VBM_PROGRESS_SECONDS=0 " + std::string(VBM_FLUID_PATH) +
                                       " --headless --backend cpu --render none --frames 1 --scene " + scene.string());
    ASSERT_EQ(r.code, 0) << r.out;
    for (const char* line : {"[setup] listing the domain's voxels: 0% (", "[setup] listing the domain's voxels: 100% (",
                             "[setup] placing leaves in the grid builder: 0% (",
                             "[setup] converting to a NanoVDB index grid: 0% (",
                             "[setup] building the solver (the grid, its VBMs, the multigrid levels, the fields) ("})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out.substr(0, 2000);
    EXPECT_TRUE(std::regex_search(r.out, std::regex("set-up:     [0-9.]+ s, peak host memory [0-9.]+ GB"))) << r.out;
    const CommandResult quiet =
        fluid("--headless --backend cpu --render none --frames 1 --scene " + scene.string());
    EXPECT_EQ(quiet.out.find("[setup]"), std::string::npos) << "a set-up under 5 s prints no progress";
}
