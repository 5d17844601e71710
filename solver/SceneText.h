// The scene text format's pieces shared by the files that read it (Scene.cpp, OpenDomain.cpp):
// a statement (its line and words), the error that names file and line, and number reading.
#pragma once

#include "Scene.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace vbm::scenetext {

struct Line {
    int number;
    std::vector<std::string> words;
};

[[noreturn]] inline void fail(const std::string& source, int line, const std::string& what)
{
    throw SceneError(source + ":" + std::to_string(line) + ": " + what);
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

inline void expectCount(const std::string& source, const Line& l, size_t n)
{
    if (l.words.size() != n)
        fail(source, l.number,
             "'" + l.words[0] + "' takes " + std::to_string(n - 1) + " values, got " +
                 std::to_string(l.words.size() - 1));
}

using Sphere = std::array<double, 4>; ///< centre and radius

inline Sphere sphereOf(const std::string& source, const Line& l, size_t k)
{
    return {number(source, l, k), number(source, l, k + 1), number(source, l, k + 2), number(source, l, k + 3)};
}

} // namespace vbm::scenetext
