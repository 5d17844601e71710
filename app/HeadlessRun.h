// The headless run: a scene stepped for N frames on one backend, with one resolver or all of
// them in turn, per-phase timings summarized and optionally written out.
#pragma once

#include "HeadlessOptions.h"

namespace vbm::app {

/// Runs it; returns the exit code. Throws UsageError, SceneError or std::exception on failure.
int runHeadless(const Options& options);

} // namespace vbm::app
