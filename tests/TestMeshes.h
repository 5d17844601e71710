// SPDX-License-Identifier: Apache-2.0
// Meshes the mesh tests write: a unit cube and a unit sphere (an octahedron subdivided and
// pushed onto the sphere) as OBJ text, closed, with outward triangles.
#pragma once

#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace vbm::testmesh {

struct Obj {
    std::vector<std::array<double, 3>> points;
    std::vector<std::array<int, 3>> triangles; // 0-based
};

inline Obj unitCube() // [-0.5, 0.5]^3
{
    Obj o;
    for (int i = 0; i < 8; ++i)
        o.points.push_back({(i & 1) - 0.5, ((i >> 1) & 1) - 0.5, ((i >> 2) & 1) - 0.5});
    o.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                   {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
    return o;
}

/// Radius 1, centred at the origin; `levels` halvings of the octahedron's edges.
inline Obj unitSphere(int levels)
{
    Obj o;
    o.points = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    o.triangles = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
    for (int l = 0; l < levels; ++l) {
        std::map<std::pair<int, int>, int> middle;
        const auto mid = [&](int a, int b) {
            const auto key = std::minmax(a, b);
            if (auto it = middle.find(key); it != middle.end()) return it->second;
            std::array<double, 3> p;
            for (int k = 0; k < 3; ++k)
                p[k] = (o.points[a][k] + o.points[b][k]) / 2;
            const double n = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
            for (double& v : p)
                v /= n;
            o.points.push_back(p);
            return middle[key] = int(o.points.size()) - 1;
        };
        std::vector<std::array<int, 3>> next;
        for (const auto& t : o.triangles) {
            const int a = mid(t[0], t[1]), b = mid(t[1], t[2]), c = mid(t[2], t[0]);
            next.insert(next.end(), {{t[0], a, c}, {a, t[1], b}, {c, b, t[2]}, {a, b, c}});
        }
        o.triangles = next;
    }
    return o;
}

inline std::string objText(const Obj& o)
{
    std::string s;
    char line[128];
    for (const auto& p : o.points) {
        std::snprintf(line, sizeof line, "v %.17g %.17g %.17g\n", p[0], p[1], p[2]);
        s += line;
    }
    for (const auto& t : o.triangles)
        s += "f " + std::to_string(t[0] + 1) + " " + std::to_string(t[1] + 1) + " " + std::to_string(t[2] + 1) + "\n";
    return s;
}

inline std::string writeFile(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

} // namespace vbm::testmesh
