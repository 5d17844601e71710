// SPDX-License-Identifier: Apache-2.0
// The voxels a mesh covers (Mesh.h): placed in index space, turned into a narrow-band level set
// by OpenVDB (tools::meshToLevelSet), whose negative values, voxels and interior tiles, are the
// inside; or, for `shell T`, an unsigned distance field's voxels within T/2 of the surface.
#include "Mesh.h"

#include <openvdb/openvdb.h>
#include <openvdb/tools/MeshToVolume.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>

namespace vbm {

MeshEdges meshEdges(const TriangleMesh& mesh)
{
    std::vector<uint64_t> edges;
    edges.reserve(mesh.triangles.size() * 3);
    for (const auto& t : mesh.triangles)
        for (int k = 0; k < 3; ++k) {
            const uint32_t a = t[k], b = t[(k + 1) % 3];
            edges.push_back(uint64_t(std::min(a, b)) << 32 | std::max(a, b));
        }
    std::sort(edges.begin(), edges.end());
    MeshEdges out;
    for (size_t i = 0; i < edges.size();) {
        size_t j = i;
        while (j < edges.size() && edges[j] == edges[i]) ++j;
        if (j - i == 1) ++out.open;
        if (j - i > 2) ++out.nonManifold;
        i = j;
    }
    return out;
}

namespace {

using Point = std::array<double, 3>;

void bounds(const std::vector<Point>& p, Point& lo, Point& hi)
{
    lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    for (const Point& q : p)
        for (int a = 0; a < 3; ++a)
            lo[a] = std::min(lo[a], q[a]), hi[a] = std::max(hi[a], q[a]);
}

/// Rotation by degrees about x, then y, then z.
Point rotated(Point p, const std::array<double, 3>& degrees)
{
    for (int axis = 0; axis < 3; ++axis) {
        if (degrees[axis] == 0) continue;
        const double r = degrees[axis] * M_PI / 180, c = std::cos(r), s = std::sin(r);
        const int i = (axis + 1) % 3, j = (axis + 2) % 3; // the plane the rotation turns
        const double pi = p[i], pj = p[j];
        p[i] = c * pi - s * pj, p[j] = s * pi + c * pj;
    }
    return p;
}

std::string number(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
}

} // namespace

std::vector<std::array<double, 3>> placedPoints(const TriangleMesh& mesh, const MeshPlacement& place)
{
    std::vector<Point> p(mesh.points.size());
    for (size_t i = 0; i < p.size(); ++i)
        p[i] = {mesh.points[i][0], mesh.points[i][1], mesh.points[i][2]};
    Point lo, hi;
    bounds(p, lo, hi);
    const Point centre{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
    for (Point& q : p)
        q = rotated({q[0] - centre[0], q[1] - centre[1], q[2] - centre[2]}, place.rotate);
    bounds(p, lo, hi);
    const double side = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
    const double scale = place.fit > 0 ? place.fit / side : place.scale;
    for (Point& q : p)
        for (int a = 0; a < 3; ++a)
            q[a] = (q[a] - (lo[a] + hi[a]) / 2) * scale + place.at[a];
    return p;
}

namespace {

/// The placed points relative to `origin` (a whole voxel), as OpenVDB's floats: exact enough
/// anywhere in the index range, since only the mesh's own size is left.
std::vector<openvdb::Vec3s> relativePoints(const std::vector<Point>& p, const nanovdb::Coord& origin)
{
    std::vector<openvdb::Vec3s> out(p.size());
    for (size_t i = 0; i < p.size(); ++i)
        out[i] = openvdb::Vec3s(float(p[i][0] - origin[0]), float(p[i][1] - origin[1]), float(p[i][2] - origin[2]));
    return out;
}

/// The grid's voxels and tiles whose value passes `inside`, as coordinates plus `origin`, sorted.
template <class Iter, class Test>
std::vector<nanovdb::Coord> voxelsWhere(Iter it, const nanovdb::Coord& origin, Test inside)
{
    std::vector<nanovdb::Coord> out;
    for (; it; ++it) {
        if (!inside(*it)) continue;
        const openvdb::CoordBBox b = it.getBoundingBox();
        for (int x = b.min().x(); x <= b.max().x(); ++x)
            for (int y = b.min().y(); y <= b.max().y(); ++y)
                for (int z = b.min().z(); z <= b.max().z(); ++z)
                    out.push_back(nanovdb::Coord(x + origin[0], y + origin[1], z + origin[2]));
    }
    std::sort(out.begin(), out.end(), [](const nanovdb::Coord& a, const nanovdb::Coord& b) { return a < b; });
    return out;
}

} // namespace

std::vector<nanovdb::Coord> meshVoxels(const TriangleMesh& mesh, const MeshPlacement& place, const std::string& name,
                                       double limit)
{
    if (!(place.shell > 0)) {
        const MeshEdges e = meshEdges(mesh);
        if (e.open || e.nonManifold)
            throw MeshError(name + ": not a closed surface (" + std::to_string(e.open) + " edges with one triangle, " +
                            std::to_string(e.nonManifold) +
                            " with three or more), so it has no inside: repair it, or add 'shell T' for the voxels "
                            "within T/2 of it");
    }
    const std::vector<Point> p = placedPoints(mesh, place);
    Point lo, hi;
    bounds(p, lo, hi);
    const double reach = place.shell > 0 ? place.shell / 2 + 1 : 1;
    double volume = 1;
    for (int a = 0; a < 3; ++a) {
        if (!(lo[a] - reach >= -limit && hi[a] + reach <= limit))
            throw MeshError(name + ": the placed mesh spans " + number(hi[0] - lo[0]) + " x " + number(hi[1] - lo[1]) +
                            " x " + number(hi[2] - lo[2]) + " voxels from (" + number(lo[0]) + ", " + number(lo[1]) +
                            ", " + number(lo[2]) + "), past the index range +-" + number(limit));
        volume *= hi[a] - lo[a] + 2 * reach;
    }
    if (volume >= 4294967296.0)
        throw MeshError(name + ": the placed mesh's box holds " + number(volume) +
                        " voxels: at most 2^32 (make it smaller with 'scale' or 'fit')");
    static std::once_flag once;
    std::call_once(once, [] { openvdb::initialize(); });
    const nanovdb::Coord origin(int(std::floor(lo[0])), int(std::floor(lo[1])), int(std::floor(lo[2])));
    const std::vector<openvdb::Vec3s> points = relativePoints(p, origin);
    std::vector<openvdb::Vec3I> triangles(mesh.triangles.size());
    for (size_t i = 0; i < triangles.size(); ++i)
        triangles[i] = openvdb::Vec3I(mesh.triangles[i][0], mesh.triangles[i][1], mesh.triangles[i][2]);
    const auto xform = openvdb::math::Transform::createLinearTransform(1.0);
    if (place.shell > 0) {
        const float half = float(place.shell / 2);
        const auto d = openvdb::tools::meshToUnsignedDistanceField<openvdb::FloatGrid>(*xform, points, triangles, {},
                                                                                        half + 2);
        return voxelsWhere(d->tree().cbeginValueOn(), origin, [&](float v) { return v < half; });
    }
    const auto sdf = openvdb::tools::meshToLevelSet<openvdb::FloatGrid>(*xform, points, triangles, 3.0f);
    return voxelsWhere(sdf->tree().cbeginValueAll(), origin, [](float v) { return v < 0; });
}

} // namespace vbm
