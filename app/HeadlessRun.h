// SPDX-License-Identifier: Apache-2.0
// The headless run: a scene stepped for N frames on one backend, with one resolver or all of
// them in turn (fields compared bitwise after every frame), rendered offscreen, per-phase timings
// summarized and optionally written out. It never touches a window system.
#pragma once

#include "FluidOptions.h"

namespace vbm::app {

/// Runs it; returns the exit code. Throws cli::UsageError, SceneError or std::exception on failure.
int runHeadless(const Options& options);

} // namespace vbm::app
