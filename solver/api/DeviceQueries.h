// SPDX-License-Identifier: Apache-2.0
// What the machine offers the backends: whether the CUDA backend can run, and one line naming
// the device a backend runs on. Works in builds without CUDA (the CUDA backend is then
// unavailable, and says so).
#pragma once

#include "SolverTypes.h"

#include <string>

namespace vbm {

/// "" when the CUDA backend can run here, else one line saying why not.
std::string cudaUnavailableReason();
/// Name and compute capability of the current CUDA device, e.g. "NVIDIA H200 (sm_90)".
/// Throws std::runtime_error when there is none.
std::string cudaDeviceDescription();
/// One line naming where `backend` runs: the CUDA device, or "CPU, N threads".
std::string backendDeviceDescription(Backend backend);

} // namespace vbm
