// SPDX-License-Identifier: Apache-2.0
// vbm-bench's command line: help, bad usage, unreadable grids, and no GPU (exit code 2); where
// there is a GPU, short runs of the grid comparison (decode table and JSON included) and of
// --solver.
#include "DeviceQueries.h"
#include "RunCommand.h"
#include "TestFolder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace {

CommandResult bench(const std::string& args) { return runCommand(std::string(VBM_BENCH_PATH) + " " + args); }

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A temporary file of this test process: in its testFolder(), which parallel test runs do not share.
std::string tempFile(const std::string& stem) { return (testFolder() / (stem + ".json")).string(); }

// Without a GPU every run ends the same way: one line, exit code 2.
void expectNoGpuLine(const CommandResult& r)
{
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("needs a CUDA GPU"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "one line: " << r.out;
}

} // namespace

TEST(VbmBenchCli, HelpDocumentsEveryOption)
{
    const CommandResult r = bench("--help");
    EXPECT_EQ(r.code, 0);
    for (const char* flag : {"--grid", "--block-width", "--channels", "--rounds", "--warmup", "--decode", "--json",
                             "--solver", "--steps", "--frames", "--backend cpu|cuda", "openvdb-accessor-cross", "small",
                             "thin", "thick", "exit codes",
                             // the old spellings, in the one line of deprecated ones
                             "--widths (--block-width), --cpu (--backend cpu), --no-decode (--decode off)"})
        EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

TEST(VbmBenchCli, BadUsageGivesOneLineAndExitCode2)
{
    for (const std::string& args :
         {std::string("--bogus"), std::string("--widths 100"), std::string("--channels 3"), std::string("--rounds 10"),
          std::string("--rounds"), std::string("--json"), std::string("--steps 2"), std::string("--rounds 100001"),
          std::string("--warmup -1"), std::string("--help --bogus"), std::string("--solver"),
          std::string("--cpu --rounds 4"), std::string("--cpu --solver smoke-plume"), std::string("--block-width 256"),
          std::string("--backend gpu"), std::string("--decode maybe"), std::string("--backend cpu --solver smoke-plume")}) {
        SCOPED_TRACE(args);
        const CommandResult r = bench(args);
        EXPECT_EQ(r.code, 2) << r.out;
        EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "one line: " << r.out;
        EXPECT_EQ(r.out.rfind("vbm-bench: ", 0), 0u) << r.out;
    }
}

TEST(VbmBenchCli, UnreadableGridFileGivesExitCode2NamingIt)
{
    const std::string path = (testFolder() / "vbm-bench-not-a-grid.nvdb").string();
    std::ofstream(path) << "not a grid\n";
    for (const std::string& file : {path, std::string("/nonexistent/grid.nvdb")}) {
        const CommandResult r = bench("--grid " + file);
        EXPECT_EQ(r.code, 2) << r.out;
        EXPECT_NE(r.out.find(file), std::string::npos) << r.out;
    }
}

// Where there is no GPU (as on CI) the bench says so in one line with exit code 2; where there
// is one, a short run on the small shell completes with every output identical.
TEST(VbmBenchCli, RunsOnAGpuOrSaysThereIsNone)
{
    const std::string why = vbm::cudaUnavailableReason();
    const CommandResult r = bench("--grid small --channels 1 --block-width 128 --warmup 0 --decode off");
    if (!why.empty()) {
        expectNoGpuLine(r);
    } else {
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_NE(r.out.find("All outputs identical to their baseline: yes"), std::string::npos) << r.out;
    }
}

// The whole grid report at one width and channel count: every table, the verdict and the JSON.
TEST(VbmBenchCli, GridRunWritesEveryTableAndTheJson)
{
    const std::string json = tempFile("vbm-bench-grid");
    std::filesystem::remove(json);
    const CommandResult r = bench("--grid small --channels 1 --block-width 128 --warmup 0 --json " + json);
    if (!vbm::cudaUnavailableReason().empty()) return expectNoGpuLine(r);
    EXPECT_EQ(r.code, 0) << r.out;
    for (const char* line : {"# vbm-bench", "## small shell", "### small shell, C = 1", "Peers (x: against",
                             "Effective bandwidth of ours", "decode alone", "## Kernel resources",
                             "Device copy bandwidth", "All outputs identical to their baseline: yes"})
        EXPECT_NE(r.out.find(line), std::string::npos) << line;
    EXPECT_EQ(r.out.find("MISMATCH"), std::string::npos) << r.out;
    const std::string js = readFile(json);
    for (const char* key :
         {"\"device\"", "\"copyGBps\"", "\"allIdentical\": true", "\"grids\"", "\"fallbackBlocks\"", "\"results\"",
          "\"ratioVsComputeBoxStencil\"", "\"decode select\"", "\"kernels\"", "\"residentWarpsPerSM\""})
        EXPECT_NE(js.find(key), std::string::npos) << key;
}

// --solver: a few steps of the plume in turns, fields identical, its JSON written.
TEST(VbmBenchCli, SolverRunStepsInTurnsAndWritesTheJson)
{
    const std::string json = tempFile("vbm-bench-solver");
    std::filesystem::remove(json);
    const CommandResult r = bench("--solver smoke-plume --steps 5 --json " + json);
    if (!vbm::cudaUnavailableReason().empty()) return expectNoGpuLine(r);
    EXPECT_EQ(r.code, 0) << r.out;
    for (const char* line :
         {"# vbm-bench --solver smoke-plume", "| pressure CG |", "| **step** |",
          "The default resolvers at block width 512", "2 timed steps each (after 3 warm-up)",
          "Advection substeps per step", "Fields bitwise identical between the three (both widths) after 5 steps: yes"})
        EXPECT_NE(r.out.find(line), std::string::npos) << line;
    const std::string js = readFile(json);
    for (const char* key : {"\"scene\": \"smoke-plume\"", "\"defaultStepMs\"", "\"computeBoxStencilStepMs\"",
                            "\"cgIterationsMedian\"", "\"identical\": true"})
        EXPECT_NE(js.find(key), std::string::npos) << key;
}

// A scene that does not exist is bad input (exit code 2), wherever the GPU check falls.
TEST(VbmBenchCli, UnknownSceneGivesExitCode2)
{
    const CommandResult r = bench("--solver no-such-scene --steps 5");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_EQ(r.out.rfind("vbm-bench: ", 0), 0u) << r.out;
}

// --backend cpu needs no GPU: a short run on the small shell, our resolvers beside OpenVDB's peers, every
// output checked against the oracle, and the JSON rows the issue names.
TEST(VbmBenchCli, CpuRunChecksEveryOutputAndWritesItsRows)
{
    const std::string json = tempFile("vbm-bench-cpu");
    const CommandResult r =
        bench("--backend cpu --grid small --channels 1 --block-width 128 --rounds 5 --warmup 0 --json " + json);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("All outputs identical to the oracle (peers: within their stated rule): yes"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("MISMATCH"), std::string::npos) << r.out;
    const std::string js = readFile(json);
    std::vector<std::string> variants = {"computeBoxStencil", "forEachBoxStencil", "computeBoxStencilCached",
                                         "forEachBoxStencilCached", "computeCrossStencil", "computeCrossStencilCached"};
#if defined(VBM_BENCH_HAS_OPENVDB)
    for (const char* peer :
         {"openvdb-accessor-cross", "openvdb-accessor-box", "openvdb-tools-laplacian", "openvdb-filter-mean"})
        variants.push_back(peer);
#endif
    for (const std::string& v : variants)
        EXPECT_NE(js.find("\"variant\": \"" + v + "\""), std::string::npos) << v;
    for (const char* key : {"\"grid\": \"small shell\"", "\"channels\": 1", "\"medianMs\"", "\"voxelsPerSecond\"",
                            "\"allIdentical\": true"})
        EXPECT_NE(js.find(key), std::string::npos) << key;
    std::filesystem::remove(json);
}
