// SPDX-License-Identifier: Apache-2.0
// Screenshots as PNG files (libpng).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vbm::render {

/// Writes RGBA8 pixels (row by row from the top) as a PNG; throws with the path on failure.
void writePng(const std::string& path, const std::vector<uint32_t>& rgba, uint32_t width, uint32_t height);

} // namespace vbm::render
