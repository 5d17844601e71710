// SPDX-License-Identifier: Apache-2.0
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

/// A grid of a .nvdb file in its stored type, alone in its handle, validated: its file and
/// segment headers against the file's size, its tree against its buffer, its checksum when it
/// carries one (docs/nvdb-files.md lists the rules).
struct FileGrid {
    std::string name;      ///< "<file>:<grid name or #n>", file content escaped
    HostGridHandle handle; ///< one grid, float, double, OnIndex or Index, with active voxels
};

/// The sound, usable grids of a file and the file's size.
struct GridFileContents {
    uint64_t fileBytes = 0;
    std::vector<FileGrid> grids; ///< may be empty: every grid was skipped
};

/// Reads and validates every grid of a .nvdb file without trusting any of its sizes: memory
/// is bounded by the file's size. Grids of other types, or without active voxels, are skipped
/// with a note in `skipped`. Throws InputError, one line naming the file, when the file is
/// missing, not a NanoVDB file, truncated, or holds a corrupt grid.
GridFileContents readGridFile(const std::string& path, std::vector<std::string>* skipped = nullptr);

/// How many voxels expanding a file's active tiles may produce: 16 per file byte, at least 2^22.
uint64_t expandedVoxelBudget(uint64_t fileBytes);

/// Reads every grid of a .nvdb file (through readGridFile). Float and double grids become OnIndex grids over their
/// active voxels (active tiles are expanded into voxels); OnIndex grids are used as they are,
/// or re-indexed leaf-only when they index tiles or stats; active voxels beyond
/// expandedVoxelBudget() make a grid unusable. Grids of other types are skipped,
/// with a note in `skipped`. Throws InputError, naming the file and the problem, when the file
/// is missing, is not a NanoVDB file, is truncated or corrupt, or holds no usable grid.
std::vector<LoadedGrid> loadGridFile(const std::string& path, std::vector<std::string>* skipped = nullptr);

} // namespace vbm
