// vbm-fluid's headless run from the command line: help, bad input, and an A/B run of every
// resolver that must stay bitwise identical and write its timings.
#include "RunCommand.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

CommandResult fluid(const std::string& args) { return runCommand(std::string(VBM_FLUID_PATH) + " " + args); }

fs::path writeFile(const std::string& name, const std::string& text)
{
    const fs::path p = fs::temp_directory_path() / ("vbm-fluid-test-" + std::to_string(::getpid()) + "-" + name);
    std::ofstream(p) << text;
    return p;
}

} // namespace

TEST(VbmFluidCli, HelpDocumentsEveryFlag)
{
    const CommandResult r = fluid("--help");
    EXPECT_EQ(r.code, 0);
    for (const char* flag :
         {"--headless", "--frames", "--scene", "--backend", "--resolver", "--advection-resolver", "--block-width",
          "--render", "--size", "--screenshot", "--timings", "--seed", "--interop", "--export", "--script",
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
        {"--headless --backend cpu --resolver NanoVDB13", "CUDA-only"},
        {"--headless --scene /nonexistent.scene", "/nonexistent.scene"},
        {"--headless --scene " + bad.string(), bad.string() + ":2:"},
    };
    for (const auto& [args, words] : cases) {
        SCOPED_TRACE(args);
        const CommandResult r = fluid(args);
        EXPECT_EQ(r.code, 2) << r.out;
        EXPECT_NE(lastLine(r.out).find(words), std::string::npos) << r.out;
        EXPECT_EQ(lastLine(r.out).rfind("vbm-fluid: ", 0), 0u) << r.out;
    }
}

TEST(VbmFluidCli, EveryResolverInTurnStaysIdenticalAndWritesTimings)
{
    const fs::path scene = writeFile("plume.scene", "kind smoke\ndomain sphere 0 8 0 8\nremove sphere 0 10 0 2\n"
                                                    "emitter sphere 0 3 0 2\ndt 1\n");
    const fs::path csv = fs::temp_directory_path() / ("vbm-fluid-test-" + std::to_string(::getpid()) + ".csv");
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

// --export writes every field after the last frame; two resolvers give byte-identical files, and
// vbm-check reads the file back and checks the VBM layer on each of its grids.
TEST(VbmFluidCli, ExportWritesFieldsThatEveryResolverReproduces)
{
    const fs::path scene = writeFile("export.scene", "kind smoke\ndomain sphere 0 8 0 8\nemitter sphere 0 3 0 2\ndt 1\n");
    const fs::path a = fs::temp_directory_path() / ("vbm-fluid-test-" + std::to_string(::getpid()) + "-a.nvdb");
    const fs::path b = fs::temp_directory_path() / ("vbm-fluid-test-" + std::to_string(::getpid()) + "-b.nvdb");
    const std::string base = "--headless --backend cpu --render none --frames 3 --scene " + scene.string();
    const CommandResult ra = fluid(base + " --resolver computeBoxStencil --export " + a.string());
    ASSERT_EQ(ra.code, 0) << ra.out;
    EXPECT_NE(ra.out.find("export: " + a.string() + " (6 float grids after 3 frames)"), std::string::npos) << ra.out;
    const CommandResult rb = fluid(base + " --resolver computeCrossStencilCached --export " + b.string());
    ASSERT_EQ(rb.code, 0) << rb.out;
    std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
    const std::string bytesA((std::istreambuf_iterator<char>(fa)), {}), bytesB((std::istreambuf_iterator<char>(fb)), {});
    EXPECT_GT(bytesA.size(), 1000u);
    EXPECT_TRUE(bytesA == bytesB) << "the exports of two resolvers differ";
    const CommandResult check = runCommand(std::string(VBM_CHECK_PATH) + " --cpu --width 128 " + a.string());
    EXPECT_EQ(check.code, 0) << check.out;
    EXPECT_NE(check.out.find(" 0 failed"), std::string::npos) << check.out;
    fs::remove(a), fs::remove(b);
}
