// SPDX-License-Identifier: Apache-2.0
// vbm-fluid --export-every: OpenVDB files that OpenVDB's own reader takes back, every voxel of
// every field bit for bit the simulation's (held against the .nvdb export of the same frame),
// the velocity centred from its faces, the time and frame in the metadata; NanoVDB sequences;
// and the failures: no frame number, a missing folder, a disk that fills, none leaving a file.
#include "DeviceQueries.h"
#include "RunCommand.h"
#include "TestFolder.h"

#include <nanovdb/io/IO.h>
#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

namespace fs = std::filesystem;

namespace {

const std::string Fluid = VBM_FLUID_PATH;

fs::path freshFolder(const std::string& name) { return ::freshFolder("vbm-vdb", name); }

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// The .nvdb export's float grids by name.
std::map<std::string, nanovdb::GridHandle<nanovdb::HostBuffer>> readNanoVdb(const fs::path& p)
{
    std::map<std::string, nanovdb::GridHandle<nanovdb::HostBuffer>> grids;
    for (auto& h : nanovdb::io::readGrids(p.string()))
        grids[h.gridMetaData()->shortGridName()] = std::move(h);
    return grids;
}

openvdb::GridPtrVecPtr readVdb(const fs::path& p, openvdb::MetaMap::Ptr& meta)
{
    openvdb::initialize();
    openvdb::io::File file(p.string());
    file.open();
    meta = file.getMetadata();
    openvdb::GridPtrVecPtr grids = file.getGrids();
    file.close();
    return grids;
}

/// Every active voxel of `vdb` holds the bits of the same voxel in `nano`, and both have the
/// same active voxels.
void expectSameVoxels(const openvdb::FloatGrid& vdb, const nanovdb::NanoGrid<float>& nano, const std::string& name)
{
    EXPECT_EQ(vdb.activeVoxelCount(), nano.activeVoxelCount()) << name;
    auto acc = nano.getAccessor();
    uint64_t differ = 0;
    for (auto it = vdb.cbeginValueOn(); it; ++it) {
        const openvdb::Coord c = it.getCoord();
        const nanovdb::Coord n(c.x(), c.y(), c.z());
        if (!acc.isActive(n) || !sameBits(*it, acc.getValue(n))) ++differ;
    }
    EXPECT_EQ(differ, 0u) << name << ": voxels that differ from the .nvdb export";
}

} // namespace

TEST(VdbExport, EveryVoxelOfEveryFieldReadsBackBitForBit)
{
    const fs::path dir = freshFolder("fire");
    const CommandResult r =
        runCommand(Fluid + " --headless --backend cpu --render none --scene fire-small --frames 12 --export-every 4 " +
                   (dir / "fire_%04d.vdb").string() + " --export " + (dir / "last.nvdb").string());
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("export: 3 files"), std::string::npos) << r.out;
    for (const char* f : {"fire_0003.vdb", "fire_0007.vdb", "fire_0011.vdb"})
        EXPECT_TRUE(fs::exists(dir / f)) << f;
    for (const auto& e : fs::directory_iterator(dir))
        EXPECT_EQ(e.path().extension(), e.path().extension() == ".nvdb" ? ".nvdb" : ".vdb") << e.path();

    openvdb::MetaMap::Ptr meta;
    const openvdb::GridPtrVecPtr grids = readVdb(dir / "fire_0011.vdb", meta);
    EXPECT_EQ(meta->metaValue<int32_t>("frame"), 11);
    EXPECT_EQ(meta->metaValue<double>("time"), 12.0); // 12 steps of dt 1
    const auto nano = readNanoVdb(dir / "last.nvdb");
    std::map<std::string, openvdb::GridBase::Ptr> byName;
    for (const auto& g : *grids)
        byName[g->getName()] = g;
    for (const char* name : {"density", "temperature", "fuel", "pressure"}) {
        ASSERT_TRUE(byName.count(name)) << name;
        const auto grid = openvdb::gridPtrCast<openvdb::FloatGrid>(byName[name]);
        ASSERT_TRUE(grid) << name << " is not a float grid";
        EXPECT_EQ(grid->getGridClass(), openvdb::GRID_FOG_VOLUME) << name;
        EXPECT_EQ(grid->voxelSize(), openvdb::Vec3d(1.0)) << name;
        expectSameVoxels(*grid, *nano.at(name).grid<float>(), name);
    }
    // vel: each axis the mean of the voxel's two faces, the -neighbour's read where it is
    // (the background, 0, where it is not active)
    ASSERT_TRUE(byName.count("vel"));
    const auto vel = openvdb::gridPtrCast<openvdb::Vec3fGrid>(byName["vel"]);
    ASSERT_TRUE(vel);
    const nanovdb::NanoGrid<float>* faces[3] = {nano.at("u").grid<float>(), nano.at("v").grid<float>(),
                                                nano.at("w").grid<float>()};
    EXPECT_EQ(vel->activeVoxelCount(), faces[0]->activeVoxelCount());
    uint64_t differ = 0, moving = 0;
    for (auto it = vel->cbeginValueOn(); it; ++it) {
        const nanovdb::Coord c(it.getCoord().x(), it.getCoord().y(), it.getCoord().z());
        for (int a = 0; a < 3; ++a) {
            nanovdb::Coord below = c;
            below[a] -= 1;
            const auto acc = faces[a]->getAccessor();
            const float want = 0.5f * (acc.getValue(c) + (acc.isActive(below) ? acc.getValue(below) : 0.f));
            if (!sameBits((*it)[a], want)) ++differ;
            if ((*it)[a] != 0.f) ++moving;
        }
    }
    EXPECT_EQ(differ, 0u);
    EXPECT_GT(moving, 0u) << "the fire's gas moves";
}

TEST(VdbExport, HeatScenesNameTheirFieldHeatAndNanoVdbSequencesWork)
{
    const fs::path dir = freshFolder("heat");
    const CommandResult r =
        runCommand(Fluid + " --headless --backend cpu --render none --scene heat-block --frames 4 --export-every 2 " +
                   (dir / "h_%04d.vdb").string() + " && " + Fluid +
                   " --headless --backend cpu --render none --scene heat-block --frames 4 --export-every 2 " +
                   (dir / "h_%04d.nvdb").string());
    ASSERT_EQ(r.code, 0) << r.out;
    openvdb::MetaMap::Ptr meta;
    const auto grids = readVdb(dir / "h_0003.vdb", meta);
    ASSERT_EQ(grids->size(), 1u); // heat's one field, its temperature
    EXPECT_EQ((*grids)[0]->getName(), "heat");
    EXPECT_TRUE(openvdb::gridPtrCast<openvdb::FloatGrid>((*grids)[0]));
    const auto nano = readNanoVdb(dir / "h_0001.nvdb");
    EXPECT_TRUE(nano.count("temperature"));
    EXPECT_TRUE(fs::exists(dir / "h_0003.nvdb"));
}

/// A file's bytes.
static std::string bytesOf(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Several writers (each file on its own thread) write every file, each byte for byte what one
// writer writes; the queue's bound lets the run go on while they work.
TEST(VdbExport, SeveralWritersWriteTheSameFilesAsOne)
{
    const fs::path one = freshFolder("one-writer"), three = freshFolder("three-writers");
    const std::string run = Fluid + " --headless --backend cpu --render none --scene fire-small --frames 9 --export-every 1 ";
    const CommandResult a = runCommand(run + (one / "f_%04d.nvdb").string() + " --export-writers 1");
    ASSERT_EQ(a.code, 0) << a.out;
    const CommandResult b = runCommand(run + (three / "f_%04d.nvdb").string() + " --export-writers 3");
    ASSERT_EQ(b.code, 0) << b.out;
    EXPECT_NE(a.out.find("export: 9 files"), std::string::npos) << a.out;
    EXPECT_NE(b.out.find("export: 9 files"), std::string::npos) << b.out;
    EXPECT_NE(b.out.find("3 writers took"), std::string::npos) << b.out;
    for (int frame = 0; frame < 9; ++frame) {
        char name[32];
        std::snprintf(name, sizeof name, "f_%04d.nvdb", frame);
        const std::string first = bytesOf(one / name), second = bytesOf(three / name);
        EXPECT_FALSE(first.empty()) << name;
        EXPECT_TRUE(first == second) << name << " differs between one writer and three";
    }
    size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(three))
        ++files;
    EXPECT_EQ(files, 9u) << "no temporary file is left behind";
    EXPECT_EQ(runCommand(run + (three / "g_%04d.vdb").string() + " --export-writers 0").code, 2);
}

// On CUDA the fields leave the GPU through a snapshot and pinned asynchronous copies
// (app/FrameCopies.h); the files are byte for byte those of the synchronous copies, for a
// fixed domain and for an adaptive one, whose growing set leaves the slots and falls back.
TEST(VdbExport, GpuAsynchronousCopiesWriteTheSameFilesAsSynchronousOnes)
{
    if (const std::string why = vbm::cudaUnavailableReason(); !why.empty()) GTEST_SKIP() << "GPU test skipped: " << why;
    for (const char* scene : {"smoke-plume", "fire-small"}) {
        const fs::path async = freshFolder(std::string("async-") + scene), sync = freshFolder(std::string("sync-") + scene);
        const std::string run = Fluid + " --headless --backend cuda --render none --scene " + scene +
                                " --frames 8 --export-writers 2 --export-every 1 ";
        const CommandResult a = runCommand(run + (async / "f_%04d.nvdb").string());
        ASSERT_EQ(a.code, 0) << a.out;
        EXPECT_EQ(a.out.find("copied off the GPU synchronously"), std::string::npos) << a.out;
        const CommandResult s = runCommand("VBM_EXPORT_SYNC=1 " + run + (sync / "f_%04d.nvdb").string());
        ASSERT_EQ(s.code, 0) << s.out;
        EXPECT_NE(s.out.find("copied off the GPU synchronously: VBM_EXPORT_SYNC=1"), std::string::npos) << s.out;
        for (int frame = 0; frame < 8; ++frame) {
            char name[32];
            std::snprintf(name, sizeof name, "f_%04d.nvdb", frame);
            const std::string first = bytesOf(async / name), second = bytesOf(sync / name);
            EXPECT_FALSE(first.empty()) << scene << " " << name;
            EXPECT_TRUE(first == second) << scene << " " << name << " differs between the asynchronous and synchronous copies";
        }
    }
}

// --export-compression none: the same grids, every voxel the same bits, in a larger file than
// the default's (Blosc); a word other than blosc or none is a usage error.
TEST(VdbExport, UncompressedFilesHoldTheSameVoxels)
{
    const fs::path dir = freshFolder("uncompressed");
    const std::string run = Fluid + " --headless --backend cpu --render none --scene fire-small --frames 8 ";
    ASSERT_EQ(runCommand(run + "--export-every 8 " + (dir / "packed.vdb").string()).code, 0);
    const CommandResult plain =
        runCommand(run + "--export-every 8 " + (dir / "plain.vdb").string() + " --export-compression none");
    ASSERT_EQ(plain.code, 0) << plain.out;
    EXPECT_GT(fs::file_size(dir / "plain.vdb"), fs::file_size(dir / "packed.vdb"));
    openvdb::MetaMap::Ptr meta;
    const openvdb::GridPtrVecPtr packed = readVdb(dir / "packed.vdb", meta), unpacked = readVdb(dir / "plain.vdb", meta);
    ASSERT_EQ(packed->size(), unpacked->size());
    for (size_t g = 0; g < packed->size(); ++g) {
        const auto a = openvdb::gridPtrCast<openvdb::FloatGrid>((*packed)[g]);
        const auto b = openvdb::gridPtrCast<openvdb::FloatGrid>((*unpacked)[g]);
        if (!a) continue; // vel: the scalars show the point
        ASSERT_TRUE(b) << a->getName();
        EXPECT_EQ(a->activeVoxelCount(), b->activeVoxelCount()) << a->getName();
        uint64_t differ = 0;
        const auto acc = b->getConstAccessor();
        for (auto it = a->cbeginValueOn(); it; ++it)
            if (!acc.isValueOn(it.getCoord()) || !sameBits(*it, acc.getValue(it.getCoord()))) ++differ;
        EXPECT_EQ(differ, 0u) << a->getName();
    }
    const CommandResult bad = runCommand(run + "--export-every 8 " + (dir / "x.vdb").string() + " --export-compression zip");
    EXPECT_EQ(bad.code, 2) << bad.out;
    EXPECT_NE(bad.out.find("--export-compression"), std::string::npos) << bad.out;
}

// --export-precision half: the same voxels, each value (the velocity's components too) the
// float file's rounded to OpenVDB's half, in fewer bytes than the float file (both
// uncompressed; 79% on fire-small, whose many part-empty leaves carry their masks either way);
// the flag needs a .vdb pattern, and only float or half.
TEST(VdbExport, HalfPrecisionFilesHoldEachValueRoundedToAHalf)
{
    const fs::path dir = freshFolder("half");
    const std::string run = Fluid + " --headless --backend cpu --render none --scene fire-small --frames 8 ";
    const std::string none = " --export-compression none";
    ASSERT_EQ(runCommand(run + "--export-every 8 " + (dir / "float.vdb").string() + none).code, 0);
    const CommandResult half =
        runCommand(run + "--export-every 8 " + (dir / "half.vdb").string() + none + " --export-precision half");
    ASSERT_EQ(half.code, 0) << half.out;
    EXPECT_LT(double(fs::file_size(dir / "half.vdb")), 0.85 * double(fs::file_size(dir / "float.vdb")));
    openvdb::MetaMap::Ptr meta;
    const openvdb::GridPtrVecPtr full = readVdb(dir / "float.vdb", meta), halved = readVdb(dir / "half.vdb", meta);
    ASSERT_EQ(full->size(), halved->size());
    const auto rounded = [](float v) { return float(openvdb::math::half(v)); };
    uint64_t checked = 0;
    for (size_t g = 0; g < full->size(); ++g) {
        uint64_t differ = 0, changed = 0;
        if (const auto a = openvdb::gridPtrCast<openvdb::FloatGrid>((*full)[g])) {
            const auto b = openvdb::gridPtrCast<openvdb::FloatGrid>((*halved)[g]);
            ASSERT_TRUE(b) << a->getName();
            EXPECT_EQ(a->activeVoxelCount(), b->activeVoxelCount()) << a->getName();
            const auto acc = b->getConstAccessor();
            for (auto it = a->cbeginValueOn(); it; ++it, ++checked) {
                const float v = acc.getValue(it.getCoord());
                differ += !acc.isValueOn(it.getCoord()) || !sameBits(v, rounded(*it));
                changed += !sameBits(v, *it);
            }
        } else {
            const auto av = openvdb::gridPtrCast<openvdb::Vec3fGrid>((*full)[g]);
            const auto bv = openvdb::gridPtrCast<openvdb::Vec3fGrid>((*halved)[g]);
            ASSERT_TRUE(av && bv) << (*full)[g]->getName();
            EXPECT_EQ(av->activeVoxelCount(), bv->activeVoxelCount()) << av->getName();
            const auto acc = bv->getConstAccessor();
            for (auto it = av->cbeginValueOn(); it; ++it, ++checked) {
                const openvdb::Vec3f v = acc.getValue(it.getCoord());
                differ += !acc.isValueOn(it.getCoord());
                for (int c = 0; c < 3; ++c) {
                    differ += !sameBits(v[c], rounded((*it)[c]));
                    changed += !sameBits(v[c], (*it)[c]);
                }
            }
        }
        EXPECT_EQ(differ, 0u) << (*full)[g]->getName();
        // fire-small's fields have values no half holds exactly: the file did store halves
        EXPECT_GT(changed, 0u) << (*full)[g]->getName();
    }
    EXPECT_GT(checked, 1000u);
    for (const std::string& bad : {"--export-every 8 " + (dir / "x.vdb").string() + " --export-precision double",
                                   "--export-every 8 " + (dir / "x.nvdb").string() + " --export-precision half",
                                   std::string("--export-compression none")}) {
        const CommandResult r = runCommand(run + bad);
        EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
        EXPECT_NE(r.out.find("--export-"), std::string::npos) << r.out;
    }
    EXPECT_FALSE(fs::exists(dir / "x.vdb"));
    EXPECT_FALSE(fs::exists(dir / "x.nvdb"));
}

TEST(VdbExport, BadPatternsAndFoldersAreOneLineAndExitCode2)
{
    const fs::path dir = freshFolder("bad");
    const std::string run = Fluid + " --headless --backend cpu --render none --scene fire-small --frames 4 ";
    const CommandResult noNumber = runCommand(run + "--export-every 2 " + (dir / "fire.vdb").string());
    EXPECT_EQ(noNumber.code, 2) << noNumber.out;
    EXPECT_NE(noNumber.out.find("has no %04d, so each of the 2 files would replace the last"), std::string::npos)
        << noNumber.out;
    const CommandResult noFolder = runCommand(run + "--export-every 2 " + (dir / "missing" / "f_%04d.vdb").string());
    EXPECT_EQ(noFolder.code, 2) << noFolder.out;
    EXPECT_NE(noFolder.out.find("does not exist"), std::string::npos) << noFolder.out;
    const CommandResult badSuffix = runCommand(run + "--export-every 2 " + (dir / "f_%04d.exr").string());
    EXPECT_EQ(badSuffix.code, 2) << badSuffix.out;
    // one file needs no frame number
    EXPECT_EQ(runCommand(run + "--export-every 4 " + (dir / "one.vdb").string()).code, 0);
    EXPECT_TRUE(fs::exists(dir / "one.vdb"));
}

// A disk that fills (here a file size limit, with SIGXFSZ ignored so the write fails instead
// of killing the run): the run stops with one line, exit 1, and leaves no file under the final
// name and no temporary beside it.
TEST(VdbExport, AFullDiskStopsTheRunAndLeavesNoPartialFile)
{
    const fs::path dir = freshFolder("full");
    for (const char* suffix : {".vdb", ".nvdb"}) {
        const std::string file = (dir / (std::string("f_%04d") + suffix)).string();
        // 8 KB: less than the first file, written at frame 2
        const CommandResult r = runCommand("bash -c 'ulimit -f 8; trap \"\" XFSZ; exec " + Fluid +
                                           " --headless --backend cpu --render none --scene fire-small --frames 2 "
                                           "--export-every 2 " + file + "'");
        EXPECT_EQ(r.code, 1) << r.out;
        EXPECT_NE(r.out.find("(is the disk full?); nothing was left under its name"), std::string::npos) << r.out;
        for (const auto& e : fs::directory_iterator(dir))
            ADD_FAILURE() << "left behind: " << e.path();
    }
}
