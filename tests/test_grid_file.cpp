// Reading .nvdb files, and vbm-check on files it has never seen and on bad input.
#include "GridFile.h"
#include "GridGenerators.h"
#include "RunCommand.h"
#include "vbm/BuildVoxelBlockManager.h"

#include <nanovdb/io/IO.h>
#include <nanovdb/tools/CreateNanoGrid.h>
#include <nanovdb/tools/CreatePrimitives.h>
#include <nanovdb/tools/GridChecksum.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace vbm;
namespace fs = std::filesystem;

namespace {

fs::path tempDir()
{
    static fs::path dir = [] {
        fs::path d = fs::temp_directory_path() / ("vbm-test-" + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

// A level-set sphere written by NanoVDB's own tools: a float grid from another generator.
fs::path writeLevelSetSphere()
{
    const fs::path p = tempDir() / "sphere_ls.nvdb";
    if (!fs::exists(p)) {
        auto h = nanovdb::tools::createLevelSetSphere<float>(40.0, nanovdb::Vec3d(3, -7, 11), 1.0, 3.0);
        nanovdb::io::writeGrid(p.string(), h);
    }
    return p;
}

// An OnIndex grid with stats and tile indices, as NanoVDB writes it by default.
fs::path writeIndexGridWithStats()
{
    const fs::path p = tempDir() / "index_stats.nvdb";
    if (!fs::exists(p)) {
        auto f = nanovdb::tools::createFogVolumeTorus<float>(30.f, 10.f);
        auto h = nanovdb::tools::createNanoGrid<nanovdb::NanoGrid<float>, nanovdb::ValueOnIndex>(*f.grid<float>(), 0u,
                                                                                                 true, true);
        nanovdb::io::writeGrid(p.string(), h);
    }
    return p;
}

CommandResult runCheck(const std::string& args) { return runCommand(std::string(VBM_CHECK_PATH) + " " + args); }

fs::path writeBytes(const std::string& name, const std::string& bytes)
{
    const fs::path p = tempDir() / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
}

std::string readBytes(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace

TEST(GridFile, FloatLevelSetBecomesIndexGridOverItsActiveVoxels)
{
    const auto grids = loadGridFile(writeLevelSetSphere().string());
    ASSERT_EQ(grids.size(), 1u);
    const IndexGrid* g = grids[0].handle.grid<nanovdb::ValueOnIndex>();
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(checkVbmGrid(g), "");
    auto src = nanovdb::io::readGrid(writeLevelSetSphere().string());
    EXPECT_EQ(g->activeVoxelCount(), src.grid<float>()->activeVoxelCount());
    // same active set
    auto acc = src.grid<float>()->getAccessor();
    for (uint32_t i = 0; i < g->tree().nodeCount(0); ++i)
        for (auto it = leaves(g)[i].valueMask().beginOn(); it; ++it)
            ASSERT_TRUE(acc.isActive(leaves(g)[i].offsetToGlobalCoord(*it)));
}

TEST(GridFile, IndexGridWithStatsAndTilesIsReindexed)
{
    const auto grids = loadGridFile(writeIndexGridWithStats().string());
    ASSERT_EQ(grids.size(), 1u);
    EXPECT_NE(grids[0].origin.find("re-indexed"), std::string::npos) << grids[0].origin;
    EXPECT_EQ(checkVbmGrid(grids[0].handle.grid<nanovdb::ValueOnIndex>()), "");
}

TEST(GridFile, LeafOnlyIndexGridIsUsedAsStored)
{
    const fs::path p = tempDir() / "index_plain.nvdb";
    auto h = makeRandomSparse(6, 0.5, 0.3, 5);
    nanovdb::io::writeGrid(p.string(), h);
    const auto grids = loadGridFile(p.string());
    ASSERT_EQ(grids.size(), 1u);
    EXPECT_EQ(grids[0].origin, "OnIndex, as stored");
    EXPECT_EQ(grids[0].handle.gridSize(), h.gridSize());
}

TEST(GridFile, BadInputThrowsInputErrorNamingTheFile)
{
    const std::string good = readBytes(writeLevelSetSphere());
    const std::vector<fs::path> bad = {
        tempDir() / "does-not-exist.nvdb",
        tempDir(),
        writeBytes("empty.nvdb", ""),
        writeBytes("text.nvdb", "this is not a NanoVDB file\n"),
        writeBytes("truncated.nvdb", good.substr(0, good.size() / 2)),
        writeBytes("header-only.nvdb", good.substr(0, 200)),
    };
    for (const auto& p : bad) {
        SCOPED_TRACE(p.string());
        try {
            loadGridFile(p.string());
            ADD_FAILURE() << "no error";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
        }
    }
}

TEST(GridFile, CorruptGridIsRefusedNotTraversed)
{
    // A grid with a full checksum, then bytes flipped inside its tree.
    auto h = makeRandomSparse(6, 0.5, 0.3, 6);
    nanovdb::tools::updateChecksum(const_cast<nanovdb::GridData*>(h.gridData()), nanovdb::CheckMode::Full);
    const fs::path p = tempDir() / "checksummed.nvdb";
    nanovdb::io::writeGrid(p.string(), h);
    std::string bytes = readBytes(p);
    for (size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i)
        bytes[i] = char(bytes[i] ^ 0x5a);
    const fs::path q = writeBytes("corrupt.nvdb", bytes);
    EXPECT_THROW(loadGridFile(q.string()), InputError);
}

TEST(VbmCheckTool, PassesOnFilesFromOtherGenerators)
{
    const CommandResult r = runCheck("--cpu --width 64 --width 512 " + writeLevelSetSphere().string() + " " +
                                     writeIndexGridWithStats().string());
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("28 passed, 0 failed"), std::string::npos) << r.out;
}

TEST(VbmCheckTool, BadInputGivesOneLineAndExitCode2)
{
    const std::string text = writeBytes("garbage.nvdb", std::string(1000, 'x')).string();
    for (const std::string& args :
         {std::string("/nonexistent/file.nvdb"), text, std::string("--width 100"), std::string("--bogus")}) {
        SCOPED_TRACE(args);
        const CommandResult r = runCheck("--cpu " + args);
        EXPECT_EQ(r.code, 2) << r.out;
        // one line (a note line about the GPU may come first on machines without one)
        EXPECT_EQ(lastLine(r.out).rfind("vbm-check: ", 0), 0u) << r.out;
    }
}

TEST(VbmCheckTool, HelpDescribesUsage)
{
    const CommandResult r = runCheck("--help");
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("usage: vbm-check"), std::string::npos);
}
