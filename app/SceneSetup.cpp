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
    return backend == Backend::Cuda ? "smoke-plume" : "heat-shell";
}

std::optional<render::DeviceUuid> preferredVulkanDevice(Backend backend)
{
    if (backend != Backend::Cuda) return std::nullopt;
    return render::cudaDeviceUuid();
}

std::string renderFieldName(SimulationKind kind) { return kind == SimulationKind::Smoke ? "density" : "temperature"; }

render::RenderSettings defaultLook(const Scene& scene, const Solver& solver)
{
    render::RenderSettings look;
    if (scene.kind == SimulationKind::Smoke) {
        look.mode = render::RenderMode::Density;
        look.densityScale = 0.5f;
        look.rangeLo = 0.f, look.rangeHi = float(scene.params.emitDensity);
    } else {
        const auto t = solver.field("temperature");
        const auto [lo, hi] = std::minmax_element(t.begin() + 1, t.end());
        look.mode = render::RenderMode::Emission;
        look.rangeLo = *lo, look.rangeHi = *hi > *lo ? *hi : *lo + 1.f;
        look.densityScale = 0.25f;
    }
    look.log2BlockWidth = solver.choice().log2BlockWidth;
    return look;
}

render::RenderSettings startingLook(const Scene& scene, const Solver& solver, const float* boxMin, const float* boxMax,
                                    const Options& o)
{
    render::RenderSettings look = defaultLook(scene, solver);
    if (o.blockOverlay) look.mode = render::RenderMode::Blocks;
    if (o.sliceAxis >= 0) {
        const int a = o.sliceAxis;
        look.sliceAxis = a;
        look.slicePosition = float(o.slicePosition.value_or(std::floor(0.5 * (boxMin[a] + boxMax[a]))));
    }
    return look;
}

} // namespace vbm::app
