// What the headless run and the window share when they set a scene up: which backend runs,
// which scene is the default, which field is drawn and how it looks at first.
#pragma once

#include "HeadlessOptions.h"
#include "Scene.h"
#include "Solver.h"
#include "VolumeRenderer.h"

#include <optional>
#include <string>

namespace vbm::app {

/// The requested backend, or CUDA when it can run here, else the CPU. Throws UsageError when
/// CUDA is asked for and cannot run.
Backend pickBackend(std::optional<Backend> requested);
/// The scene a run starts with when none is named.
std::string defaultSceneName(Backend backend);
/// One line naming the device the solver runs on.
std::string solverDeviceDescription(Backend backend);
/// The field the renderer draws: smoke density, or heat's temperature.
std::string renderFieldName(SimulationKind kind);
/// The first look of a scene: smoke as density, heat as emission over its initial temperature range.
render::RenderSettings defaultLook(const Scene& scene, const Solver& solver);

} // namespace vbm::app
