// SPDX-License-Identifier: Apache-2.0
// vbm-bench's default run: for every grid, the resolver comparison at each channel count and
// the decode-alone table; then the kernel resources, the copy bandwidth, the verdict, the JSON.
#pragma once

#include "BenchGrids.h"
#include "BenchOptions.h"

#include <map>
#include <string>
#include <vector>

namespace bench {

/// Runs the grids of opt.grids (file grids come from `fileGrids`, read before the GPU was
/// looked for) and prints the report on stdout. Returns 0 when every output matched its
/// baseline, else 1. Throws on a CUDA failure or an unwritable JSON file.
int runGridBench(const Options& opt, std::map<std::string, std::vector<BenchGrid>>& fileGrids);

} // namespace bench
