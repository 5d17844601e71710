// SPDX-License-Identifier: Apache-2.0
// Checks on a mesh file's bytes before assimp reads them: damaged files on which assimp 5.2
// (Debian 12's) would read forever, allocate without bound or read past its arrays, found by
// tests/fuzz/fuzz_mesh.cpp and the tests (tests/fuzz/findings/README.md).
#pragma once

#include <string>
#include <string_view>

namespace vbm {

/// Why assimp must not read `bytes`, or "" when nothing is wrong that these checks know of.
/// `extension` is the file's (any case, without the dot); `guessed` says that no reader claims
/// it, so assimp will pick its reader by the bytes.
std::string refusedBeforeReading(std::string_view bytes, std::string extension, bool guessed);

} // namespace vbm
