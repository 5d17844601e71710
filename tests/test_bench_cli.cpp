// vbm-bench's command line: help, bad usage, unreadable grids, and no GPU (exit code 2).
#include "DeviceQueries.h"
#include "RunCommand.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {

CommandResult bench(const std::string& args) { return runCommand(std::string(VBM_BENCH_PATH) + " " + args); }

} // namespace

TEST(VbmBenchCli, HelpDocumentsEveryOption)
{
    const CommandResult r = bench("--help");
    EXPECT_EQ(r.code, 0);
    for (const char* flag : {"--grid", "--widths", "--channels", "--rounds", "--warmup", "--no-decode", "--json",
                             "--solver", "--steps", "small", "thin", "thick", "exit codes"})
        EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

TEST(VbmBenchCli, BadUsageGivesOneLineAndExitCode2)
{
    for (const std::string& args :
         {std::string("--bogus"), std::string("--widths 100"), std::string("--channels 3"), std::string("--rounds 10"),
          std::string("--rounds"), std::string("--json"), std::string("--steps 2")}) {
        SCOPED_TRACE(args);
        const CommandResult r = bench(args);
        EXPECT_EQ(r.code, 2) << r.out;
        EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "one line: " << r.out;
        EXPECT_EQ(r.out.rfind("vbm-bench: ", 0), 0u) << r.out;
    }
}

TEST(VbmBenchCli, UnreadableGridFileGivesExitCode2NamingIt)
{
    const std::string path = (std::filesystem::temp_directory_path() / "vbm-bench-not-a-grid.nvdb").string();
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
    const CommandResult r = bench("--grid small --channels 1 --widths 128 --warmup 0 --no-decode");
    if (!why.empty()) {
        EXPECT_EQ(r.code, 2) << r.out;
        EXPECT_NE(r.out.find("needs a CUDA GPU"), std::string::npos) << r.out;
        EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "one line: " << r.out;
    } else {
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_NE(r.out.find("All outputs identical to their baseline: yes"), std::string::npos) << r.out;
    }
}
