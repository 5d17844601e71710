// SPDX-License-Identifier: Apache-2.0
// Meshes in: triangle meshes read with assimp (OBJ, PLY, STL, glTF/GLB, Collada, OFF and FBX)
// and the voxels they cover, found with OpenVDB's mesh-to-level-set. The
// `remove mesh`, `emitter mesh` and `domain mesh` statements (assets/scenes/README.md) use them.
#pragma once

#include <nanovdb/NanoVDB.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace vbm {

/// A mesh that cannot be used: the message names the file and what is wrong, in one line.
struct MeshError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Triangles over shared points: every point finite, every triangle of three distinct points
/// with a nonzero area, points at the same position merged into one (so edges can be matched).
struct TriangleMesh {
    std::vector<std::array<float, 3>> points;
    std::vector<std::array<uint32_t, 3>> triangles;
};

/// Reads every triangle of a mesh file, its nodes' transforms applied (points and lines are
/// dropped). Throws MeshError for a missing or unreadable file, a format other than OBJ, PLY,
/// STL, glTF/GLB, Collada, OFF and FBX (the readers tested and fuzzed here),
/// a truncated or damaged file, no triangles, a point that is NaN or infinite, only degenerate
/// triangles, or a mesh too large for this machine's free memory.
TriangleMesh readMesh(const std::string& path);

/// readMesh on bytes in memory; `extension` (e.g. "obj") tells assimp the format, `name` names
/// the mesh in errors. The fuzz target's way in.
TriangleMesh readMeshFromMemory(const void* data, size_t size, const std::string& extension, const std::string& name);

/// Edges used by one triangle only, and by three or more: both 0 for a closed manifold surface,
/// whose inside is well defined.
struct MeshEdges {
    uint64_t open = 0, nonManifold = 0;
};
MeshEdges meshEdges(const TriangleMesh& mesh);

/// Where a mesh goes, in voxels: rotated about its bounding box's centre by `rotate` degrees
/// about x, then y, then z; scaled by `scale` voxels per mesh unit, or so that its largest side
/// is `fit` voxels (fit > 0 wins); moved so its bounding box's centre is at `at`. With
/// `shell` > 0 the voxels are those within shell/2 of the surface (an open mesh's way in);
/// otherwise the inside of a closed mesh.
struct MeshPlacement {
    double scale = 1, fit = 0, shell = 0;
    std::array<double, 3> at{0, 0, 0}, rotate{0, 0, 0};
};

/// The placed mesh's points (index space, voxel (i, j, k) at the point (i, j, k)).
std::vector<std::array<double, 3>> placedPoints(const TriangleMesh& mesh, const MeshPlacement& place);

/// The voxels a placed mesh covers: its inside (a closed mesh; MeshError naming `name` when it
/// is open or non-manifold, with the edge counts and the `shell` way out), or its shell.
/// Throws MeshError when the placed mesh reaches past +-`limit` along an axis, naming its size.
std::vector<nanovdb::Coord> meshVoxels(const TriangleMesh& mesh, const MeshPlacement& place, const std::string& name,
                                       double limit);

} // namespace vbm
