// SPDX-License-Identifier: Apache-2.0
// vbm-bench --backend cpu: the bench's consumer on the CPU, all cores, our six resolvers through the
// solver's CPU executor (and the shared form of the defaults) beside OpenVDB's peers, on the
// same grid, values and cores, in interleaved rounds; every output checked. Needs no GPU.
#pragma once

#include "BenchGridSources.h"
#include "BenchOptions.h"

#include <map>
#include <string>
#include <vector>

namespace bench {

/// Runs the CPU comparison over opt.grids; returns the exit code (0, or 1 when an output failed
/// its check).
int runCpuBench(const Options& opt, std::map<std::string, std::vector<BenchGrid>>& fileGrids);

} // namespace bench
