// SPDX-License-Identifier: Apache-2.0
// Checks of untrusted .nvdb bytes, run before anything of NanoVDB reads or walks them: the
// file's headers against its size, then each grid's tree against its own buffer (see
// docs/nvdb-files.md for the rules).
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace vbm {


/// Where one grid lies in a .nvdb file.
struct FileGridSpan {
    uint64_t offset = 0;                   ///< byte offset of its GridData in the file
    uint64_t size = 0;                     ///< its byte size (GridData::mGridSize)
    std::string name;                      ///< its name in the file's metadata, escaped; "" when the file has none
    uint64_t metaNodeCount[3] = {0, 0, 0}; ///< node counts the segment metadata claims (raw grids: unchecked)
    bool hasMeta = false;
};

/// The grids of a .nvdb file of `fileSize` bytes, read from its headers alone (file header,
/// each grid's metadata and name, or the chain of raw grid headers), every size checked
/// against the bytes the file has. Throws InputError (without the file name) if they disagree.
std::vector<FileGridSpan> readFileLayout(std::istream& in, uint64_t fileSize);

/// Outcome of checking one grid buffer.
struct GridCheck {
    enum Kind { Ok, Unsupported, Corrupt } kind = Ok;
    std::string why; ///< for Unsupported and Corrupt: one clause, file content escaped
};

/// Checks a grid read from a file: `buffer` holds `size` bytes, 32-byte aligned. Checks the
/// header, every node array and child offset against the buffer, node and tile counts, node
/// origins, leaf index ranges and the root bounding box; then, and only then, NanoVDB's own
/// validator and the checksum when the grid carries one. Float, double, OnIndex and Index
/// grids are checked; other types are Unsupported, as are grids without active values.
GridCheck checkGridBuffer(const void* buffer, uint64_t size, const FileGridSpan& span);

} // namespace vbm
