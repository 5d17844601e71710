// SPDX-License-Identifier: Apache-2.0
// The scene text format's pieces shared by the files that read it (Scene.cpp, OpenDomain.cpp):
// a statement (its line and words), the error that names file and line, and number reading:
// every number of a scene is read, and range-checked, here.
#pragma once

#include "ActiveRegion.h"
#include "grids/PrintableText.h"
#include "Scene.h"
#include "vbm/BuildVoxelBlockManager.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace vbm::scenetext {

struct Line {
    int number;
    std::vector<std::string> words;
};

/// Coordinates a scene may name: every voxel, and its stencil neighbours, stays well inside the
/// int range (the cached table's neighbour-leaf origins, a tree walk's neighbours).
inline constexpr double SafeCoordinate = double(MaxOpenCoord); // 2^30
static_assert(MaxOpenCoord == SafeIndexRange, "a scene's range is the one checkVbmGrid allows");
/// The voxel cap of every fixed domain kind: the VBM's 32-bit value indices (checkVbmGrid's
/// MaxValueCount, 2^32 - 1024), no longer 2^31: nothing on a fixed domain's path
/// adds indices in signed 32 bits (the multigrid tables hold them unsigned, the kernels in 64).
/// Open domains keep their own 2^31 cap (ActiveSet.h).
inline constexpr double MaxDomainVoxels = double(MaxValueCount);

[[noreturn]] inline void fail(const std::string& source, int line, const std::string& what)
{
    throw SceneError(printableText(source + ":" + std::to_string(line) + ": " + what));
}

inline double number(const std::string& source, const Line& l, size_t k)
{
    if (k >= l.words.size()) fail(source, l.number, "'" + l.words[0] + "' needs more values");
    const std::string& w = l.words[k];
    char* end = nullptr;
    const double v = std::strtod(w.c_str(), &end);
    if (w.empty() || *end || !std::isfinite(v)) fail(source, l.number, "'" + w + "' is not a number");
    return v;
}

/// A number in [lo, hi]; the error names `what`.
inline double numberIn(const std::string& source, const Line& l, size_t k, double lo, double hi,
                       const std::string& what)
{
    const double v = number(source, l, k);
    if (!(v >= lo && v <= hi)) {
        char range[96];
        std::snprintf(range, sizeof range, " must be from %.10g to %.10g, not %.10g", lo, hi, v);
        fail(source, l.number, what + range);
    }
    return v;
}

/// A coordinate within +-SafeCoordinate.
inline double coordinate(const std::string& source, const Line& l, size_t k)
{
    return numberIn(source, l, k, -SafeCoordinate, SafeCoordinate, "a coordinate (the safe index range is +-2^30)");
}

inline void expectCount(const std::string& source, const Line& l, size_t n)
{
    if (l.words.size() != n)
        fail(source, l.number,
             "'" + l.words[0] + "' takes " + std::to_string(n - 1) + " values, got " +
                 std::to_string(l.words.size() - 1));
}

using Sphere = std::array<double, 4>; ///< centre and radius

/// CX CY CZ R: a ball with a positive radius, wholly inside the safe index range.
inline Sphere sphereOf(const std::string& source, const Line& l, size_t k)
{
    const Sphere s{coordinate(source, l, k), coordinate(source, l, k + 1), coordinate(source, l, k + 2),
                   number(source, l, k + 3)};
    if (!(s[3] > 0)) fail(source, l.number, "the sphere needs a positive radius");
    for (int a = 0; a < 3; ++a)
        if (std::fabs(s[a]) + s[3] > SafeCoordinate)
            fail(source, l.number, "the sphere reaches past the safe index range (+-2^30)");
    return s;
}

} // namespace vbm::scenetext
