// SPDX-License-Identifier: Apache-2.0
// What vbm-bench --backend cpu reports: one row per timed variant, the markdown tables (the GPU
// bench's shape: our resolvers by block width, then the peers) and the JSON.
#pragma once

#include "BenchOptions.h"
#include "FrameTimings.h"

#include <string>
#include <vector>

namespace bench {

/// One timed CPU variant on one grid at one channel count.
struct CpuRow {
    std::string grid, variant, shape;
    std::string form;  ///< ours: "cpu" or "shared"; peers: "openvdb"
    std::string check; ///< how its output was checked, and the outcome
    int width = 0;     ///< block width in voxels; 0 for the peers
    int channels = 0;
    vbm::Summary ms;
    double voxelsPerSecond = 0;
};

/// Everything a CPU run collects for the tables and the JSON.
struct CpuBenchResults {
    std::string device;                ///< CPU model and thread count
    std::string peerVersion;           ///< "OpenVDB 10.0.1", or "" without it
    std::vector<std::string> gridJson; ///< one JSON object per grid
    std::vector<CpuRow> rows;
    bool allIdentical = true; ///< every output passed its check
};

/// Our table (six resolvers, CPU form, then the shared form's rows) for one grid and C.
void printOurCpuTable(const Options& opt, const std::string& grid, int C, const std::vector<CpuRow>& rows);
/// The peers' table with their checks, then the headline ratios against them.
void printPeerCpuTable(const Options& opt, const std::string& grid, int C, const std::vector<CpuRow>& rows);
/// Writes the run's JSON to opt.json. Throws std::runtime_error when it cannot.
void writeCpuBenchJson(const Options& opt, const CpuBenchResults& res);

} // namespace bench
