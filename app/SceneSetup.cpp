// What the headless run and the window share when they set a scene up (see SceneSetup.h).
#include "SceneSetup.h"

#include "DeviceQueries.h"

#include <algorithm>

namespace vbm::app {

Backend pickBackend(std::optional<Backend> requested)
{
    const std::string cudaWhy = cudaUnavailableReason();
    if (requested && *requested == Backend::Cuda && !cudaWhy.empty())
        throw UsageError("--backend cuda: the CUDA backend cannot run here (" + cudaWhy + ")");
    if (requested) return *requested;
    return cudaWhy.empty() ? Backend::Cuda : Backend::Cpu;
}

std::string defaultSceneName(Backend backend) { return backend == Backend::Cuda ? "smoke-plume" : "heat-shell"; }

std::string solverDeviceDescription(Backend backend) { return backendDeviceDescription(backend); }

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

} // namespace vbm::app
