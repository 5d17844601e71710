// SPDX-License-Identifier: Apache-2.0
// Reading meshes with assimp (Mesh.h): every triangle of every mesh, the node transforms baked
// in, points at one position merged, then checked: finite points, triangles with an area, a
// size this machine can voxelize.
#include "Mesh.h"
#include "MemoryPlan.h"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
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

void configure(Assimp::Importer& importer)
{
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    // Only the geometry is used. What FBX carries beside it is not read: less of the reader
    // runs on a damaged file (a broken embedded texture made assimp 5.2 free memory twice,
    // tests/fuzz/findings/README.md).
    for (const char* part : {AI_CONFIG_IMPORT_FBX_READ_MATERIALS, AI_CONFIG_IMPORT_FBX_READ_TEXTURES,
                             AI_CONFIG_IMPORT_FBX_READ_CAMERAS, AI_CONFIG_IMPORT_FBX_READ_LIGHTS,
                             AI_CONFIG_IMPORT_FBX_READ_ANIMATIONS, AI_CONFIG_IMPORT_FBX_READ_WEIGHTS})
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

/// Whether `text` holds `word`, in any case.
bool holdsNoCase(std::string_view text, std::string_view word)
{
    const auto same = [](char a, char b) { return std::tolower(uint8_t(a)) == std::tolower(uint8_t(b)); };
    return std::search(text.begin(), text.end(), word.begin(), word.end(), same) != text.end();
}

/// Bytes that assimp 5.2 (Debian 12's) would read forever or allocate without bound for,
/// found by tests/fuzz/fuzz_mesh.cpp and the tests (tests/fuzz/findings/README.md): the reason,
/// or "" when there is none. Checked before assimp sees the file, so a damaged mesh is an error
/// instead of a hang or an out-of-memory abort. assimp picks its reader by the extension, or by
/// the bytes when no reader claims the extension.
std::string refusedBeforeReading(std::string_view bytes, std::string extension, const Assimp::Importer& importer)
{
    for (char& c : extension)
        c = char(std::tolower(uint8_t(c)));
    const bool guessed = !importer.IsExtensionSupported(extension.c_str());
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    // PLY (its reader takes a file starting "ply", in any case): without an end_header line it
    // rereads the header's last line forever; an element count larger than the file (each
    // element takes a byte at least) makes it allocate for them all first.
    if ((extension == "ply" || guessed) && bytes.size() >= 3 && holdsNoCase(bytes.substr(0, 3), "ply")) {
        for (size_t begin = 0; begin < bytes.size();) {
            size_t end = bytes.find_first_of("\r\n", begin);
            if (end == bytes.npos) end = bytes.size();
            std::string_view line = bytes.substr(begin, end - begin);
            while (!line.empty() && space(line.front()))
                line.remove_prefix(1);
            if (line.substr(0, 10) == "end_header" && (line.size() == 10 || space(line[10]))) return "";
            if (line.substr(0, 8) == "element ") {
                const size_t at = line.find_last_of(" \t");
                const double count = std::strtod(std::string(line.substr(at + 1)).c_str(), nullptr);
                if (count > double(bytes.size()))
                    return "a PLY header declaring more elements (" + std::string(line.substr(8)) +
                           ") than its " + std::to_string(bytes.size()) + " bytes can hold (damaged)";
            }
            begin = end + 1;
        }
        return "a PLY file whose header has no 'end_header' (truncated or damaged)";
    }
    // Collada: a <p> (a primitive's point indices) holding anything but digits, signs and
    // spaces makes its reader add index 0 forever without moving on, until memory runs out.
    // (Also refused: a <p> holding a comment or CDATA, which no exporter writes.)
    if ((extension == "dae" || extension == "xml" || guessed) && holdsNoCase(bytes.substr(0, 4096), "<collada")) {
        const auto index = [&](char c) { return std::isdigit(uint8_t(c)) || space(c) || c == '-' || c == '+'; };
        for (size_t at = bytes.find("<p"); at != bytes.npos; at = bytes.find("<p", at + 2)) {
            if (at + 2 < bytes.size() && !space(bytes[at + 2]) && bytes[at + 2] != '>') continue; // <param>, <p/>
            const size_t open = bytes.find('>', at), close = bytes.find('<', open);
            if (open == bytes.npos || close == bytes.npos) break;
            const std::string_view indices = bytes.substr(open + 1, close - open - 1);
            if (bytes.substr(close, 3) != "</p" || !std::all_of(indices.begin(), indices.end(), index))
                return "a Collada <p> (point indices) holding something other than whole numbers";
        }
    }
    return "";
}

/// Why assimp returned no scene, as one MeshError naming the mesh.
MeshError notRead(const Assimp::Importer& importer, const std::string& name)
{
    std::string why = importer.GetErrorString();
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    for (char& c : why)
        if (c == '\n') c = ' ';
    if (why.empty()) why = "assimp could not read it";
    if (why.find("bad_alloc") != std::string::npos)
        return MeshError(name + ": the file declares more elements than fit in memory (damaged or enormous)");
    if (why.find("contains no faces") != std::string::npos)
        return MeshError(name + ": the mesh has no triangles (points or lines only, or a truncated file)");
    return MeshError(name + ": not a mesh assimp can read (OBJ, PLY, STL, glTF/GLB, FBX, ...): " + why);
}

/// The scene read, post-processed. assimp 5.2's SortByPType reads past its tables on a face
/// of no points (which its validation lets through: a damaged PLY, tests/fuzz/findings), so
/// such a face is refused between the reading and the post-processing.
const aiScene& postProcessed(Assimp::Importer& importer, const aiScene* read, const std::string& name)
{
    if (!read) throw notRead(importer, name);
    // an incomplete scene is not validated, and its meshes may lack what post-processing reads
    if (read->mFlags & AI_SCENE_FLAGS_INCOMPLETE) throw MeshError(name + ": the file is incomplete (truncated or damaged)");
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
    if (const std::string why = refusedBeforeReading(std::string(std::istreambuf_iterator<char>(probe), {}),
                                                extension.empty() ? "" : extension.substr(1), importer);
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
    if (const std::string why = refusedBeforeReading(bytes, extension, importer); !why.empty())
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
