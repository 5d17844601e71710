// SPDX-License-Identifier: Apache-2.0
// Checkpoints (solver/api/Checkpoint.h, vbm-fluid --checkpoint-every / --resume): a solver made
// from one steps bitwise as the solver that wrote it (heat, fire in open air, half storage with
// wide substeps; on the CPU, and on CUDA where a GPU is); a truncated, corrupt, foreign or
// newer file is refused with one line and never crashes; the run keeps the last two, writes a
// final one on SIGTERM, and leaves nothing under a checkpoint's name when the disk fills.
#include "Checkpoint.h"
#include "DeviceQueries.h"
#include "FallingSmokeScene.h"
#include "GridFile.h"
#include "RunCommand.h"
#include "Scene.h"
#include "Solver.h"
#include "TestFolder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>

namespace fs = std::filesystem;
using namespace vbm;

namespace {

const std::string Fluid = VBM_FLUID_PATH;

fs::path freshFolder(const std::string& name) { return ::freshFolder("vbm-ckpt", name); }

std::string readBytes(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void writeBytes(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

/// The scenes resumed: heat; fire in open air (rebuilds, fuel, the emitter's noise); a closed
/// plume with half storage and box substeps (max_cfl 1, not the default: it is saved too).
std::vector<Scene> resumedScenes()
{
    std::vector<Scene> scenes;
    scenes.push_back(loadScene("heat-block"));
    scenes.push_back(loadScene("fire-small"));
    Scene plume = loadScene("smoke-plume");
    plume.scalars = ScalarStorage::Half;
    plume.params.maxCfl = 1;
    scenes.push_back(std::move(plume));
    return scenes;
}

/// N steps, a checkpoint, M more from it: the fields equal those of N + M uninterrupted steps.
void expectBitwiseResume(const Scene& scene, Backend backend, const fs::path& dir, int N = 13)
{
    constexpr int M = 9;
    Solver run(scene, backend);
    for (int i = 0; i < N; ++i)
        run.step();
    const fs::path file = dir / "state.vbmck";
    CheckpointInfo info{scene.name, "--seed 3", uint64_t(N), N * scene.params.dt, run.choice()};
    writeCheckpoint(file.string(), run, info);
    EXPECT_FALSE(fs::exists(file.string() + ".partial"));
    Checkpoint c = readCheckpoint(file.string());
    EXPECT_EQ(c.info.scene, scene.name);
    EXPECT_EQ(c.info.settings, "--seed 3");
    EXPECT_EQ(c.info.frame, uint64_t(N));
    EXPECT_EQ(c.scene.startStep, uint64_t(N));
    Solver resumed(c.scene, backend);
    EXPECT_EQ(resumed.fieldsHash(), run.fieldsHash()) << scene.name << ": the state read back";
    for (int i = 0; i < M; ++i)
        run.step(), resumed.step();
    EXPECT_EQ(resumed.stepsDone(), uint64_t(N + M));
    EXPECT_EQ(resumed.activeVoxels(), run.activeVoxels()) << scene.name;
    EXPECT_EQ(resumed.fieldsHash(), run.fieldsHash()) << scene.name << ": " << M << " steps after the resume";
}

/// A small checkpoint's bytes, to damage.
std::string smallCheckpoint(const fs::path& dir)
{
    Solver s(loadScene("fire-small"), Backend::Cpu);
    for (int i = 0; i < 3; ++i)
        s.step();
    const fs::path file = dir / "small.vbmck";
    writeCheckpoint(file.string(), s, {"fire-small", "", 3, 3.0, s.choice()});
    return readBytes(file);
}

/// The one-line refusal of reading `bytes` as a checkpoint ("" if it was read).
std::string refusal(const fs::path& file, const std::string& bytes)
{
    writeBytes(file, bytes);
    try {
        readCheckpoint(file.string());
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(Checkpoint, ResumesBitwiseOnTheCpu)
{
    const fs::path dir = freshFolder("cpu");
    for (const Scene& scene : resumedScenes())
        expectBitwiseResume(scene, Backend::Cpu, dir);
}

// Heavy smoke falling out of its first set (test_open_air.cpp): a step that leaves smoke at the
// set's edge makes the next one rebuild early. A checkpoint taken between the two must resume
// with that early rebuild, though the checkpoint does not store it: the solver reads it off the
// fields again.
TEST(Checkpoint, ResumesBitwiseBetweenSmokeAtTheEdgeAndItsEarlyRebuild)
{
    const Scene falling = parseScene(FallingSmokeScene, "falling");
    Solver probe(falling, Backend::Cpu);
    int before = 0; // the steps before the first early rebuild
    for (int k = 1; k <= 24 && !before; ++k)
        if (probe.step().rebuilt && (k - 1) % 4 != 0) before = k - 1;
    ASSERT_GT(before, 0) << "no early rebuild in 24 steps: the scene no longer outruns its margin";
    expectBitwiseResume(falling, Backend::Cpu, freshFolder("early"), before);
}

TEST(Checkpoint, GpuResumesBitwiseOnCuda)
{
    if (const std::string why = cudaUnavailableReason(); !why.empty())
        GTEST_SKIP() << "GPU test skipped: " << why;
    const fs::path dir = freshFolder("cuda");
    for (const Scene& scene : resumedScenes())
        expectBitwiseResume(scene, Backend::Cuda, dir);
}

TEST(Checkpoint, DamagedFilesAreRefusedWithOneLine)
{
    const fs::path dir = freshFolder("damaged");
    const std::string good = smallCheckpoint(dir);
    const fs::path file = dir / "damaged.vbmck";
    EXPECT_EQ(refusal(file, good), "");
    for (size_t length : {size_t(0), size_t(5), size_t(11), size_t(40), good.size() / 2, good.size() - 1}) {
        const std::string why = refusal(file, good.substr(0, length));
        EXPECT_TRUE(why.find("truncated") != std::string::npos || why.find("not a vbm-fluid checkpoint") != std::string::npos)
            << length << " bytes: " << why;
    }
    EXPECT_NE(refusal(file, good + "x").find("truncated or corrupt"), std::string::npos);
    std::string foreign = good;
    foreign[0] = 'X';
    EXPECT_NE(refusal(file, foreign).find("not a vbm-fluid checkpoint"), std::string::npos);
    std::string newer = good;
    newer[8] = char(CheckpointFormat + 1);
    EXPECT_NE(refusal(file, newer).find("a checkpoint of format " + std::to_string(CheckpointFormat + 1) +
                                        "; this vbm-fluid reads format " + std::to_string(CheckpointFormat)),
              std::string::npos);
    std::string flipped = good;
    flipped[good.size() - 100] ^= 0x10; // a bit of the last field
    EXPECT_NE(refusal(file, flipped).find("corrupt (its bytes do not match the hash"), std::string::npos);
    EXPECT_NE(refusal(file, "scene text\n").find("not a vbm-fluid checkpoint"), std::string::npos);
    try {
        readCheckpoint((dir / "missing.vbmck").string());
        ADD_FAILURE() << "a missing file was read";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("cannot be read"), std::string::npos) << e.what();
    }
}

// Random damage anywhere in the file: a flipped byte, or a cut, is always one InputError, never
// a crash, a hang or an allocation of a size the file never held.
TEST(Checkpoint, RandomDamageIsAlwaysRefused)
{
    const fs::path dir = freshFolder("fuzz");
    const std::string good = smallCheckpoint(dir);
    const fs::path file = dir / "fuzz.vbmck";
    std::mt19937_64 random(2026);
    for (int trial = 0; trial < 300; ++trial) {
        std::string bad = good;
        const size_t at = random() % good.size();
        if (trial % 3 == 2)
            bad.resize(at);
        else
            bad[at] = char(bad[at] ^ (1 + random() % 255));
        EXPECT_NE(refusal(file, bad), "") << "damage at byte " << at << " was not noticed";
    }
}

// The run: checkpoints every 5 frames, the last two kept; SIGTERM stops it after the frame in
// progress with a final checkpoint (exit 143); resumed with other resolvers and without the
// tap table, it ends bitwise where an uninterrupted run does.
TEST(Checkpoint, SigtermWritesAFinalCheckpointThatResumesBitwise)
{
    const fs::path dir = freshFolder("sigterm");
    const std::string ck = (dir / "ck").string();
    const std::string run = Fluid + " --headless --backend cpu --render none --scene fire-small --seed 5";
    const CommandResult r = runCommand(
        "bash -c '" + run + " --frames 100000 --checkpoint-every 5 " + ck + " > " + (dir / "out.txt").string() +
        " 2>&1 & pid=$!; until ls " + ck + "/checkpoint-00000010.vbmck >/dev/null 2>&1; do sleep 0.05; done; kill -TERM "
        "$pid; wait $pid; echo rc=$?'");
    EXPECT_NE(r.out.find("rc=143"), std::string::npos) << r.out << readBytes(dir / "out.txt");
    const std::string out = readBytes(dir / "out.txt");
    EXPECT_NE(out.find("stopped by SIGTERM"), std::string::npos) << out;
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(ck))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    ASSERT_EQ(names.size(), 2u) << "the last two are kept, nothing else: " << out;
    std::smatch m;
    const std::regex number("checkpoint-([0-9]{8})\\.vbmck");
    ASSERT_TRUE(std::regex_match(names[1], m, number)) << names[1];
    const int stoppedAt = std::stoi(m[1]);
    EXPECT_GE(stoppedAt, 10);

    const CommandResult resumed = runCommand(Fluid + " --headless --backend cpu --render none --resume " + ck + "/" +
                                             names[1] + " --frames 7 --fields-hash --tap-table off --resolver "
                                             "computeBoxStencilCached");
    ASSERT_EQ(resumed.code, 0) << resumed.out;
    EXPECT_NE(resumed.out.find("resumed:    " + ck + "/" + names[1] + ", after frame " + std::to_string(stoppedAt)),
              std::string::npos)
        << resumed.out;
    const CommandResult whole = runCommand(run + " --frames " + std::to_string(stoppedAt + 7) + " --fields-hash");
    ASSERT_EQ(whole.code, 0) << whole.out;
    const std::regex hash("fields hash: ([0-9a-f]{16})");
    std::smatch a, b;
    ASSERT_TRUE(std::regex_search(resumed.out, a, hash)) << resumed.out;
    ASSERT_TRUE(std::regex_search(whole.out, b, hash)) << whole.out;
    EXPECT_EQ(a[1], b[1]) << "resumed after frame " << stoppedAt;
}

TEST(Checkpoint, BadUsageIsOneLineWithExit2)
{
    const fs::path dir = freshFolder("usage");
    const std::string run = Fluid + " --headless --backend cpu --render none --frames 2";
    writeBytes(dir / "plain.txt", "not a checkpoint\n");
    const std::pair<std::string, std::string> cases[] = {
        {" --resume " + (dir / "plain.txt").string(), "not a vbm-fluid checkpoint"},
        {" --resume " + (dir / "none.vbmck").string(), "cannot be read"},
        {" --resume " + dir.string(), "is a folder"},
        {" --resume x.vbmck --scene fire", "leave out --scene"},
        {" --resume x.vbmck --max-cfl 3", "leave out --max-cfl"},
        {" --checkpoint-every 5 " + (dir / "plain.txt" / "sub").string(), "is not a folder and cannot be made one"},
        {" --checkpoint-every 0 " + dir.string(), "--checkpoint-every"},
    };
    for (const auto& [flags, message] : cases) {
        const CommandResult r = runCommand(run + flags);
        EXPECT_EQ(r.code, 2) << flags << ": " << r.out;
        EXPECT_NE(r.out.find(message), std::string::npos) << flags << ": " << r.out;
        EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << flags << ": " << r.out;
    }
    const CommandResult window = runCommand(Fluid + " --backend cpu --checkpoint-every 5 " + dir.string());
    EXPECT_EQ(window.code, 2) << window.out;
    EXPECT_NE(window.out.find("add --headless"), std::string::npos) << window.out;
}

// A disk that fills (a file size limit, SIGXFSZ ignored so the write fails instead of killing
// the run): one line, exit 1, nothing under a checkpoint's name and no temporary beside it.
TEST(Checkpoint, AFullDiskStopsTheRunAndLeavesNoPartialFile)
{
    const fs::path dir = freshFolder("full");
    const CommandResult r = runCommand("bash -c 'ulimit -f 256; trap \"\" XFSZ; exec " + Fluid +
                                       " --headless --backend cpu --render none --scene fire-small --frames 20 "
                                       "--checkpoint-every 10 " + dir.string() + "'");
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.out.find("(is the disk full?); nothing was left under its name"), std::string::npos) << r.out;
    for (const auto& e : fs::directory_iterator(dir))
        ADD_FAILURE() << "left behind: " << e.path();
}
