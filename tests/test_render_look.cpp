// SPDX-License-Identifier: Apache-2.0
// How the lit renderer looks, by image region, on whatever Vulkan device is there
// (lavapipe on CI) with the validation layer on: a ball of smoke is brighter on the side the sun
// lights than on the side it shadows, and the ground under it is darker than beside it; an
// obstacle is drawn as a lit surface, a mesh obstacle (solid voxels) too, where its voxels are,
// and it shadows the smoke behind it; fire's flames are warm (red > green > blue); a colormap that
// follows the field shows what a fixed one at the start-up range loses.
#include "PngImage.h"
#include "RunCommand.h"
#include "TestFolder.h"

#include "GridGenerators.h"
#include "ObstacleSurface.h"
#include "OffscreenTarget.h"
#include "PngFile.h"
#include "VolumeRenderer.h"

#include <glm/glm.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

namespace fs = std::filesystem;
using namespace vbm::render;

namespace {

constexpr uint32_t W = 160, H = 120;

/// Where a point (index space) lands in the image of `camera`: the renderer's own projection.
glm::vec2 project(const OrbitCamera& cam, glm::vec3 p)
{
    const CameraBasis b = cam.basis();
    const glm::vec3 d = p - b.eye;
    const float t = std::tan(0.5f * cam.fovY), aspect = float(W) / float(H);
    const float x = glm::dot(d, b.right) / glm::dot(d, b.forward) / (t * aspect);
    const float y = glm::dot(d, b.up) / glm::dot(d, b.forward) / t;
    return {0.5f * (x + 1.f) * W, 0.5f * (1.f - y) * H};
}

/// The azimuth of the camera's right (the direction basis().right points in).
float rightOf(const OrbitCamera& cam) { return cam.azimuth - float(M_PI / 2); }

double luminance(const CapturedImage& im, int x, int y)
{
    const uint32_t p = im.pixels[size_t(std::clamp(y, 0, int(H) - 1)) * W + size_t(std::clamp(x, 0, int(W) - 1))];
    return 0.2126 * (p & 255) + 0.7152 * ((p >> 8) & 255) + 0.0722 * ((p >> 16) & 255);
}

/// Mean luminance of a square of side 2*half+1 pixels around c.
double around(const CapturedImage& im, glm::vec2 c, int half)
{
    double s = 0;
    for (int y = -half; y <= half; ++y)
        for (int x = -half; x <= half; ++x)
            s += luminance(im, int(c.x) + x, int(c.y) + y);
    return s / ((2 * half + 1) * (2 * half + 1));
}

/// A ball of smoke of radius 10 at the origin, density `value` everywhere in it.
struct SmokeBall {
    vbm::HostGridHandle grid = vbm::makeSphereShell(5.5, 9.0); // radii 1 to 10: a solid ball
    std::vector<float> field = std::vector<float>(grid.grid<nanovdb::ValueOnIndex>()->valueCount(), 1.f);
};

/// Solid voxels whose cell centres lie within r of `centre`: a voxelized ball, as a mesh
/// obstacle reaches the renderer (Scene's region.solid).
vbm::HostGridHandle voxelBall(glm::vec3 centre, float r)
{
    std::vector<nanovdb::Coord> coords;
    const int b = int(std::ceil(r)) + 1;
    const glm::ivec3 c(glm::floor(centre));
    for (int i = c.x - b; i <= c.x + b; ++i)
        for (int j = c.y - b; j <= c.y + b; ++j)
            for (int k = c.z - b; k <= c.z + b; ++k)
                if (glm::length(glm::vec3(i, j, k) + 0.5f - centre) < r) coords.emplace_back(i, j, k);
    return vbm::indexGridFromCoords(coords);
}

/// Keeps a picture to look at: vbm-look-<name>.png in testFolder() (VBM_KEEP_TEST_FILES=1 keeps it).
void keep(const CapturedImage& im, const std::string& name)
{
    writePng((testFolder() / ("vbm-look-" + name + ".png")).string(), im.pixels, im.width, im.height);
}

RenderSettings litLook()
{
    RenderSettings look;
    look.mode = RenderMode::Density;
    look.densityScale = 0.6f;
    look.pixelsPerRay = 1;
    look.lightResolution = 32;
    return look;
}

/// A renderer on the smoke ball's grid (validation on) drawing into a W x H offscreen target.
class RenderLook : public testing::Test {
protected:
    VulkanContext vk{true};
    OffscreenTarget target{vk, W, H};
    SmokeBall ball;
    VolumeRenderer renderer{vk, ball.grid, W, H};

    /// The renderer's field set to `field` (over the ball's grid), and the camera framing it.
    OrbitCamera show(const std::vector<float>& field)
    {
        renderer.setField(field.data(), FieldMemory::Host);
        return OrbitCamera::framing(renderer.boxMin(), renderer.boxMax());
    }
    CapturedImage draw(const OrbitCamera& cam, const RenderSettings& look)
    {
        EXPECT_TRUE(renderer.draw(target, cam, look, true));
        return target.capturedImage();
    }
    void TearDown() override { EXPECT_EQ(vk.validationErrors(), 0); }
};

} // namespace

// The sun from the camera's right: the ball's right half is brighter than its left; with the sun
// from the left, the other way round (so it is the light, not the view, that makes the difference).
TEST_F(RenderLook, TheLitSideOfTheSmokeIsBrighterThanItsShadowedSide)
{
    const OrbitCamera cam = show(ball.field);
    RenderSettings look = litLook();
    look.ground = false;
    const glm::vec3 side = cam.basis().right;
    const glm::vec2 left = project(cam, -6.f * side), right = project(cam, 6.f * side);
    look.lightAzimuth = rightOf(cam), look.lightElevation = 0.2f;
    const CapturedImage fromRight = draw(cam, look);
    look.lightAzimuth = rightOf(cam) + float(M_PI);
    const CapturedImage fromLeft = draw(cam, look);
    EXPECT_GT(around(fromRight, right, 2), around(fromRight, left, 2) + 25.0);
    EXPECT_GT(around(fromLeft, left, 2), around(fromLeft, right, 2) + 25.0);
}

// The sun almost overhead: the ground straight under the ball lies in its shadow, darker than the
// ground as far to the side; with the ground off the same pixels show the background instead.
TEST_F(RenderLook, TheGroundIsVisibleAndDarkerUnderTheSmokeThanBesideIt)
{
    OrbitCamera cam = show(ball.field);
    cam.distance *= 2.f;
    cam.target[1] = -10.f;
    cam.elevation = 0.6f;
    RenderSettings look = litLook();
    look.groundHeight = -25.f;
    look.lightElevation = 1.55f;
    // Beneath: the shadow's centre, seen past the ball's front edge; beside: as far along the
    // camera's right. A tile of the checkerboard is 2 voxels here, so each square spans several.
    const glm::vec3 side = cam.basis().right;
    const glm::vec3 towardsCamera(std::cos(cam.azimuth), 0, std::sin(cam.azimuth));
    const glm::vec3 beneath = glm::vec3(0, -25, 0) + 4.f * towardsCamera;
    const CapturedImage withGround = draw(cam, look);
    const double under = around(withGround, project(cam, beneath), 2);
    const double beside = around(withGround, project(cam, beneath + 24.f * side), 2);
    EXPECT_LT(under + 15.0, beside) << "under " << under << ", beside " << beside;
    look.ground = false;
    const CapturedImage without = draw(cam, look);
    EXPECT_GT(std::abs(around(without, project(cam, beneath + 24.f * side), 2) - beside), 10.0)
        << "the ground does not show";
}

// An obstacle ball beside the smoke is a surface: where it is, the picture differs from the same
// view without it, and it is shaded by the sun (its sunward side brighter than the far side).
TEST_F(RenderLook, AnObstacleIsDrawnAsALitSurface)
{
    const OrbitCamera cam = show(std::vector<float>(ball.field.size(), 0.f));
    RenderSettings look = litLook();
    look.ground = false;
    const glm::vec3 side = cam.basis().right;
    look.lightAzimuth = rightOf(cam), look.lightElevation = 0.1f;
    const CapturedImage none = draw(cam, look);
    look.obstacles = {{0.f, 0.f, 0.f, 8.f}};
    const CapturedImage sphere = draw(cam, look);
    const glm::vec2 centre = project(cam, glm::vec3(0));
    EXPECT_GT(std::abs(around(sphere, centre, 2) - around(none, centre, 2)), 20.0);
    EXPECT_GT(around(sphere, project(cam, 5.f * side), 1), around(sphere, project(cam, -5.f * side), 1) + 30.0);
    EXPECT_NEAR(luminance(sphere, 2, 2), luminance(none, 2, 2), 1.0); // far from it, nothing changed
}

// A mesh obstacle, given as its solid voxels (a voxelized ball beside nothing but empty air): the
// pixels where its voxels are differ from the picture without it, its sunward side is brighter
// than the far side, the pixels clear of it are unchanged, and it covers the pixels an analytic
// sphere of the same radius covers (its surface lies on the voxels' faces, where the field's
// voxels are drawn).
TEST_F(RenderLook, AMeshObstacleIsDrawnAsALitSurfaceWhereItsVoxelsAre)
{
    const OrbitCamera cam = show(std::vector<float>(ball.field.size(), 0.f));
    RenderSettings look = litLook();
    look.ground = false;
    const glm::vec3 side = cam.basis().right;
    look.lightAzimuth = rightOf(cam), look.lightElevation = 0.1f;
    const CapturedImage none = draw(cam, look);
    look.meshObstacles = buildObstacleSurface(voxelBall(glm::vec3(0), 7.f));
    ASSERT_TRUE(look.meshObstacles);
    const CapturedImage mesh = draw(cam, look);
    look.meshObstacles = nullptr;
    look.obstacles = {{0.f, 0.f, 0.f, 7.f}};
    const CapturedImage sphere = draw(cam, look);
    keep(mesh, "mesh-ball"), keep(sphere, "sphere-ball");

    const glm::vec2 centre = project(cam, glm::vec3(0)), sunward = project(cam, 5.f * side);
    EXPECT_GT(around(mesh, sunward, 1), around(none, sunward, 1) + 30.0);
    EXPECT_GT(around(mesh, sunward, 1), around(mesh, project(cam, -5.f * side), 1) + 30.0);
    const float clear = glm::length(project(cam, 9.f * side) - centre); // past the ball's edge, in pixels
    size_t onMesh = 0, onSphere = 0, onBoth = 0, changedOff = 0;
    for (uint32_t y = 0; y < H; ++y)
        for (uint32_t x = 0; x < W; ++x) {
            const size_t i = size_t(y) * W + x;
            const bool m = mesh.pixels[i] != none.pixels[i], s = sphere.pixels[i] != none.pixels[i];
            onMesh += m, onSphere += s, onBoth += m && s;
            if (glm::length(glm::vec2(x + 0.5f, y + 0.5f) - centre) > clear) changedOff += m;
        }
    EXPECT_EQ(changedOff, 0u) << "pixels clear of the obstacle changed";
    EXPECT_GT(onMesh, 200u);
    // the same disc: their overlap is nearly all of either
    EXPECT_GT(double(onBoth), 0.9 * double(std::max(onMesh, onSphere))) << onMesh << " " << onSphere << " " << onBoth;
}

// The sun from the camera's right, low, through thin smoke: a mesh obstacle in the right half of
// the smoke ball shadows the smoke left of it (through the light volume: the cells inside it are
// opaque), darker than without the obstacle.
TEST_F(RenderLook, AMeshObstacleShadowsTheSmokeBehindIt)
{
    const OrbitCamera cam = show(std::vector<float>(ball.field.size(), 0.08f));
    RenderSettings look = litLook();
    look.ground = false;
    const glm::vec3 side = cam.basis().right;
    look.lightAzimuth = rightOf(cam), look.lightElevation = 0.05f;
    const CapturedImage open = draw(cam, look);
    look.meshObstacles = buildObstacleSurface(voxelBall(5.f * side, 4.f));
    const CapturedImage shadowed = draw(cam, look);
    keep(open, "smoke-open"), keep(shadowed, "smoke-mesh-shadow");
    const glm::vec2 behind = project(cam, -5.f * side);
    EXPECT_LT(around(shadowed, behind, 2) + 15.0, around(open, behind, 2))
        << "shadowed " << around(shadowed, behind, 2) << ", open " << around(open, behind, 2);
}

// The fire scene's flames: its brightest pixels are warm, red above green above blue.
TEST(RenderLookScene, FirePixelsAreWarm)
{
    const fs::path png = testFolder() / "vbm-look-fire.png";
    const CommandResult run = runCommand("VBM_VULKAN_VALIDATION=1 " + std::string(VBM_FLUID_PATH) +
                                         " --headless --backend cpu --frames 60 --scene fire-small --size 160x120 "
                                         "--screenshot " +
                                         png.string());
    ASSERT_EQ(run.code, 0) << run.out;
    EXPECT_NE(run.out.find("Vulkan validation errors: 0"), std::string::npos) << run.out;
    const Image im = readPng(png);
    ASSERT_EQ(im.width, 160u);
    // the pixels whose red is brightest: the flame
    std::vector<std::array<int, 3>> px;
    for (uint32_t y = 0; y < im.height; ++y)
        for (uint32_t x = 0; x < im.width; ++x)
            px.push_back({im.at(x, y)[0], im.at(x, y)[1], im.at(x, y)[2]});
    std::sort(px.begin(), px.end(), [](const auto& a, const auto& b) { return a[0] - a[2] > b[0] - b[2]; });
    double r = 0, g = 0, b = 0;
    const size_t n = px.size() / 200; // the warmest half percent
    for (size_t i = 0; i < n; ++i)
        r += px[i][0], g += px[i][1], b += px[i][2];
    r /= n, g /= n, b /= n;
    EXPECT_GT(r, g + 10) << r << " " << g << " " << b;
    EXPECT_GT(g, b + 10) << r << " " << g << " " << b;
    EXPECT_GT(r, 150.0) << "the flames are dim";
    fs::remove(png);
}

// heat-shell: the hot spot spreads and cools. A colormap fixed at the start-up range loses it
// (its peak falls far below the top of the map); one that follows the field keeps the peak at
// the map's bright end.
TEST_F(RenderLook, AColormapThatFollowsTheFieldKeepsSpreadingHeatVisible)
{
    std::vector<float> warm(ball.field.size(), 0.f);
    for (size_t i = 1; i < warm.size(); ++i)
        warm[i] = 2.f + float(i % 7) * 0.1f; // a field spread out and cooled, far below 100
    const OrbitCamera cam = show(warm);
    RenderSettings look;
    look.mode = RenderMode::Emission;
    look.ground = false;
    look.rangeLo = 0.f, look.rangeHi = 100.f; // the start-up range
    look.rangeFollowsField = false;
    const CapturedImage fixed = draw(cam, look);
    look.rangeFollowsField = true;
    const CapturedImage follows = draw(cam, look);
    const glm::vec2 centre = project(cam, glm::vec3(0));
    EXPECT_GT(around(follows, centre, 3), around(fixed, centre, 3) + 40.0);
}
