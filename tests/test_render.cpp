// SPDX-License-Identifier: Apache-2.0
// The offscreen render from a headless run, on whatever Vulkan device is there (Mesa's lavapipe
// on CI), with the validation layer on: a screenshot that is not blank and shows the volume
// where the scene puts it, a timings file with the render phase, and no validation errors.
// And the renderer itself: a new grid taken at run time (an adaptive scene's rebuild) draws
// what a renderer made on that grid draws. Mesh obstacles: the surface band built from their
// voxels has the sign of each voxel, and a headless run of a scene with one draws it.
#include "PngImage.h"
#include "RunCommand.h"
#include "TestFolder.h"

#include "CudaInterop.h"
#include "DeviceQueries.h"
#include "GridGenerators.h"
#include "ObstacleSurface.h"
#include "OffscreenTarget.h"
#include "Scene.h"
#include "Solver.h"
#include "VolumeRenderer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;

namespace {

fs::path temp(const std::string& name) { return testFolder() / ("vbm-render-test-" + name); }

CommandResult renderRun(const std::string& scene, int frames, const fs::path& png, const fs::path& timings)
{
    return runCommand("VBM_VULKAN_VALIDATION=1 " + std::string(VBM_FLUID_PATH) + " --headless --backend cpu --frames " +
                      std::to_string(frames) + " --scene " + scene +
                      " --render offscreen --size 320x240 --screenshot " + png.string() + " --timings " +
                      timings.string());
}

void expectCleanRun(const CommandResult& r, const fs::path& timings)
{
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("Vulkan validation errors: 0"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("validation error:"), std::string::npos) << r.out;
    std::ifstream in(timings);
    std::string all((std::istreambuf_iterator<char>(in)), {});
    EXPECT_NE(all.find(",render,"), std::string::npos);
    EXPECT_NE(all.find(",render gpu,"), std::string::npos); // lavapipe has timestamps
    EXPECT_NE(all.find(",step,"), std::string::npos);
}

// What a GPU test's skip tells the user: which check failed, what it said, and what to do.

/// What to do when vbm::cudaUnavailableReason() is not empty.
std::string cudaAdvice()
{
#if VBM_HAVE_CUDA
    return "make an NVIDIA GPU visible to the CUDA runtime (nvidia-smi lists it, CUDA_VISIBLE_DEVICES does not hide "
           "it, the driver supports CUDA 13)";
#else
    return "configure a build with CUDA (nvcc 13 in /usr/local/cuda/bin or on PATH) and run it on a machine with an "
           "NVIDIA GPU";
#endif
}

/// The skip of a test whose probe, a short CUDA run of vbm-fluid, exited non-zero.
std::string probeFailed(const std::string& command, const CommandResult& probe)
{
    const std::string cuda = vbm::cudaUnavailableReason();
    std::string todo;
    if (probe.out.find("error while loading shared libraries") != std::string::npos)
        todo = "vbm-fluid cannot load a shared library (named in its output): install it, or add its folder to "
               "LD_LIBRARY_PATH";
    else if (probe.code == 126 || probe.code == 127)
        todo = "the shell could not run " + std::string(VBM_FLUID_PATH) +
               " (the path this test was built with): run the test from the build tree that built it, or put "
               "vbm-fluid at that path";
    else if (!cuda.empty())
        todo = cudaAdvice();
    else
        todo = "this process sees a CUDA device, so vbm-fluid failed for the reason in its output: run the command to "
               "reproduce it";
    return "GPU test skipped: its probe, a one-frame run of vbm-fluid on the CUDA backend, exited with code " +
           std::to_string(probe.code) + ".\n  command: " + command +
           "\n  output: " + (probe.out.empty() ? std::string("(none)") : probe.out) +
           "\n  CUDA in this test process: " + (cuda.empty() ? std::string("a device is visible") : cuda) +
           "\n  to run it: " + todo;
}

std::string hex(const vbm::render::DeviceUuid& uuid)
{
    std::string s;
    char b[3];
    for (uint8_t x : uuid) {
        std::snprintf(b, sizeof b, "%02x", x);
        s += b;
    }
    return s;
}

std::string envOr(const char* name, const char* otherwise)
{
    const char* v = std::getenv(name);
    return v ? v : otherwise;
}

/// The skip of a test that needs the shared CUDA-Vulkan path when sharedPathWhyNot() says `why`.
std::string sharedPathUnavailable(const vbm::render::VulkanContext& vk, const std::string& why)
{
    const auto cuda = vbm::render::cudaDeviceUuid();
    std::string todo;
    if (why.find("is not the CUDA device") != std::string::npos)
        todo = "the Vulkan loader offered no device with the CUDA GPU's UUID: make NVIDIA's Vulkan driver visible "
               "(VK_DRIVER_FILES or VK_ICD_FILENAMES naming its nvidia_icd.json, or that file in a default ICD folder "
               "such as /usr/share/vulkan/icd.d, and the library it names loadable)";
    else if (why.find("no CUDA device") != std::string::npos)
        todo = cudaAdvice();
    else
        todo = "the Vulkan driver of " + vk.deviceName() +
               " lacks what CUDA needs to import its memory (external memory and semaphore file descriptors, "
               "timeline semaphores): use NVIDIA's Vulkan driver of the CUDA GPU, or a newer one";
    return "GPU test skipped: the shared CUDA-Vulkan path is not possible here: sharedPathWhyNot() says \"" + why +
           "\".\n  Vulkan device picked: " + vk.deviceName() + " (UUID " + hex(vk.deviceUuid()) +
           "); CUDA device UUID: " + (cuda ? hex(*cuda) : std::string("none")) +
           "\n  VK_DRIVER_FILES=" + envOr("VK_DRIVER_FILES", "(unset)") +
           " VK_ICD_FILENAMES=" + envOr("VK_ICD_FILENAMES", "(unset)") + "\n  to run it: " + todo +
           "; `vbm-fluid --headless --backend cuda --interop on` runs the same check and prints its reason";
}

} // namespace

// The hot Gaussian spot of heat-shell sits on the +x side of the shell: right of centre in the
// default view, brighter than the shell's far side.
TEST(Render, HeatShellShowsTheHotSpotRightOfCentre)
{
    const fs::path png = temp("shell.png"), timings = temp("shell.csv");
    expectCleanRun(renderRun("heat-shell", 30, png, timings), timings);
    const Image im = readPng(png);
    ASSERT_EQ(im.width, 320u);
    ASSERT_EQ(im.height, 240u);
    // not blank: the shell is darker than the background, the spot much brighter than both
    double lo = 255, hi = 0;
    for (uint32_t y = 0; y < im.height; ++y)
        for (uint32_t x = 0; x < im.width; ++x)
            lo = std::min(lo, im.luminance(x, y)), hi = std::max(hi, im.luminance(x, y));
    EXPECT_GT(hi - lo, 100.0);
    EXPECT_GT(im.brightest(0.55, 0.4, 0.75, 0.75), im.brightest(0.25, 0.4, 0.45, 0.75) + 60.0);
    // the cold shell is nearly transparent (the colormap's rest value): not a black ball hiding
    // the ground behind it
    EXPECT_GT(im.mean(0.4, 0.55, 0.6, 0.7), 25.0);
    fs::remove(png), fs::remove(timings);
}

// heat-block: the hot sphere (x = 20) and the cold one (x = 44) along x; the hot side of the
// block renders brighter than the cold side.
TEST(Render, HeatBlockShowsHotAndColdSides)
{
    const fs::path png = temp("block.png"), timings = temp("block.csv");
    expectCleanRun(renderRun("heat-block", 30, png, timings), timings);
    const Image im = readPng(png);
    ASSERT_EQ(im.width, 320u);
    const double left = im.mean(0.2, 0.3, 0.5, 0.7), right = im.mean(0.5, 0.3, 0.8, 0.7);
    EXPECT_GT(std::abs(left - right), 5.0) << left << " " << right;
    fs::remove(png), fs::remove(timings);
}

// smoke-plume, 30 frames: the smoke has risen from the emitter, low in the domain and centred, and
// spread under the obstacle; nothing reaches the top of the domain yet.
TEST(Render, SmokePlumeShowsSmokeAtTheEmitter)
{
    const fs::path png = temp("plume.png"), timings = temp("plume.csv");
    expectCleanRun(renderRun("smoke-plume", 30, png, timings), timings);
    const Image im = readPng(png);
    ASSERT_EQ(im.width, 320u);
    const double emitter = im.brightest(0.45, 0.6, 0.55, 0.75), top = im.brightest(0.45, 0.1, 0.55, 0.25);
    EXPECT_GT(emitter, top + 60.0) << emitter << " " << top;
    fs::remove(png), fs::remove(timings);
}

TEST(Render, EveryFrameScreenshotsWithAFramePattern)
{
    const fs::path dir = temp("frames");
    fs::create_directories(dir);
    const fs::path timings = temp("frames.json");
    const CommandResult r = runCommand(std::string(VBM_FLUID_PATH) +
                                       " --headless --backend cpu --frames 3 --scene heat-block --size 64x48 "
                                       "--screenshot " +
                                       (dir / "f%04d.png").string() + " --timings " + timings.string());
    EXPECT_EQ(r.code, 0) << r.out;
    for (const char* f : {"f0000.png", "f0001.png", "f0002.png"})
        EXPECT_TRUE(fs::exists(dir / f)) << f;
    fs::remove_all(dir), fs::remove(timings);
}

// The VBM-block overlay paints many distinct block colours; the slice plane changes the middle
// of the picture against the same frame without it.
TEST(Render, BlockOverlayAndSlicePlane)
{
    const fs::path blocks = temp("blocks.png"), plain = temp("plain.png"), slice = temp("slice.png");
    const std::string base = "VBM_VULKAN_VALIDATION=1 " + std::string(VBM_FLUID_PATH) +
                             " --headless --backend cpu --frames 2 --scene heat-block --size 160x120 ";
    for (const auto& [args, png] : {std::pair{std::string("--overlay blocks"), blocks},
                                    std::pair{std::string(""), plain}, std::pair{std::string("--slice z"), slice}}) {
        const CommandResult r = runCommand(base + args + " --screenshot " + png.string());
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_NE(r.out.find("Vulkan validation errors: 0"), std::string::npos) << r.out;
    }
    const Image b = readPng(blocks), p = readPng(plain), s = readPng(slice);
    ASSERT_EQ(b.width, 160u);
    std::set<uint32_t> colours;
    for (size_t i = 0; i + 3 < b.rgba.size(); i += 4)
        colours.insert((uint32_t(b.rgba[i]) >> 4) << 8 | (uint32_t(b.rgba[i + 1]) >> 4) << 4 | (b.rgba[i + 2] >> 4));
    EXPECT_GT(colours.size(), 100u);
    double diff = 0;
    for (uint32_t y = s.height / 3; y < 2 * s.height / 3; ++y)
        for (uint32_t x = s.width / 3; x < 2 * s.width / 3; ++x)
            diff += std::abs(s.luminance(x, y) - p.luminance(x, y));
    EXPECT_GT(diff / (s.width * s.height / 9.0), 5.0);
    fs::remove(blocks), fs::remove(plain), fs::remove(slice);
}

// The staging path reports the field bytes it copies through the host each frame; asking for
// the shared CUDA-Vulkan path where it cannot be taken is a usage error that says why.
TEST(Render, StagingPathCountsHostCopiesAndSharedPathNeedsCuda)
{
    const std::string base = std::string(VBM_FLUID_PATH) + " --headless --backend cpu --frames 2 --scene heat-block "
                                                           "--size 64x48 ";
    const CommandResult staged = runCommand(base + "--interop off");
    EXPECT_EQ(staged.code, 0) << staged.out;
    EXPECT_NE(staged.out.find("interop:    staging"), std::string::npos) << staged.out;
    // heat-block: 262,144 active voxels plus the background value, 4 bytes each
    EXPECT_NE(staged.out.find("Host copies per frame for the render: 1048580 bytes (staging path"),
              std::string::npos)
        << staged.out;
    const CommandResult shared = runCommand(base + "--interop on");
    EXPECT_EQ(shared.code, 2) << shared.out;
    EXPECT_NE(shared.out.find("--interop on: the shared CUDA-Vulkan path is not possible here: the solver runs on "
                              "the CPU"),
              std::string::npos)
        << shared.out;
}

// GPU machines only (skips where the CUDA backend cannot run): the shared path copies nothing
// through the host per frame, and its pictures equal the staging path's, byte for byte.
TEST(GpuRender, SharedPathHasNoHostCopiesAndMatchesStaging)
{
    const std::string base = std::string(VBM_FLUID_PATH) + " --headless --backend cuda --scene smoke-plume --frames 12 "
                                                           "--size 320x240 ";
    const std::string probeCommand = base + "--frames 1 --render none";
    const CommandResult probe = runCommand(probeCommand);
    if (probe.code != 0) GTEST_SKIP() << probeFailed(probeCommand, probe);
    const fs::path dir = temp("gpu-frames");
    fs::create_directories(dir);
    const CommandResult shared = runCommand(base + "--interop on --screenshot " + (dir / "shared%04d.png").string());
    ASSERT_EQ(shared.code, 0) << shared.out;
    EXPECT_NE(shared.out.find("Host copies per frame for the render: 0 bytes (shared path; largest in any frame: 0)"),
              std::string::npos)
        << shared.out;
    const CommandResult staged = runCommand(base + "--interop off --screenshot " + (dir / "staged%04d.png").string());
    ASSERT_EQ(staged.code, 0) << staged.out;
    for (int f = 0; f < 12; ++f) {
        char a[32], b[32];
        std::snprintf(a, sizeof a, "shared%04d.png", f);
        std::snprintf(b, sizeof b, "staged%04d.png", f);
        const Image x = readPng(dir / a), y = readPng(dir / b);
        ASSERT_EQ(x.width, 320u) << a;
        EXPECT_TRUE(x.rgba == y.rgba) << "frame " << f << " differs between the shared and the staging path";
    }
    fs::remove_all(dir);
}

namespace {

using vbm::render::CapturedImage;
using vbm::render::OffscreenTarget;
using vbm::render::RenderMode;
using vbm::render::RenderSettings;
using vbm::render::VolumeRenderer;

/// A field over `grid` that varies from voxel to voxel (index 0, the background, is 0), so a
/// renderer reading it through the wrong grid or at the wrong length draws other pixels.
std::vector<float> variedField(const vbm::HostGridHandle& grid)
{
    std::vector<float> f(grid.grid<nanovdb::ValueOnIndex>()->valueCount(), 0.f);
    for (size_t i = 1; i < f.size(); ++i)
        f[i] = 0.2f + 0.8f * float((i * 2654435761u) % 1000) / 1000.f;
    return f;
}

CapturedImage drawOnce(VolumeRenderer& r, OffscreenTarget& target, const vbm::render::OrbitCamera& camera,
                       const RenderSettings& look)
{
    EXPECT_TRUE(r.draw(target, camera, look, true));
    return target.capturedImage();
}

size_t distinctColours(const CapturedImage& im)
{
    return std::set<uint32_t>(im.pixels.begin(), im.pixels.end()).size();
}

} // namespace

// A renderer made on grid A, then given grid B and a field over B, draws exactly the pixels of a
// renderer made on B (the field buffer grew; the box is B's), and back on A exactly its first
// picture (the buffer shrank); in the lit density look and in the VBM-block overlay, whose blocks
// follow the new grid. The grid's upload is counted as host bytes.
TEST(Render, SetGridDrawsWhatARendererMadeOnThatGridDraws)
{
    vbm::render::VulkanContext vk(true);
    OffscreenTarget target(vk, 96, 72);
    const vbm::HostGridHandle a = vbm::makeSingleLeaf(nanovdb::Coord(0, 0, 0), 0.6, 3);
    const vbm::HostGridHandle b = vbm::makeRandomSparse(4, 0.5, 0.5, 7);
    const std::vector<float> fieldA = variedField(a), fieldB = variedField(b);
    ASSERT_GT(fieldB.size(), 4 * fieldA.size()); // B needs a larger field buffer than A
    VolumeRenderer direct(vk, b, 96, 72), swapped(vk, a, 96, 72);
    const vbm::render::OrbitCamera camera = vbm::render::OrbitCamera::framing(direct.boxMin(), direct.boxMax());
    direct.setField(fieldB.data(), vbm::render::FieldMemory::Host);
    swapped.setField(fieldA.data(), vbm::render::FieldMemory::Host);
    for (RenderMode mode : {RenderMode::Density, RenderMode::Blocks}) {
        SCOPED_TRACE(mode == RenderMode::Density ? "density" : "VBM blocks");
        RenderSettings look;
        look.mode = mode;
        const CapturedImage onB = drawOnce(direct, target, camera, look);
        const CapturedImage onA = drawOnce(swapped, target, camera, look);
        EXPECT_GT(distinctColours(onB), 20u) << "the picture of B is nearly blank";
        EXPECT_FALSE(onA.pixels == onB.pixels) << "A and B draw alike: the test could not tell them apart";

        swapped.takeHostBytesCopied();
        swapped.setGrid(b);
        EXPECT_EQ(swapped.takeHostBytesCopied(), b.gridSize());
        EXPECT_EQ(swapped.valueCount(), fieldB.size());
        for (int i = 0; i < 3; ++i) {
            EXPECT_EQ(swapped.boxMin()[i], direct.boxMin()[i]);
            EXPECT_EQ(swapped.boxMax()[i], direct.boxMax()[i]);
        }
        swapped.setField(fieldB.data(), vbm::render::FieldMemory::Host);
        EXPECT_EQ(swapped.takeHostBytesCopied(), fieldB.size() * sizeof(float));
        const CapturedImage swappedToB = drawOnce(swapped, target, camera, look);
        ASSERT_EQ(swappedToB.pixels.size(), onB.pixels.size());
        EXPECT_TRUE(swappedToB.pixels == onB.pixels) << "after setGrid(B) the picture is not B's";

        swapped.setGrid(a);
        swapped.setField(fieldA.data(), vbm::render::FieldMemory::Host);
        EXPECT_TRUE(drawOnce(swapped, target, camera, look).pixels == onA.pixels) << "back on A the picture changed";
    }
    EXPECT_EQ(vk.validationErrors(), 0);
}

// GPU machines only (skips where CUDA or the shared CUDA-Vulkan path is unavailable): on the
// shared path setGrid() re-creates the exported field buffer and the timeline semaphore and CUDA
// imports them anew; the field then copied device to device draws what a renderer made on the
// new grid draws, and what the staging path draws.
TEST(GpuRender, SetGridOnTheSharedPathMatchesAFreshRendererAndStaging)
{
    if (const std::string why = vbm::cudaUnavailableReason(); !why.empty())
        GTEST_SKIP() << "GPU test skipped: the solver's CUDA backend cannot run here: cudaUnavailableReason() says \""
                     << why << "\".\n  to run it: " << cudaAdvice();
    vbm::render::VulkanOptions options;
    options.preferredDevice = vbm::render::cudaDeviceUuid();
    vbm::render::VulkanContext vk(options);
    if (const std::string why = vbm::render::sharedPathWhyNot(vk, true); !why.empty())
        GTEST_SKIP() << sharedPathUnavailable(vk, why);
    vbm::Solver solver(vbm::loadScene("heat-block"), vbm::Backend::Cuda);
    for (int i = 0; i < 3; ++i)
        solver.step();
    const vbm::HostGridHandle grid = solver.grid();
    const std::vector<float> host = solver.field("temperature");
    RenderSettings look;
    look.mode = RenderMode::Emission;
    look.rangeLo = *std::min_element(host.begin() + 1, host.end());
    look.rangeHi = *std::max_element(host.begin() + 1, host.end());
    OffscreenTarget target(vk, 160, 120);
    VolumeRenderer fresh(vk, grid, 160, 120, true),
        swapped(vk, vbm::makeSingleLeaf(nanovdb::Coord(0), 0.6, 3), 160, 120, true), staged(vk, grid, 160, 120, false);
    ASSERT_TRUE(swapped.interop());
    swapped.setGrid(grid);
    ASSERT_TRUE(swapped.interop()) << "setGrid left the shared path";
    const vbm::render::OrbitCamera camera = vbm::render::OrbitCamera::framing(fresh.boxMin(), fresh.boxMax());
    const float* device = solver.fieldData("temperature");
    CapturedImage images[3];
    VolumeRenderer* renderers[3] = {&fresh, &swapped, &staged};
    for (int i = 0; i < 3; ++i) {
        renderers[i]->setField(device, vbm::render::FieldMemory::CudaDevice, solver.cudaStream());
        images[i] = drawOnce(*renderers[i], target, camera, look);
    }
    EXPECT_GT(distinctColours(images[0]), 20u);
    EXPECT_TRUE(images[1].pixels == images[0].pixels) << "after setGrid the shared path draws another picture";
    EXPECT_TRUE(images[1].pixels == images[2].pixels) << "the shared path after setGrid differs from staging";
}

namespace {

/// Occupancy of the surface band at voxel ijk (-0.5 outside the band, as the shaders read it).
float occupancyAt(const vbm::render::ObstacleSurface& s, const nanovdb::Coord& ijk)
{
    return s.occupancy[s.band.grid<nanovdb::ValueOnIndex>()->tree().getValue(ijk)];
}

} // namespace

// The band of a 6^3 cube, a one-voxel-thick plate and a lone voxel: every solid voxel is inside
// (> 0), every other one outside (<= 0), even beside the plate and the lone voxel; across the
// cube's flat face the occupancy is antisymmetric, so its zero lies on the face; the band holds
// exactly the voxels with a solid one within two (a 5^3 box). No solid voxels: no surface.
TEST(Render, ObstacleSurfaceHasTheSignOfEachVoxelAndItsZeroOnTheFaces)
{
    EXPECT_EQ(vbm::render::buildObstacleSurface(vbm::HostGridHandle()), nullptr);
    std::vector<nanovdb::Coord> solid;
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            for (int k = 0; k < 6; ++k)
                solid.emplace_back(i, j, k);
    for (int j = 0; j < 6; ++j)
        for (int k = 0; k < 6; ++k)
            solid.emplace_back(12, j, k); // the plate x = 12
    solid.emplace_back(20, 3, 3);         // the lone voxel
    const auto surface = vbm::render::buildObstacleSurface(vbm::indexGridFromCoords(solid));
    ASSERT_NE(surface, nullptr);
    const auto isSolid = [&](const nanovdb::Coord& c) {
        return std::find(solid.begin(), solid.end(), c) != solid.end();
    };
    const auto* band = surface->band.grid<nanovdb::ValueOnIndex>();
    for (int i = -4; i < 25; ++i)
        for (int j = -4; j < 10; ++j)
            for (int k = -4; k < 10; ++k) {
                const nanovdb::Coord c(i, j, k);
                const float o = occupancyAt(*surface, c);
                if (isSolid(c))
                    EXPECT_GT(o, 0.f) << i << " " << j << " " << k;
                else
                    EXPECT_LE(o, 0.f) << i << " " << j << " " << k;
                bool near = false;
                for (int a = -2; a <= 2; ++a)
                    for (int b = -2; b <= 2; ++b)
                        for (int d = -2; d <= 2; ++d)
                            near = near || isSolid(c + nanovdb::Coord(a, b, d));
                EXPECT_EQ(band->tree().isActive(c), near) << i << " " << j << " " << k;
            }
    // the face x = 6 at the middle of the cube: voxels 5 (inside) and 6 (outside), 4 and 7
    EXPECT_FLOAT_EQ(occupancyAt(*surface, {5, 2, 3}), -occupancyAt(*surface, {6, 2, 3}));
    EXPECT_FLOAT_EQ(occupancyAt(*surface, {4, 2, 3}), -occupancyAt(*surface, {7, 2, 3}));
    EXPECT_FLOAT_EQ(occupancyAt(*surface, {2, 2, 3}), 0.5f); // deep inside
    EXPECT_EQ(surface->boxMin[0], -2.f);
    EXPECT_EQ(surface->boxMax[0], 23.f);
}

// A headless run of a closed box holding a cube mesh obstacle draws it: the middle of the
// picture, where the cube is, differs from the same scene without it, and the run is clean
// (validation on).
TEST(Render, HeadlessRunDrawsAMeshObstacle)
{
    const fs::path obj = temp("cube.obj");
    {
        std::ofstream out(obj);
        out << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
               "f 1 4 3\nf 1 3 2\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\n"
               "f 4 8 7\nf 4 7 3\nf 1 5 8\nf 1 8 4\nf 2 3 7\nf 2 7 6\n";
    }
    const std::string common = "kind smoke\ndomain box -20 0 -20 20 40 20\nemitter sphere 0 4 0 3\n"
                               "emit_density 1\nemit_temperature 1\nbuoyancy 0.4\ndt 1\n";
    const fs::path withMesh = temp("mesh.scene"), without = temp("plain.scene");
    std::ofstream(withMesh) << common << "remove mesh " << obj.string() << " fit 16 at 0 20 0\n";
    std::ofstream(without) << common;
    Image pictures[2];
    for (int k = 0; k < 2; ++k) {
        const fs::path png = temp(k ? "plain.png" : "mesh.png"), timings = temp(k ? "plain.csv" : "mesh.csv");
        expectCleanRun(renderRun((k ? without : withMesh).string(), 2, png, timings), timings);
        pictures[k] = readPng(png);
        ASSERT_EQ(pictures[k].width, 320u);
        fs::remove(png), fs::remove(timings);
    }
    EXPECT_GT(std::abs(pictures[0].mean(0.45, 0.4, 0.55, 0.5) - pictures[1].mean(0.45, 0.4, 0.55, 0.5)), 20.0)
        << "the mesh obstacle does not show";
    fs::remove(obj), fs::remove(withMesh), fs::remove(without);
}
