// SPDX-License-Identifier: Apache-2.0
// What a vbm-bench grid run reports: one row per timed variant (the tables and the JSON read
// the same rows), and the number formatting the tables share.
#pragma once

#include "FrameTimings.h"

#include <string>
#include <vector>

namespace bench {

/// One timed variant on one grid at one channel count.
struct Row {
    std::string grid, variant, shape;
    int width = 0, channels = 0; ///< width 0: does not depend on the block width; channels 0: decode
    vbm::Summary ms;
    double ratio = 0, voxelsPerSecond = 0, bytes = 0, gbps = 0;
};

/// Everything a grid run collects on its way to the last tables and the JSON.
struct GridBenchResults {
    std::vector<Row> rows;
    std::vector<std::string> gridJson; ///< one JSON object per grid (JsonWriter.h)
    std::vector<float> copyMs;         ///< every timed round of the device copy, all grids
    bool allIdentical = true;          ///< no output differed from its baseline
};

/// The commit this binary was built at (short hash), or "unknown".
const char* gitCommit();

/// A number with `prec` decimals.
std::string fmt(double v, int prec = 3);
/// s with quotes, backslashes and newlines escaped for a JSON string.
std::string jsonEscape(const std::string& s);

/// "median (min-max)", each with `prec` decimals: the tables' cell for a timing.
std::string fmtRange(const vbm::Summary& s, int prec);

} // namespace bench
