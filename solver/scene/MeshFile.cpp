// SPDX-License-Identifier: Apache-2.0
// Reading meshes with assimp (Mesh.h): every triangle of every mesh, the node transforms baked
// in, points at one position merged, then checked: finite points, triangles with an area, a
// size this machine can voxelize.
#include "MemoryPlan.h"
#include "Mesh.h"
#include "scene/MeshFileChecks.h"

#include <assimp/BaseImporter.h>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <string_view>
#include <unordered_map>

namespace vbm {

namespace {

/// A check inside assimp that failed (aiAssertViolation below).
struct AssimpCheckFailed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Bytes the voxelization needs per triangle, about: our arrays, OpenVDB's copies and its
/// per-triangle work (measured peak over 1M triangles, with headroom).
constexpr double BytesPerTriangle = 256;

/// The host memory available now (MemoryPlan's offer, which VBM_HOST_MEMORY caps), in bytes;
/// a large number where it cannot be read.
double availableMemory()
{
    const uint64_t host = memoryOffer(Backend::Cpu).host;
    return host ? double(host) : 1e18;
}

std::string gib(double bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / double(1ull << 30));
    return text;
}

/// What assimp does while reading: checks the structure it built.
constexpr unsigned ReadFlags = aiProcess_ValidateDataStructure;
/// assimp's post-processing, after our own check (postProcessed): triangles only, node
/// transforms applied.
constexpr unsigned PostProcessFlags = aiProcess_Triangulate | aiProcess_PreTransformVertices | aiProcess_SortByPType;

/// The formats read: those the tests and the fuzz target cover (tests/test_mesh.cpp,
/// tests/fuzz/fuzz_mesh.cpp), named in every "not a mesh" error.
constexpr std::string_view ReadFormats = "OBJ, PLY, STL, glTF/GLB, Collada, OFF or FBX";
constexpr std::array<std::string_view, 8> ReadExtensions = {"obj", "ply", "stl", "gltf", "glb", "dae", "off", "fbx"};

/// Whether an assimp reader's extension list (space-separated) names one of ReadExtensions.
bool readsAFormatWeRead(std::string_view extensions)
{
    for (size_t begin = 0; begin < extensions.size();) {
        const size_t end = std::min(extensions.find(' ', begin), extensions.size());
        if (std::find(ReadExtensions.begin(), ReadExtensions.end(), extensions.substr(begin, end - begin)) !=
            ReadExtensions.end())
            return true;
        begin = end + 1;
    }
    return false;
}

/// Leaves the importer only the readers of ReadFormats. assimp guesses a file's format from
/// its bytes when no reader claims its extension, and its 40-odd other readers have not been
/// fuzzed here: a 20-byte file taken for OpenGEX read past its buffer
/// (tests/fuzz/findings/README.md).
void keepTheReadersWeTest(Assimp::Importer& importer)
{
    for (size_t i = importer.GetImporterCount(); i-- > 0;) {
        const aiImporterDesc* about = importer.GetImporterInfo(i);
        if (about && about->mFileExtensions && readsAFormatWeRead(about->mFileExtensions)) continue;
        Assimp::BaseImporter* reader = importer.GetImporter(i);
        importer.UnregisterLoader(reader);
        delete reader; // unregistered, the importer no longer deletes it
    }
}

void configure(Assimp::Importer& importer)
{
    keepTheReadersWeTest(importer);
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    // Only the geometry is used. What FBX carries beside it is not read: less of the reader
    // runs on a damaged file (a broken embedded texture made assimp 5.2 free memory twice,
    // tests/fuzz/findings/README.md).
    for (const char* part :
         {AI_CONFIG_IMPORT_FBX_READ_MATERIALS, AI_CONFIG_IMPORT_FBX_READ_TEXTURES, AI_CONFIG_IMPORT_FBX_READ_CAMERAS,
          AI_CONFIG_IMPORT_FBX_READ_LIGHTS, AI_CONFIG_IMPORT_FBX_READ_ANIMATIONS, AI_CONFIG_IMPORT_FBX_READ_WEIGHTS})
        importer.SetPropertyBool(part, false);
}

/// Points keyed by their exact bits, so the same position is one point.
struct PointKey {
    uint32_t bits[3];
    bool operator==(const PointKey& o) const { return std::memcmp(bits, o.bits, sizeof bits) == 0; }
};
struct PointHash {
    size_t operator()(const PointKey& k) const
    {
        uint64_t h = 1469598103934665603ull;
        for (uint32_t b : k.bits)
            h = (h ^ b) * 1099511628211ull;
        return size_t(h);
    }
};

bool finite(const aiVector3D& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

/// Twice the triangle's area is zero: a degenerate triangle (also three distinct but collinear points).
bool degenerate(const std::array<float, 3>& a, const std::array<float, 3>& b, const std::array<float, 3>& c)
{
    const double u[3] = {double(b[0]) - a[0], double(b[1]) - a[1], double(b[2]) - a[2]};
    const double v[3] = {double(c[0]) - a[0], double(c[1]) - a[1], double(c[2]) - a[2]};
    const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    return n[0] == 0 && n[1] == 0 && n[2] == 0;
}

/// The checked, merged mesh of an imported scene.
TriangleMesh meshOf(const aiScene& scene, const std::string& name)
{
    uint64_t faces = 0;
    for (unsigned m = 0; m < scene.mNumMeshes; ++m)
        faces += scene.mMeshes[m]->mNumFaces;
    if (faces >= (1ull << 32)) throw MeshError(name + ": " + std::to_string(faces) + " triangles: at most 2^32 - 1");
    if (double(faces) * BytesPerTriangle > availableMemory())
        throw MeshError(name + ": " + std::to_string(faces) + " triangles need about " +
                        gib(double(faces) * BytesPerTriangle) + " to voxelize, more than the " +
                        gib(availableMemory()) + " free");
    TriangleMesh mesh;
    std::unordered_map<PointKey, uint32_t, PointHash> index;
    uint64_t degenerateCount = 0;
    for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
        const aiMesh& in = *scene.mMeshes[m];
        std::vector<uint32_t> merged(in.mNumVertices);
        for (unsigned v = 0; v < in.mNumVertices; ++v) {
            const aiVector3D& p = in.mVertices[v];
            if (!finite(p))
                throw MeshError(name + ": point " + std::to_string(v) + " of mesh " + std::to_string(m) +
                                " is not a finite number");
            const std::array<float, 3> q{p.x == 0 ? 0.f : p.x, p.y == 0 ? 0.f : p.y, p.z == 0 ? 0.f : p.z}; // -0 is 0
            PointKey key;
            std::memcpy(key.bits, q.data(), sizeof key.bits);
            const auto [it, added] = index.try_emplace(key, uint32_t(mesh.points.size()));
            if (added) mesh.points.push_back(q);
            merged[v] = it->second;
        }
        for (unsigned f = 0; f < in.mNumFaces; ++f) {
            const aiFace& face = in.mFaces[f];
            if (face.mNumIndices != 3) continue; // points and lines (SortByPType keeps them apart)
            std::array<uint32_t, 3> t{};
            for (int k = 0; k < 3; ++k) {
                if (face.mIndices[k] >= in.mNumVertices)
                    throw MeshError(name + ": triangle " + std::to_string(f) + " names a point the mesh lacks");
                t[k] = merged[face.mIndices[k]];
            }
            if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2] ||
                degenerate(mesh.points[t[0]], mesh.points[t[1]], mesh.points[t[2]])) {
                ++degenerateCount;
                continue;
            }
            mesh.triangles.push_back(t);
        }
    }
    if (mesh.triangles.empty())
        throw MeshError(name + (degenerateCount ? ": every triangle is degenerate (" + std::to_string(degenerateCount) +
                                                      " with no area)"
                                                : ": the mesh has no triangles"));
    return mesh;
}

/// Whether no reader claims `extension` (any case, without the dot): assimp then picks one by
/// the file's bytes.
bool guessed(const Assimp::Importer& importer, std::string extension)
{
    for (char& c : extension)
        c = char(std::tolower(uint8_t(c)));
    return !importer.IsExtensionSupported(extension.c_str());
}

/// Why assimp returned no scene, as one MeshError naming the mesh.
MeshError notRead(const Assimp::Importer& importer, const std::string& name)
{
    std::string why = importer.GetErrorString();
    while (!why.empty() && (why.back() == '\n' || why.back() == ' '))
        why.pop_back();
    for (char& c : why)
        if (c == '\n') c = ' ';
    if (why.empty()) why = "assimp could not read it";
    if (why.find("bad_alloc") != std::string::npos)
        return MeshError(name + ": the file declares more elements than fit in memory (damaged or enormous)");
    if (why.find("contains no faces") != std::string::npos)
        return MeshError(name + ": the mesh has no triangles (points or lines only, or a truncated file)");
    return MeshError(name + ": not a readable mesh (" + std::string(ReadFormats) + "): " + why);
}

/// The scene read, post-processed. assimp 5.2's SortByPType reads past its tables on a face
/// of no points (which its validation lets through: a damaged PLY, tests/fuzz/findings), so
/// such a face is refused between the reading and the post-processing.
const aiScene& postProcessed(Assimp::Importer& importer, const aiScene* read, const std::string& name)
{
    if (!read) throw notRead(importer, name);
    // an incomplete scene is not validated, and its meshes may lack what post-processing reads
    if (read->mFlags & AI_SCENE_FLAGS_INCOMPLETE)
        throw MeshError(name + ": the file is incomplete (truncated or damaged)");
    for (unsigned m = 0; m < read->mNumMeshes; ++m)
        for (unsigned f = 0; f < read->mMeshes[m]->mNumFaces; ++f)
            if (read->mMeshes[m]->mFaces[f].mNumIndices == 0)
                throw MeshError(name + ": face " + std::to_string(f) + " of mesh " + std::to_string(m) +
                                " has no points (damaged file)");
    const aiScene* scene = importer.ApplyPostProcessing(PostProcessFlags);
    if (!scene) throw notRead(importer, name);
    return *scene;
}

TriangleMesh imported(Assimp::Importer& importer, const aiScene* read, const std::string& name)
{
    return meshOf(postProcessed(importer, read, name), name);
}

/// The error for a failed assimp check, naming the mesh.
MeshError checkFailed(const std::string& name, const AssimpCheckFailed& e)
{
    return MeshError(name + ": assimp's reader failed its own check on it (damaged file): " + e.what());
}

} // namespace

TriangleMesh readMesh(const std::string& path)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw MeshError(path + (ec ? ": " + ec.message() : ": no such file"));
    if (std::filesystem::is_directory(path, ec)) throw MeshError(path + ": a folder, not a mesh file");
    // a pipe or a device would block or never end: only regular files (links to them too)
    if (!std::filesystem::is_regular_file(path, ec)) throw MeshError(path + ": not a regular file");
    std::ifstream probe(path, std::ios::binary);
    if (!probe) throw MeshError(path + ": cannot be opened: " + std::strerror(errno));
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) throw MeshError(path + ": cannot read its size: " + ec.message());
    if (size == 0) throw MeshError(path + ": the file is empty");
    // assimp holds the file and its own structures, several times the file's size
    if (double(size) * 8 > availableMemory())
        throw MeshError(path + ": " + gib(double(size)) + " of mesh needs more memory than the " +
                        gib(availableMemory()) + " free");
    Assimp::Importer importer;
    configure(importer);
    const std::string extension = std::filesystem::path(path).extension().string();
    const std::string ext = extension.empty() ? "" : extension.substr(1);
    if (const std::string why =
            refusedBeforeReading(std::string(std::istreambuf_iterator<char>(probe), {}), ext, guessed(importer, ext));
        !why.empty())
        throw MeshError(path + ": " + why);
    try {
        return imported(importer, importer.ReadFile(path, ReadFlags), path);
    } catch (const std::bad_alloc&) {
        throw MeshError(path + ": the mesh does not fit in memory");
    } catch (const AssimpCheckFailed& e) {
        throw checkFailed(path, e);
    }
}

TriangleMesh readMeshFromMemory(const void* data, size_t size, const std::string& extension, const std::string& name)
{
    if (size == 0) throw MeshError(name + ": the file is empty");
    Assimp::Importer importer;
    configure(importer);
    const std::string_view bytes(static_cast<const char*>(data), size);
    if (const std::string why = refusedBeforeReading(bytes, extension, guessed(importer, extension)); !why.empty())
        throw MeshError(name + ": " + why);
    try {
        return imported(importer, importer.ReadFileFromMemory(data, size, ReadFlags, extension.c_str()), name);
    } catch (const std::bad_alloc&) {
        throw MeshError(name + ": the mesh does not fit in memory");
    } catch (const AssimpCheckFailed& e) {
        throw checkFailed(name, e);
    }
}

} // namespace vbm

// Debian 12's assimp is built with its internal checks on (ai_assert), and a failed one calls
// abort(): a damaged file (tests/fuzz/findings/README.md) would end the program. This definition
// takes the place of the library's (ELF symbol interposition: the library calls it through its
// PLT) and throws instead, which the readers above turn into a MeshError.
namespace Assimp {
void aiAssertViolation(const char* failedExpression, const char* file, int line)
{
    throw vbm::AssimpCheckFailed(std::string(failedExpression) + " (" + file + ":" + std::to_string(line) + ")");
}
} // namespace Assimp
