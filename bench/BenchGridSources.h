// SPDX-License-Identifier: Apache-2.0
// The grids vbm-bench runs on, on the host: the built-in sphere shells and the grids of .nvdb
// files. No GPU needed (vbm-bench --backend cpu runs on these alone).
#pragma once

#include "GridGenerators.h"

#include <map>
#include <string>
#include <vector>

namespace bench {

/// A grid to bench on, with the names its tables print.
struct BenchGrid {
    std::string name, origin;
    vbm::HostGridHandle handle;
};

/// "small", "thin" and "thick" are built in; anything else names a file.
bool isBuiltInGrid(const std::string& spec);

/// The grid(s) of one --grid value: a built-in shell, or every usable grid of a .nvdb file (the
/// ones it skips are noted on stderr). Throws vbm::InputError for an unreadable file.
std::vector<BenchGrid> loadGrid(const std::string& spec);

/// Reads every file among `specs` once, before anything needs the GPU, so an unreadable file
/// is reported as such on any machine. Keyed by the spec.
std::map<std::string, std::vector<BenchGrid>> loadFileGrids(const std::vector<std::string>& specs);

/// The grids of a run in the order given: built-in ones are built now (they take seconds, so
/// stderr says so), file ones are moved out of `fileGrids`.
std::vector<BenchGrid> collectGrids(const std::vector<std::string>& specs,
                                    std::map<std::string, std::vector<BenchGrid>>& fileGrids);

} // namespace bench
