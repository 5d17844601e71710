// SPDX-License-Identifier: Apache-2.0
// Meshes in (solver/api/Mesh.h, the scene's mesh statements): voxelization against the analytic
// cube and sphere, Debian's models in four formats, each bad mesh refused with one line, a plume
// round a mesh obstacle (no voxel of it active, divergence-free), a mesh emitter only inside its
// mesh (also after the active set is rebuilt), fixed domains with mesh obstacles and a mesh domain.
#include "Mesh.h"
#include "RunCommand.h"
#include "Scene.h"
#include "Solver.h"
#include "TestFolder.h"
#include "TestMeshes.h"
#include "vbm/VoxelBlockManager.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include <dlfcn.h>
#include <sys/stat.h>

using namespace vbm;
using namespace vbm::testmesh;

namespace {

const std::string Models = "/usr/share/assimp/models/";
const std::string NotReadable = "not a readable mesh (OBJ, PLY, STL, glTF/GLB, Collada, OFF or FBX): ";

std::string folder()
{
    static const std::string f = freshFolder("vbm-mesh", "meshes").string();
    return f;
}

std::string file(const std::string& name, const std::string& text) { return writeFile(folder() + "/" + name, text); }

std::set<std::array<int, 3>> voxelSet(const std::vector<nanovdb::Coord>& v)
{
    std::set<std::array<int, 3>> s;
    for (const auto& c : v)
        s.insert({c[0], c[1], c[2]});
    return s;
}

/// Every voxel more than a voxel inside `distance` < 0 is in the set, every voxel more than a voxel outside is not.
template <class Distance>
void expectWithinOneVoxel(const std::vector<nanovdb::Coord>& voxels, int reach, Distance distance)
{
    const auto set = voxelSet(voxels);
    for (int x = -reach; x <= reach; ++x)
        for (int y = -reach; y <= reach; ++y)
            for (int z = -reach; z <= reach; ++z) {
                const double d = distance(x, y, z);
                const bool in = set.count({x, y, z}) != 0;
                if (d < -1) {
                    ASSERT_TRUE(in) << x << " " << y << " " << z << " lies inside";
                }
                if (d > 1) {
                    ASSERT_FALSE(in) << x << " " << y << " " << z << " lies outside";
                }
            }
    for (const auto& c : set)
        ASSERT_LE(distance(c[0], c[1], c[2]), 1.0);
}

std::string meshError(const std::string& path)
{
    try {
        const TriangleMesh m = readMesh(path);
        meshVoxels(m, MeshPlacement{.fit = 20}, path, 1 << 30);
    } catch (const MeshError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(MeshVoxels, AUnitCubeIsWithinOneVoxelOfTheBox)
{
    const TriangleMesh m = readMesh(file("cube.obj", objText(unitCube())));
    ASSERT_EQ(m.triangles.size(), 12u);
    ASSERT_EQ(meshEdges(m).open, 0u);
    const auto v = meshVoxels(m, MeshPlacement{.fit = 20, .at = {0.3, -0.2, 0.1}}, "cube", 1 << 30);
    expectWithinOneVoxel(v, 14, [](int x, int y, int z) {
        return std::max({std::fabs(x - 0.3), std::fabs(y + 0.2), std::fabs(z - 0.1)}) - 10;
    });
}

TEST(MeshVoxels, ASphereMeshIsWithinOneVoxelOfTheBall)
{
    const TriangleMesh m = readMesh(file("sphere.obj", objText(unitSphere(4))));
    ASSERT_EQ(m.triangles.size(), 8u * 256);
    const auto v = meshVoxels(m, MeshPlacement{.fit = 32}, "sphere", 1 << 30);
    expectWithinOneVoxel(v, 20, [](int x, int y, int z) { return std::sqrt(double(x * x + y * y + z * z)) - 16; });
}

TEST(MeshVoxels, ScaleRotateAndShellPlaceTheVoxels)
{
    const TriangleMesh m = readMesh(file("cube.obj", objText(unitCube())));
    // a 4 x 8 x 2 box, rotated 90 degrees about z: 8 wide along x, 4 along y
    TriangleMesh box = m;
    for (auto& p : box.points)
        p = {p[0] * 4, p[1] * 8, p[2] * 2};
    const auto v = meshVoxels(box, MeshPlacement{.scale = 2, .at = {100, 0, 0}, .rotate = {0, 0, 90}}, "box", 1 << 30);
    expectWithinOneVoxel(v, 0, [](int, int, int) { return 0.0; }); // (nothing near the origin)
    nanovdb::CoordBBox b;
    for (const auto& c : v)
        b.expand(c);
    EXPECT_NEAR(b.dim()[0], 16, 1);
    EXPECT_NEAR(b.dim()[1], 8, 1);
    EXPECT_NEAR(b.dim()[2], 4, 1);
    EXPECT_NEAR((b.min()[0] + b.max()[0]) / 2.0, 100, 0.5);
    // a shell of thickness 2 round the sphere: the voxels within a voxel of radius 10
    const TriangleMesh s = readMesh(file("sphere.obj", objText(unitSphere(4))));
    const auto shell = meshVoxels(s, MeshPlacement{.fit = 20, .shell = 2}, "sphere", 1 << 30);
    for (const auto& c : shell)
        ASSERT_NEAR(std::sqrt(double(c[0] * c[0] + c[1] * c[1] + c[2] * c[2])), 10, 1.05);
    EXPECT_GT(shell.size(), 4 * 3.14 * 100); // about its area, times its thickness 2
}

TEST(MeshFiles, DebiansModelsReadTheSameInEveryFormat)
{
    // the same cube as OBJ, PLY and binary glTF; the duck (Collada) is closed, with 4212 triangles
    std::vector<size_t> counts;
    for (const char* f : {"OBJ/box.obj", "PLY/cube.ply", "glTF2/BoxTextured-glTF-Binary/BoxTextured.glb"})
        counts.push_back(meshVoxels(readMesh(Models + f), MeshPlacement{.fit = 30}, f, 1 << 30).size());
    EXPECT_EQ(counts[0], counts[1]);
    EXPECT_EQ(counts[0], counts[2]);
    EXPECT_NEAR(double(counts[0]), 31.0 * 31 * 31, 31.0 * 31 * 6);
    const TriangleMesh duck = readMesh(Models + "Collada/duck.dae");
    EXPECT_EQ(duck.triangles.size(), 4212u);
    EXPECT_EQ(meshEdges(duck).open, 0u);
    EXPECT_EQ(meshEdges(duck).nonManifold, 0u);
    // an open model: refused as a solid, taken as a shell
    const TriangleMesh wuson = readMesh(Models + "STL/Wuson.stl");
    EXPECT_GT(meshEdges(wuson).open, 0u);
    EXPECT_THROW(meshVoxels(wuson, MeshPlacement{.fit = 40}, "wuson", 1 << 30), MeshError);
    EXPECT_GT(meshVoxels(wuson, MeshPlacement{.fit = 40, .shell = 2}, "wuson", 1 << 30).size(), 1000u);
}

TEST(MeshFiles, EachBadMeshGetsOneLineNamingTheFile)
{
    const std::string spider = Models + "STL/Spider_binary.stl";
    std::ifstream in(spider, std::ios::binary);
    const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string duck = [] {
        std::ifstream d(Models + "Collada/duck.dae", std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(d)), std::istreambuf_iterator<char>());
    }();
    const std::string fifo = folder() + "/pipe.obj";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0); // reading it would block
    const std::vector<std::pair<std::string, std::string>> cases = {
        {folder() + "/missing.obj", "no such file"},
        {fifo, "not a regular file"},
        {folder(), "a folder, not a mesh file"},
        {file("unknown.xyz", "hello\n"), NotReadable},
        {file("empty.obj", ""), "the file is empty"},
        {file("points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n"), "no triangles"},
        {file("nan.obj", "v 0 0 0\nv 1 0 0\nv nan 1 0\nf 1 2 3\n"), "not a finite number"},
        {file("inf.obj", "v 0 0 0\nv 1 0 0\nv 1e999 1 0\nf 1 2 3\n"), "not a finite number"},
        {file("flat.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\nf 1 1 2\n"), "every triangle is degenerate"},
        {file("huge.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                          "property float z\nelement face 3000000000\nproperty list uchar int vertex_indices\n"
                          "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"),
         "than its 189 bytes can hold"},
        // a face of no points crashed assimp's post-processing (MeshFile.cpp)
        {file("empty-face.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                                "property float z\nelement face 2\nproperty list uchar int vertex_indices\n"
                                "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n0\n"),
         "face 1 of mesh 0 has no points (damaged file)"},
        {file("cut.stl", whole.substr(0, whole.size() / 2)), NotReadable},
        {file("cut.dae", duck.substr(0, duck.size() / 3)), NotReadable},
        {Models + "3DS/CameraRollAnim.3ds", NotReadable}, // assimp reads 3DS; we do not (MeshFile.cpp)
        {file("open.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\n"), "not a closed surface"},
    };
    for (const auto& [path, expected] : cases) {
        const std::string e = meshError(path);
        EXPECT_NE(e.find(path + ": "), std::string::npos) << e;
        EXPECT_NE(e.find(expected), std::string::npos) << path << ": " << e;
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    }
}

// The fuzz target's findings that would hang or abort (tests/fuzz/findings/README.md), read by
// the normal build as fuzz_mesh reads them (a first byte '0'-'7' names the format): a PLY
// header that never ends, a Collada index that is no number (both refused before assimp reads
// them), a PLY whose faces of no points failed assimp's own check, PLYs declaring an element
// twice (faces of no points that crashed its SortByPType, or its vertex array overrun), a
// Collada accessor past its array, and bytes assimp took for a format we do not read
// (MeshFileChecks.cpp, MeshFile.cpp).
TEST(MeshFiles, TheFuzzFindingsAreRefusedInsteadOfHangingOrAborting)
{
    const std::string findings = std::string(VBM_SOURCE_DIR) + "/tests/fuzz/findings/fuzz_mesh/";
    const char* formats[] = {"obj", "ply", "stl", "gltf", "glb", "dae", "off", "fbx"};
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"ply-no-end-header.ply", "has no 'end_header'"},
        {"collada-index-not-a-number.dae", "holding something other than whole numbers"},
        {"ply-triangulate-assert.ply", "face 0 of mesh 0 has no points (damaged file)"},
        {"ply-sort-by-type-empty-face.ply", "a PLY header declaring element 'face' twice (damaged)"},
        {"ply-second-vertex-element-overflow.ply", "a PLY header declaring element 'vertex' twice (damaged)"},
        {"fbx-ascii-parse-error-leak.fbx", NotReadable},
        {"opengex-guessed-overread.bin", NotReadable},
        {"collada-accessor-past-array.dae",
         "a Collada accessor reading 24 values of array 'box-lib-positions-array', which holds 0 (damaged)"},
    };
    for (const auto& [name, expected] : cases) {
        std::ifstream in(findings + name, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        ASSERT_FALSE(bytes.empty()) << name;
        std::string format;
        if (bytes[0] >= '0' && bytes[0] <= '7') format = formats[bytes[0] - '0'], bytes.erase(0, 1);
        try {
            readMeshFromMemory(bytes.data(), bytes.size(), format, name);
            ADD_FAILURE() << name << ": read without an error";
        } catch (const MeshError& e) {
            const std::string what = e.what();
            EXPECT_EQ(what.rfind(name + ": ", 0), 0u) << what;
            EXPECT_NE(what.find(expected), std::string::npos) << name << ": " << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    }
}

// A finding that is read now: an FBX box whose embedded texture's base64 has one byte damaged,
// which made assimp 5.2 free memory twice. Textures and materials are no longer read
// (MeshFile.cpp), so the box comes through whole: 8 points, 12 triangles.
TEST(MeshFiles, AnFbxWithADamagedEmbeddedTextureGivesItsGeometry)
{
    const TriangleMesh m =
        readMesh(std::string(VBM_SOURCE_DIR) + "/tests/fuzz/findings/fuzz_mesh/fbx-embedded-texture-double-free.fbx");
    EXPECT_EQ(m.points.size(), 8u);
    EXPECT_EQ(m.triangles.size(), 12u);
    EXPECT_FALSE(meshEdges(m).open);
}

// Debian's assimp aborts when one of its internal checks fails; every program exports our
// Assimp::aiAssertViolation (MeshFile.cpp, solver/CMakeLists.txt), which throws instead. The
// library calls it through its PLT, which resolves the name as dlsym does from here: were the
// library's own found first, this test would abort.
TEST(MeshFiles, AssimpsFailedCheckThrowsInsteadOfAborting)
{
    using Violation = void (*)(const char*, const char*, int);
    const auto violation = reinterpret_cast<Violation>(dlsym(RTLD_DEFAULT, "_ZN6Assimp17aiAssertViolationEPKcS1_i"));
    ASSERT_NE(violation, nullptr) << dlerror();
    try {
        violation("numOut == 3", "Example.cpp", 7);
        FAIL() << "returned instead of throwing";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "numOut == 3 (Example.cpp:7)");
    }
}

TEST(MeshFiles, APlacedMeshPastTheIndexRangeOrLargerThanTheDomainIsRefusedWithItsSize)
{
    const TriangleMesh m = readMesh(file("cube.obj", objText(unitCube())));
    try {
        meshVoxels(m, MeshPlacement{.fit = 100, .at = {1073741800, 0, 0}}, "cube", 1 << 30);
        FAIL() << "past the range";
    } catch (const MeshError& e) {
        EXPECT_NE(std::string(e.what()).find("spans 100 x 100 x 100 voxels"), std::string::npos) << e.what();
    }
    file("scene-cube.obj", objText(unitCube()));
    try {
        parseScene("kind smoke\ndomain box -8 0 -8 8 16 8\nemitter sphere 0 2 0 2\nremove mesh scene-cube.obj fit 20 "
                   "at 0 8 0\n",
                   "big.scene", folder());
        FAIL() << "larger than the domain";
    } catch (const SceneError& e) {
        EXPECT_NE(std::string(e.what()).find("big.scene:4: the placed mesh spans 21 x 21 x 21 voxels, larger than the "
                                             "domain's 16 x 16 x 16"),
                  std::string::npos)
            << e.what();
    }
}

TEST(MeshScenes, BadMeshStatementsGetALineNumberedError)
{
    file("c.obj", objText(unitCube()));
    const std::string head = "kind smoke\ndomain open\nfloor 0\nemitter sphere 0 4 0 3\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"remove mesh\n", ":5: 'remove mesh' needs a file"},
        {"remove mesh c.obj fit 10 scale 2\n", ":5: give 'fit' or 'scale', not both"},
        {"remove mesh c.obj spin 3\n", ":5: unknown mesh option 'spin'"},
        {"remove mesh c.obj at 1 2\n", ":5: 'remove' needs more values"},
        {"remove mesh c.obj fit 0\n", ":5: fit L (the largest side, in voxels) must be from 1"},
        {"remove mesh none.obj\n", "none.obj: no such file"},
        {"remove mesh " + std::string(300, 'n') + ".obj\n", ": File name too long"}, // fuzz_scene's finding
        {"remove mesh c.obj scale 0.5 at 0.5 20.5 0.5\n", "covers no voxel"},
        {"remove cone 1 2 3\n", ":5: write 'remove sphere CX CY CZ R' or 'remove mesh FILE [options]'"},
    };
    for (const auto& [line, expected] : cases) {
        try {
            parseScene(head + line, "m.scene", folder());
            ADD_FAILURE() << line << ": no error";
        } catch (const SceneError& e) {
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << line << ": " << e.what();
        }
    }
}

TEST(MeshScenes, APlumeFlowsRoundAMeshObstacleWithNoVoxelOfItActive)
{
    file("ball.obj", objText(unitSphere(3)));
    Solver s(parseScene("kind smoke\ndomain open\nfloor 0\nadapt every 2 margin 2 threshold 0.05\n"
                        "remove mesh ball.obj fit 10 at 0 20 0\nemitter sphere 0 6 0 4\nemit_density 1\n"
                        "emit_temperature 1\nbuoyancy 0.3\nweight 0.05\ndt 1\ncg_tolerance 1e-5\nemit_noise 0.5\n",
                        "mesh obstacle", folder()),
             Backend::Cpu);
    const Scene scene = s.state();
    ASSERT_TRUE(scene.region.solid);
    const IndexGrid* solid = scene.region.solid.grid<nanovdb::ValueOnIndex>();
    EXPECT_NEAR(double(solid->activeVoxelCount()), 4.0 / 3 * M_PI * 125, 100);
    float above = 0;
    for (int k = 0; k < 80; ++k) {
        const FrameTimings& t = s.step();
        ASSERT_LE(t.find(Phase::PressureCg)->iterations, 12) << "step " << k;
        ASSERT_LT(t.divergenceAfter, 1e-4) << "step " << k;
    }
    const HostGridHandle h = s.grid();
    const IndexGrid* g = h.grid<nanovdb::ValueOnIndex>();
    const auto rho = s.field("density");
    for (uint32_t l = 0; l < g->tree().nodeCount(0); ++l)
        for (auto on = leaves(g)[l].valueMask().beginOn(); on; ++on) {
            const nanovdb::Coord c = leaves(g)[l].offsetToGlobalCoord(*on);
            ASSERT_FALSE(solid->tree().isActive(c)) << "an obstacle voxel is active";
            if (c[1] > 26) above = std::max(above, rho[leaves(g)[l].getValue(*on)]);
        }
    EXPECT_GT(above, 0.05f) << "the smoke got past the obstacle";
}

TEST(MeshScenes, AMeshEmitterEmitsOnlyInsideItsMeshAlsoAfterRebuilds)
{
    file("ball.obj", objText(unitSphere(3)));
    const TriangleMesh ball = readMesh(folder() + "/ball.obj");
    const auto inside = voxelSet(meshVoxels(ball, MeshPlacement{.fit = 9, .at = {0, 6, 0}}, "ball", 1 << 30));
    Solver s(parseScene("kind smoke\ndomain open\nfloor 0\nemitter mesh ball.obj fit 9 at 0 6 0\nemit_density 1\n"
                        "emit_temperature 1\nbuoyancy 0.3\nadapt every 2 margin 2 threshold 0.05\n",
                        "mesh emitter", folder()),
             Backend::Cpu);
    for (int k = 0; k <= 6; k += 3) {
        const Scene state = s.state();
        const IndexGrid* g = state.grid.grid<nanovdb::ValueOnIndex>();
        size_t emitting = 0;
        for (uint32_t l = 0; l < g->tree().nodeCount(0); ++l)
            for (auto on = leaves(g)[l].valueMask().beginOn(); on; ++on) {
                const nanovdb::Coord c = leaves(g)[l].offsetToGlobalCoord(*on);
                const bool e = state.emitter[leaves(g)[l].getValue(*on)] != 0.f;
                ASSERT_EQ(e, inside.count({c[0], c[1], c[2]}) != 0) << c[0] << " " << c[1] << " " << c[2];
                emitting += e;
            }
        EXPECT_EQ(emitting, inside.size()) << "after " << k << " steps";
        for (int j = 0; j < 3; ++j)
            s.step();
    }
}

TEST(MeshScenes, FixedDomainsLoseTheMeshVoxelsAndAMeshCanBeTheDomain)
{
    file("cube.obj", objText(unitCube()));
    const Scene box =
        parseScene("kind smoke\ndomain box -16 0 -16 16 32 16\nremove mesh cube.obj fit 10 at 0.5 16.5 0.5\n"
                   "emitter sphere 0 4 0 3\n",
                   "box", folder());
    const uint64_t solid = box.region.solid.grid<nanovdb::ValueOnIndex>()->activeVoxelCount();
    EXPECT_NEAR(double(solid), 1000, 250);
    EXPECT_EQ(box.grid.grid<nanovdb::ValueOnIndex>()->activeVoxelCount(), 32u * 32 * 32 - solid);
    const Scene heat = parseScene("kind heat\ndomain mesh cube.obj fit 20\ntemperature sphere 0 0 0 4 1\nalpha 0.1\n",
                                  "mesh domain", folder());
    EXPECT_NEAR(double(heat.grid.grid<nanovdb::ValueOnIndex>()->activeVoxelCount()), 21.0 * 21 * 21, 21.0 * 21 * 6);
    Solver s(heat, Backend::Cpu);
    for (int k = 0; k < 3; ++k)
        s.step();
}
