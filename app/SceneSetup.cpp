// SPDX-License-Identifier: Apache-2.0
// What the headless run and the window share when they set a scene up (see SceneSetup.h).
#include "SceneSetup.h"

#include "CommandLine.h"
#include "CudaInterop.h"
#include "DeviceQueries.h"

#include <algorithm>
#include <cmath>

namespace vbm::app {

Backend pickBackend(std::optional<Backend> requested)
{
    const std::string cudaWhy = cudaUnavailableReason();
    if (requested && *requested == Backend::Cuda && !cudaWhy.empty())
        throw cli::UsageError("--backend cuda: the CUDA backend cannot run here (" + cudaWhy + ")");
    if (requested) return *requested;
    return cudaWhy.empty() ? Backend::Cuda : Backend::Cpu;
}

std::string startingSceneName(const Options& o, Backend backend)
{
    if (!o.scene.empty()) return o.scene;
    return backend == Backend::Cuda ? "smoke-open-4m" : "fire-small";
}

std::optional<render::DeviceUuid> preferredVulkanDevice(Backend backend)
{
    if (backend != Backend::Cuda) return std::nullopt;
    return render::cudaDeviceUuid();
}

std::string renderFieldName(SimulationKind kind) { return kind == SimulationKind::Smoke ? "density" : "temperature"; }

std::string lookName(render::RenderMode mode, SimulationKind kind)
{
    switch (mode) {
    case render::RenderMode::Density: return renderFieldName(kind) + ", lit";
    case render::RenderMode::Emission: return renderFieldName(kind) + ", colormap";
    case render::RenderMode::Fire: return "density lit, flames from the temperature";
    case render::RenderMode::Blocks: return "VBM blocks";
    }
    return "?";
}

namespace {

/// Where the ground lies: at an open domain's floor (its box's bottom), else under the
/// domain's first grid (an unbounded open domain: under its emitters' first set).
float groundHeight(const Scene& scene)
{
    const bool open = scene.adapt.enabled() && scene.region.within.empty();
    if (open && scene.region.box.min()[1] > -MaxOpenCoord) return float(scene.region.box.min()[1]);
    return float(scene.grid.grid<nanovdb::ValueOnIndex>()->indexBBox().min()[1]);
}

} // namespace

render::RenderSettings defaultLook(const Scene& scene, const Solver& solver, const render::VulkanContext& vk)
{
    render::RenderSettings look;
    if (scene.kind == SimulationKind::Smoke) {
        const bool fire = isFire(scene.params);
        look.mode = fire ? render::RenderMode::Fire : render::RenderMode::Density;
        if (fire) look.albedo = 0.6f;             // soot: darker than the white smoke of a plume
        look.densityScale = fire ? 0.5f : 1.5f; // denser smoke shows more of its own shadow
        look.rangeLo = 0.f, look.rangeHi = float(std::max(scene.params.emitDensity, 1e-3));
    } else {
        // the initial range is the fixed one, should the user turn following the field off
        const auto t = solver.field("temperature");
        const auto [lo, hi] = std::minmax_element(t.begin() + 1, t.end());
        look.mode = render::RenderMode::Emission;
        look.rangeLo = *lo, look.rangeHi = *hi > *lo ? *hi : *lo + 1.f;
        look.densityScale = 0.25f;
    }
    for (const Ball& b : scene.region.obstacles)
        look.obstacles.push_back({float(b.x), float(b.y), float(b.z), float(b.r)});
    look.meshObstacles = render::buildObstacleSurface(scene.region.solid); // null without mesh obstacles
    look.groundHeight = groundHeight(scene);
    look.log2BlockWidth = solver.choice().log2BlockWidth;
    if (vk.cpuDevice()) look.lightResolution = 32; // lavapipe: a coarser light volume (and fewer rays, by default)
    return look;
}

render::RenderSettings startingLook(render::RenderSettings look, const float* boxMin, const float* boxMax,
                                    const Options& o)
{
    if (o.blockOverlay || o.look == "blocks") look.mode = render::RenderMode::Blocks;
    if (o.look == "density") look.mode = render::RenderMode::Density;
    if (o.look == "emission") look.mode = render::RenderMode::Emission;
    if (o.look == "fire") look.mode = render::RenderMode::Fire;
    if (o.range) {
        look.rangeFollowsField = false;
        look.rangeLo = float(o.range->first), look.rangeHi = float(o.range->second);
    }
    if (o.light) {
        const float radians = float(M_PI / 180);
        look.lightAzimuth = float(o.light->first) * radians, look.lightElevation = float(o.light->second) * radians;
    }
    if (o.renderScale) look.pixelsPerRay = o.renderScale;
    look.ground = o.ground;
    if (o.lightCells) look.lightResolution = *o.lightCells;
    if (o.rayStep) look.stepVoxels = float(*o.rayStep);
    if (o.densityScale) look.densityScale = float(*o.densityScale);
    if (o.sliceAxis >= 0) {
        const int a = o.sliceAxis;
        look.sliceAxis = a;
        look.slicePosition = float(o.slicePosition.value_or(std::floor(0.5 * (boxMin[a] + boxMax[a]))));
    }
    return look;
}

} // namespace vbm::app
