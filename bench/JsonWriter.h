// SPDX-License-Identifier: Apache-2.0
// vbm-bench's JSON: every number of a grid run (--json), or the headline figures of a solver
// run (--solver --json). The keys are what earlier runs' files hold; scripts read them.
#pragma once

#include "BenchGrids.h"
#include "BenchOptions.h"
#include "BenchReport.h"
#include "KernelResources.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

/// One block width's block count and the blocks the cached forms resolve by tree walk.
struct WidthBlocks {
    int width = 0; ///< in voxels (128, 512)
    uint64_t blocks = 0, fallbackBlocks = 0;
};

/// A grid's entry of the "grids" list.
std::string gridJsonEntry(const BenchGrid& grid, uint64_t activeVoxels, uint32_t leaves,
                          const std::vector<WidthBlocks>& widths);

/// Writes a grid run's JSON to opt.json: the run, its grids, every row, every kernel.
/// Throws std::runtime_error when the file cannot be written.
void writeGridBenchJson(const Options& opt, const std::string& device, double copyGBps, const GridBenchResults& results,
                        const std::vector<ResourceRow>& kernels);

/// The figures of a solver run that its JSON holds.
struct SolverBenchFigures {
    std::string scene;
    uint64_t activeVoxels = 0;
    double bytesPerVoxel = 0;
    double defaultStepMs = 0, computeBoxStencilStepMs = 0; ///< median step
    double cgIterationsMedian = 0;
    bool identical = false; ///< fields bitwise identical between the configurations
};

/// Writes a solver run's JSON (one line) to `path`. Throws std::runtime_error when the file
/// cannot be written.
void writeSolverBenchJson(const std::string& path, const SolverBenchFigures& f);

} // namespace bench
