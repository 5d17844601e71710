// SPDX-License-Identifier: Apache-2.0
// The interactive window: a GLFW window, a session drawing into a swapchain target, and the
// ImGui panels that edit the session's choices, parameters and view between frames.
#pragma once

#include "FluidOptions.h"
#include "GlfwWindow.h"

namespace vbm::app {

/// Runs the window until it is closed (or a script quits); returns the exit code. Throws NoDisplay
/// before anything is shown when there is no display, cli::UsageError, SceneError or
/// std::exception on failure.
int runGui(const Options& options);

} // namespace vbm::app
