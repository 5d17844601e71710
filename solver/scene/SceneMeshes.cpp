// SPDX-License-Identifier: Apache-2.0
// The mesh statements of a scene (see SceneMeshes.h).
#include "scene/SceneMeshes.h"

#include "Mesh.h"

#include <algorithm>
#include <filesystem>

namespace vbm::scenetext {

namespace {

/// The options after FILE, in any order, each at most once.
MeshPlacement placementOf(const std::string& source, const Line& l, size_t k)
{
    MeshPlacement p;
    std::vector<std::string> seen;
    const auto triple = [&](size_t at, std::array<double, 3>& v, double lo, double hi, const char* what) {
        for (int a = 0; a < 3; ++a)
            v[a] = numberIn(source, l, at + a, lo, hi, what);
    };
    while (k < l.words.size()) {
        const std::string& key = l.words[k];
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) fail(source, l.number, "'" + key + "' given twice");
        seen.push_back(key);
        if (key == "scale") {
            p.scale = numberIn(source, l, k + 1, 1e-9, 1e9, "scale S (voxels per mesh unit)"), k += 2;
        } else if (key == "fit") {
            p.fit = numberIn(source, l, k + 1, 1, 1e7, "fit L (the largest side, in voxels)"), k += 2;
        } else if (key == "shell") {
            p.shell = numberIn(source, l, k + 1, 1, 1000, "shell T (the thickness, in voxels)"), k += 2;
        } else if (key == "at") {
            triple(k + 1, p.at, -SafeCoordinate, SafeCoordinate, "a coordinate (the safe index range is +-2^30)"), k += 4;
        } else if (key == "rotate") {
            triple(k + 1, p.rotate, -360, 360, "a rotation (degrees)"), k += 4;
        } else {
            fail(source, l.number,
                 "unknown mesh option '" + key + "' (fit L, scale S, at X Y Z, rotate AX AY AZ, shell T)");
        }
    }
    if (p.fit > 0 && std::find(seen.begin(), seen.end(), "scale") != seen.end())
        fail(source, l.number, "give 'fit' or 'scale', not both");
    return p;
}

HostGridHandle gridOfUnion(const std::vector<const CoordList*>& lists)
{
    CoordList all;
    for (const CoordList* c : lists)
        all.insert(all.end(), c->begin(), c->end());
    if (all.empty()) return {};
    std::sort(all.begin(), all.end(), [](const nanovdb::Coord& a, const nanovdb::Coord& b) { return a < b; });
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return indexGridFromCoords(all);
}

nanovdb::CoordBBox boundsOf(const CoordList& c)
{
    nanovdb::CoordBBox b;
    for (const nanovdb::Coord& x : c)
        b.expand(x);
    return b;
}

} // namespace

CoordList meshLineVoxels(const std::string& source, const Line& l, size_t k, const std::string& baseDir)
{
    if (k + 1 >= l.words.size()) fail(source, l.number, "'" + l.words[0] + " mesh' needs a file");
    const MeshPlacement place = placementOf(source, l, k + 2);
    std::filesystem::path path(l.words[k + 1]);
    if (path.is_relative()) path = std::filesystem::path(baseDir) / path;
    CoordList voxels;
    try {
        voxels = meshVoxels(readMesh(path.string()), place, path.string(), SafeCoordinate);
    } catch (const MeshError& e) {
        std::error_code ec;
        const bool debianModel = path.string().rfind("/usr/share/assimp/", 0) == 0 && !std::filesystem::exists(path, ec);
        fail(source, l.number, std::string(e.what()) + (debianModel ? " (install assimp-testmodels: scripts/setup.sh)" : ""));
    }
    if (voxels.empty())
        fail(source, l.number, path.string() + ": the placed mesh covers no voxel (make it larger with 'fit' or 'scale')");
    if (double(voxels.size()) > MaxDomainVoxels)
        fail(source, l.number, path.string() + ": the placed mesh covers over 2^32 - 1024 voxels");
    return voxels;
}

void collectMeshes(const std::string& source, const std::vector<const Line*>& removes,
                   const std::vector<const Line*>& fields, const std::string& baseDir, ActiveRegion& region,
                   MeshVoxelLists& lists)
{
    std::vector<const CoordList*> solid, emitting;
    for (const Line* r : removes)
        if (r->words.size() >= 2 && r->words[1] == "mesh")
            solid.push_back(&(lists[r] = meshLineVoxels(source, *r, 1, baseDir)));
    for (const Line* f : fields)
        if (f->words[0] == "emitter" && f->words.size() >= 2 && f->words[1] == "mesh")
            emitting.push_back(&(lists[f] = meshLineVoxels(source, *f, 1, baseDir)));
    region.solid = gridOfUnion(solid);
    region.emitting = gridOfUnion(emitting);
}

void checkMeshSizes(const std::string& source, const MeshVoxelLists& lists, const nanovdb::CoordBBox& domain)
{
    for (const auto& [line, voxels] : lists) {
        const nanovdb::CoordBBox b = boundsOf(voxels);
        for (int a = 0; a < 3; ++a)
            if (int64_t(b.max()[a]) - b.min()[a] > int64_t(domain.max()[a]) - domain.min()[a])
                fail(source, line->number,
                     "the placed mesh spans " + std::to_string(b.dim()[0]) + " x " + std::to_string(b.dim()[1]) +
                         " x " + std::to_string(b.dim()[2]) + " voxels, larger than the domain's " +
                         std::to_string(domain.dim()[0]) + " x " + std::to_string(domain.dim()[1]) + " x " +
                         std::to_string(domain.dim()[2]) + " (make it smaller with 'fit' or 'scale')");
    }
}

} // namespace vbm::scenetext
