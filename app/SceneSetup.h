// SPDX-License-Identifier: Apache-2.0
// What the headless run and the window share when they set a scene up: which backend runs,
// which scene is the default, which Vulkan device the renderer prefers, which field is drawn
// and how it looks at first.
#pragma once

#include "FluidOptions.h"
#include "Scene.h"
#include "Solver.h"
#include "VolumeRenderer.h"

#include <optional>
#include <string>

namespace vbm::app {

/// The requested backend, or CUDA when it can run here, else the CPU. Throws cli::UsageError
/// when CUDA is asked for and cannot run.
Backend pickBackend(std::optional<Backend> requested);
/// The scene a run starts with: the one named, else the backend's default.
std::string startingSceneName(const Options& o, Backend backend);
/// The Vulkan device the renderer should use: the CUDA device when the solver runs there (so the
/// field can be shared), else any.
std::optional<render::DeviceUuid> preferredVulkanDevice(Backend backend);
/// The field the renderer draws: smoke density, or heat's temperature.
std::string renderFieldName(SimulationKind kind);
/// What a look shows, for the run's header.
std::string lookName(render::RenderMode mode, SimulationKind kind);
/// The first look of a scene: smoke lit (with flames where it burns fuel), heat as emission
/// through a colormap that follows the temperature's range; the scene's obstacles as surfaces
/// (spheres, and the mesh obstacles' solid voxels as a smooth surface built here),
/// the ground under its domain; fewer rays on a CPU Vulkan device (`vk`).
render::RenderSettings defaultLook(const Scene& scene, const Solver& solver, const render::VulkanContext& vk);
/// `look` (the scene's default look, as Session::attachRenderer sets it: its mesh surface is
/// built once) with what the command line asks for: the look, a fixed colormap range, the
/// light, the render scale, the ground, a slice plane (at the middle of the box [boxMin, boxMax)
/// when no position is given).
render::RenderSettings startingLook(render::RenderSettings look, const float* boxMin, const float* boxMax,
                                    const Options& o);

} // namespace vbm::app
