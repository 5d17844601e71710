// Reading .nvdb files into OnIndex grids a VBM can carry.
#pragma once

#include "GridGenerators.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace vbm {

/// A user-facing input problem (missing, unreadable or unusable file): exit code 2.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// One grid of a file, ready for a VBM.
struct LoadedGrid {
    std::string name;      ///< "<file>:<grid name or #n>"
    std::string origin;    ///< how it was made: "OnIndex, as stored", "float, active voxels", ...
    HostGridHandle handle; ///< an OnIndex grid satisfying checkVbmGrid()
};

/// Reads every grid of a .nvdb file. Float and double grids become OnIndex grids over their
/// active voxels (active tiles are expanded into voxels); OnIndex grids are used as they are,
/// or re-indexed leaf-only when they index tiles or stats. Grids of other types are skipped,
/// with a note in `skipped`. Throws InputError, naming the file and the problem, when the file
/// is missing, is not a NanoVDB file, is truncated or corrupt, or holds no usable grid.
std::vector<LoadedGrid> loadGridFile(const std::string& path, std::vector<std::string>* skipped = nullptr);

} // namespace vbm
