// The interactive window: GLFW, a Vulkan swapchain, the volume renderer and the ImGui panels.
#pragma once

#include "HeadlessOptions.h"

#include <stdexcept>

namespace vbm::app {

/// No window can be opened here (no display, or GLFW finds no Vulkan); the caller runs headless.
struct NoDisplay : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Runs the window until it is closed (or a script quits); returns the exit code. Throws NoDisplay
/// before anything is shown when there is no display, UsageError, SceneError or std::exception on failure.
int runGui(const Options& options);

} // namespace vbm::app
