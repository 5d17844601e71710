// SPDX-License-Identifier: Apache-2.0
// The domain statements of fixed-topology scenes (see SceneDomain.h): `domain shell`, `box`,
// `sphere` and `nvdb`, less the removed balls, within the safe index range and the voxel cap.
#include "scene/SceneDomain.h"

#include "GridFile.h"
#include "scene/SceneMeshes.h"
#include "kernels/ActiveSetBodies.h"
#include "vbm/BuildVoxelBlockManager.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace vbm::scenetext {

namespace {

/// Voxels of a level set: phi < 0 over its bounding box (interior), or its active voxels (band).
/// The file goes through the validated loader, so its tree and bounding box are sound.
CoordList levelSetVoxels(const std::string& path, bool interior, const std::string& source, int line)
{
    GridFileContents file;
    try {
        file = readGridFile(path);
    } catch (const InputError& e) {
        fail(source, line, e.what());
    }
    for (const auto& f : file.grids) {
        const auto* g = f.handle.grid<float>();
        if (!g) continue;
        CoordList out;
        if (interior) {
            const auto& bbox = g->indexBBox();
            double samples = 1;
            for (int a = 0; a < 3; ++a) // in 64 bits: bbox.dim() is 32-bit and overflows for wide boxes
                samples *= double(int64_t(bbox.max()[a]) - int64_t(bbox.min()[a]) + 1);
            if (samples > 1e9) fail(source, line, path + ": level set too large to fill (> 1e9 voxels in its box)");
            auto acc = g->getAccessor();
            for (auto it = bbox.begin(); it; ++it)
                if (acc.getValue(*it) < 0.f) out.push_back(*it);
        } else {
            for (uint32_t i = 0; i < g->tree().nodeCount(0); ++i) {
                const auto& leaf = g->tree().getFirstNode<0>()[i];
                for (auto on = leaf.valueMask().beginOn(); on; ++on)
                    out.push_back(leaf.offsetToGlobalCoord(*on));
            }
        }
        if (out.empty())
            fail(source, line, path + ": the level set has no " + (interior ? "interior" : "active voxels"));
        return out;
    }
    fail(source, line, path + ": holds no float grid (need a float level set)");
}

/// The one voxel cap of every domain kind.
void checkVoxelCount(const std::string& source, const Line& d, double count)
{
    if (count >= MaxDomainVoxels) {
        char what[160];
        std::snprintf(
            what, sizeof what,
            "the domain would hold about %.3g voxels, over the limit of 2^32 - 1024 (the VBM's 32-bit indices)", count);
        fail(source, d.number, what);
    }
}

/// The voxels of `domain box` or `domain sphere`, by leaf.
LeafVoxelList boxOrSphereLeaves(const std::string& source, const Line& d, const DomainHooks& hooks)
{
    const bool sphere = d.words[1] == "sphere";
    double b[6];
    Sphere s{};
    double count = 0;
    if (!sphere) {
        expectCount(source, d, 8);
        for (int k = 0; k < 6; ++k)
            b[k] = std::floor(coordinate(source, d, 2 + k));
        count = (b[3] - b[0]) * (b[4] - b[1]) * (b[5] - b[2]);
    } else {
        expectCount(source, d, 6);
        s = sphereOf(source, d, 2);
        for (int k = 0; k < 3; ++k)
            b[k] = std::floor(s[k] - s[3]), b[k + 3] = std::ceil(s[k] + s[3]) + 1;
        count = 4.0 / 3.0 * 3.14159265358979 * s[3] * s[3] * s[3];
    }
    if (!(b[3] > b[0] && b[4] > b[1] && b[5] > b[2])) fail(source, d.number, "the box is empty");
    checkVoxelCount(source, d, count);
    if (hooks.beforeBuild) hooks.beforeBuild(count);
    const nanovdb::CoordBBox box{nanovdb::Coord(int(b[0]), int(b[1]), int(b[2])),
                                 nanovdb::Coord(int(b[3]) - 1, int(b[4]) - 1, int(b[5]) - 1)};
    const Ball ball{s[0], s[1], s[2], s[3]};
    return leavesOfShape(
        box, [&](const nanovdb::Coord& c) { return !sphere || solver::insideBall(ball, c); }, hooks.progress);
}

} // namespace

HostGridHandle buildDomain(const std::string& source, const Line& d, const std::vector<const Line*>& removes,
                           const std::string& baseDir, const ActiveRegion& region, const MeshVoxelLists& meshes,
                           const DomainHooks& hooks)
{
    if (d.words.size() < 2) fail(source, d.number, "'domain' needs a shape: shell, box, sphere, nvdb or open");
    const std::string& shape = d.words[1];
    HostGridHandle grid;
    LeafVoxelList leaves; // the domain by leaf, where it is not built at once (the shell)
    if (shape == "shell") {
        expectCount(source, d, 4);
        const double r = number(source, d, 2), t = number(source, d, 3);
        if (!(r > 0 && t > 0 && r < 1e5)) fail(source, d.number, "shell needs a positive radius and thickness");
        const double outer = r + t / 2 + 1, inner = std::max(0.0, r - t / 2 - 1);
        const double count = 4.0 / 3.0 * 3.14159265358979 * (outer * outer * outer - inner * inner * inner);
        checkVoxelCount(source, d, count);
        if (hooks.beforeBuild) hooks.beforeBuild(count);
        grid = makeSphereShell(r, t, nanovdb::Coord(0), hooks.progress);
    } else if (shape == "box" || shape == "sphere") {
        leaves = boxOrSphereLeaves(source, d, hooks);
    } else if (shape == "nvdb") {
        expectCount(source, d, 4);
        if (d.words[3] != "interior" && d.words[3] != "band")
            fail(source, d.number, "nvdb domain takes 'interior' or 'band', not '" + d.words[3] + "'");
        std::filesystem::path p(d.words[2]);
        if (p.is_relative()) p = std::filesystem::path(baseDir) / p;
        std::error_code ec; // a name too long for the system is an error, not an exception
        if (!std::filesystem::exists(p, ec))
            fail(source, d.number, p.string() + (ec ? ": " + ec.message() : ": no such file"));
        const CoordList coords = levelSetVoxels(p.string(), d.words[3] == "interior", source, d.number);
        if (hooks.beforeBuild) hooks.beforeBuild(double(coords.size()));
        leaves = leavesOfCoords(coords);
    } else if (shape == "mesh") {
        const CoordList coords = meshLineVoxels(source, d, 1, baseDir);
        if (hooks.beforeBuild) hooks.beforeBuild(double(coords.size()));
        leaves = leavesOfCoords(coords);
    } else {
        fail(source, d.number, "unknown domain shape '" + shape + "' (shell, box, sphere, nvdb, mesh or open)");
    }
    if (!region.obstacles.empty() || region.solid) {
        if (leaves.empty()) leaves = leavesOfGrid(grid.grid<nanovdb::ValueOnIndex>()); // the shell
        checkMeshSizes(source, meshes, voxelBounds(leaves));
        const IndexGrid* solid = region.solid ? region.solid.grid<nanovdb::ValueOnIndex>() : nullptr;
        size_t ball = 0;
        for (const Line* r : removes) { // in order, so the error names the line that empties the domain
            if (r->words[1] == "mesh")
                clearVoxels(leaves, [&](const nanovdb::Coord& c) { return solid->tree().isActive(c); });
            else
                clearVoxels(leaves,
                             [&](const nanovdb::Coord& c) { return solver::insideBall(region.obstacles[ball], c); }),
                    ++ball;
            if (voxelCount(leaves) == 0) fail(source, r->number, "this 'remove' leaves the domain no voxel");
        }
    }
    if (!leaves.empty()) {
        checkVoxelCount(source, d, double(voxelCount(leaves)));
        grid = indexGridFromLeaves(leaves, hooks.progress);
    }
    const IndexGrid* g = grid.grid<nanovdb::ValueOnIndex>();
    if (!g || g->activeVoxelCount() == 0) fail(source, d.number, "the domain has no voxels");
    const nanovdb::CoordBBox box = g->indexBBox();
    for (int a = 0; a < 3; ++a)
        if (std::fabs(double(box.min()[a])) > SafeCoordinate || std::fabs(double(box.max()[a])) > SafeCoordinate)
            fail(source, d.number, "the domain reaches past the safe index range (+-2^30)");
    if (const std::string why = checkVbmGrid(g); !why.empty()) fail(source, d.number, "unusable domain: " + why);
    return grid;
}

} // namespace vbm::scenetext
