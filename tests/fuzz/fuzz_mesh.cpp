// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the mesh loading path (solver/api/Mesh.h). A first byte '0'..'7' picks the
// format (Formats below) and the rest is the file's bytes for vbm::readMeshFromMemory; with any
// other first byte the whole input is the file and assimp guesses its format from the bytes (as
// readMesh does for an extension no reader claims), so model files serve as seeds unchanged. A mesh it
// returns must keep Mesh.h's promises (finite points, triangles naming distinct points), and is
// then voxelized as a scene would: meshVoxels at fit 16, with shell 2 when meshEdges says it is
// open or non-manifold, so OpenVDB's mesh-to-volume runs on every mesh assimp accepts.
// MeshError is the correct answer to a bad file; any other exception, a crash, a sanitizer
// report, a timeout or a broken promise is a finding (docs/testing.md).
// VBM_FUZZ_MESH_VERBOSE=1 prints each input's outcome (triangles and voxels, or the MeshError):
// an aid for checking that the seeds reach the voxelization; CI leaves it unset.
#include "FuzzSupport.h"

#include "Mesh.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

bool verbose = false;

// Formats assimp reads that a scene is likely to name.
constexpr std::array<const char*, 8> Formats = {"obj", "ply", "stl", "gltf", "glb", "dae", "off", "fbx"};

void checkMesh(const vbm::TriangleMesh& mesh)
{
    if (mesh.triangles.empty()) vbm::fuzz::lie("readMeshFromMemory returned a mesh without triangles");
    for (const auto& p : mesh.points)
        if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2]))
            vbm::fuzz::lie("readMeshFromMemory returned a point that is not finite");
    for (const auto& t : mesh.triangles) {
        if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
            vbm::fuzz::lie("readMeshFromMemory returned a triangle with a repeated point");
        for (uint32_t i : t)
            if (i >= mesh.points.size())
                vbm::fuzz::lie("readMeshFromMemory returned a triangle naming a missing point");
    }
}

} // namespace

// assimp 5.2.5 (Debian's, uninstrumented) leaks what it built when its FBX reader throws, the
// zlib stream of a compressed FBX array among it (tests/fuzz/findings/README.md). Suppressed here:
// allocations made inside libassimp, and zlib's inflate state (our code uses no zlib); leaks of
// our code, and every other report, still fail.
extern "C" const char* __lsan_default_suppressions() { return "leak:libassimp.so\nleak:inflateInit2_\n"; }

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    const char* v = std::getenv("VBM_FUZZ_MESH_VERBOSE");
    verbose = v && *v && *v != '0';
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1) return 0;
    const bool picked = data[0] >= '0' && data[0] < '0' + int(Formats.size());
    const std::string format = picked ? Formats[data[0] - '0'] : "";
    const std::string name = picked ? "fuzz." + format : "fuzz";
    if (picked) ++data, --size;
    try {
        const vbm::TriangleMesh mesh = vbm::readMeshFromMemory(data, size, format, name);
        checkMesh(mesh);
        const vbm::MeshEdges e = vbm::meshEdges(mesh);
        vbm::MeshPlacement place;
        place.fit = 16;
        if (e.open || e.nonManifold) place.shell = 2;
        // A mesh fitted to 16 voxels covers at most its (16 + 2 * reach)^3 box.
        const size_t voxels = vbm::meshVoxels(mesh, place, name, double(1 << 30)).size();
        if (voxels > 24 * 24 * 24) vbm::fuzz::lie("meshVoxels returned more voxels than a 16-voxel mesh's box holds");
        if (verbose)
            std::fprintf(stderr, "vbm-fuzz: %s: %zu triangles, %zu voxels%s\n", name.c_str(), mesh.triangles.size(),
                         voxels, place.shell > 0 ? " (open: shell 2)" : "");
    } catch (const vbm::MeshError& e) {
        if (verbose) std::fprintf(stderr, "vbm-fuzz: %s: MeshError: %s\n", name.c_str(), e.what());
    }
    return 0;
}
