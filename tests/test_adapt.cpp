// SPDX-License-Identifier: Apache-2.0
// Adaptive scenes on the CPU backend (docs/adaptive.md): the scene statements and their errors,
// the active-set rule against a brute-force reference, the rebuild's remap (retained voxels keep
// their bits), a blob carried by a uniform wind, and resolver and width identity with adaptation
// on (smoke in open air, with its iteration bounds: test_open_air.cpp).
#include "domain/ActiveSet.h"
#include "domain/ActiveSetRebuild.h"
#include "AdaptChecks.h"
#include "domain/HostTopology.h"
#include "exec/PhaseTimer.h"
#include "Solver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>

using namespace vbm;
using namespace vbm::solver;

namespace {

/// The rule by brute force: every voxel within `margin` (per axis) of a seed, or in an emitter,
/// that the region allows.
std::set<std::array<int, 3>> referenceSet(const std::vector<nanovdb::Coord>& seeds, int margin,
                                          const ActiveRegion& region)
{
    const RegionView view = hostRegionView(region);
    std::set<std::array<int, 3>> s;
    for (const auto& c : seeds)
        for (int dx = -margin; dx <= margin; ++dx)
            for (int dy = -margin; dy <= margin; ++dy)
                for (int dz = -margin; dz <= margin; ++dz) {
                    const nanovdb::Coord n(c[0] + dx, c[1] + dy, c[2] + dz);
                    if (view.allows(n)) s.insert({n[0], n[1], n[2]});
                }
    for (const auto& c : emitterVoxels(region))
        s.insert({c[0], c[1], c[2]});
    return s;
}

void expectSceneError(const std::string& text, const std::string& what, int line)
{
    try {
        parseScene(text, "t.scene");
        ADD_FAILURE() << "accepted: " << text;
    } catch (const SceneError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("t.scene:" + std::to_string(line) + ":"), std::string::npos) << m;
        EXPECT_NE(m.find(what), std::string::npos) << m;
    }
}

const char* OpenHead = "kind smoke\nemitter sphere 0 6 0 3\n";

} // namespace

TEST(Adapt, BadStatementsGetALineNumberedError)
{
    expectSceneError(std::string(OpenHead) + "domain open 0 0 0 0 10 10\n", "empty along x", 3);
    expectSceneError(std::string(OpenHead) + "domain open -8 0 -8 8 16 8\nadapt every 4 margin -1 threshold 0.1\n",
                     "margin", 4);
    expectSceneError(std::string(OpenHead) + "domain open -8 0 -8 8 16 8\nadapt every 0 margin 3 threshold 0.1\n",
                     "adapt every K", 4);
    expectSceneError(std::string(OpenHead) + "domain open -3000000000 0 -8 8 16 8\n", "index range", 3);
    expectSceneError(std::string(OpenHead) + "domain open -8 0 -8 8 16 8\nadapt every 4 margin 3\n", "takes 6 values",
                     4);
    expectSceneError("kind heat\ndomain box 0 0 0 8 8 8\nadapt every 4 margin 3 threshold 0.1\n", "smoke", 3);
    expectSceneError(std::string(OpenHead) +
                         "domain open -8 0 -8 8 16 8\nadapt every 4 margin 3 threshold 0.1 speed -1\n",
                     "speed S", 4);
    const Scene ok = parseScene(
        std::string(OpenHead) + "domain open -8 0 -8 8 16 8\nadapt every 4 margin 3 threshold 0.1 speed 0.5\n", "ok");
    EXPECT_EQ(ok.adapt.speedThreshold, 0.5);
    const Scene plain = parseScene(std::string(OpenHead) + "domain open -8 0 -8 8 16 8\n", "default");
    EXPECT_EQ(plain.adapt.threshold, 0.01);
    EXPECT_FALSE(plain.adapt.seedsBySpeed());
    expectSceneError("kind smoke\nemitter sphere 100 6 0 3\ndomain open -8 0 -8 8 16 8\n", "no emitter", 3);
    // two emitters far apart in a huge box: their first set's bounding box (4e10 voxels) is
    // refused in one line, not allocated
    expectSceneError("kind smoke\nemitter sphere -900000 5 0 2\nemitter sphere 900000 5 2000 2\n"
                     "domain open -1000000 0 -1000000 1000000 16 1000000\n",
                     "too large for the CPU builder", 4);
}

TEST(Adapt, AHugeOpenBoxStartsWithTheEmittersNeighbourhoodOnly)
{
    // 8192^3 voxels of box; the first set is the emitter's voxels dilated by the margin a
    // rebuild from still air uses (buoyancy 0 here, so the scene's 3)
    const Scene s = parseScene("kind smoke\ndomain open -4096 -4096 -4096 4096 4096 4096\n"
                               "adapt every 4 margin 3 threshold 0.1\nemitter sphere 0 6 0 3\nbuoyancy 0\n",
                               "huge");
    ASSERT_EQ(rebuildMargin(s.adapt, 0.0, s.params), 3);
    ASSERT_TRUE(s.adapt.enabled());
    EXPECT_EQ(s.region.box.min(), nanovdb::Coord(-4096));
    EXPECT_EQ(s.region.box.max(), nanovdb::Coord(4095));
    const auto got = voxelSet(s.grid.grid<nanovdb::ValueOnIndex>());
    EXPECT_EQ(got, referenceSet(emitterVoxels(s.region), 3, s.region));
    EXPECT_LT(got.size(), 2000u); // of 5.5e11 in the box
    // with buoyancy the first steps accelerate the gas: the first set's margin covers that too
    const Scene b = parseScene("kind smoke\ndomain open\nadapt every 4 margin 3 threshold 0.1\n"
                               "emitter sphere 0 6 0 3\nbuoyancy 0.4\n",
                               "buoyant");
    const int m = rebuildMargin(b.adapt, 0.0, b.params);
    EXPECT_GT(m, 3);
    EXPECT_EQ(voxelSet(b.grid.grid<nanovdb::ValueOnIndex>()), referenceSet(emitterVoxels(b.region), m, b.region));
}

TEST(Adapt, ActiveSetRuleMatchesABruteForceReference)
{
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> coord(-20, 20);
    ActiveRegion region;
    region.box = {nanovdb::Coord(-16, -18, -14), nanovdb::Coord(15, 17, 13)};
    region.obstacles = {{3, 2, 1, 4.5}};
    region.emitters = {{-10, -10, -8, 2.5}};
    for (int margin : {0, 1, 2, 5}) {
        std::vector<nanovdb::Coord> seeds;
        for (int k = 0; k < 40; ++k)
            seeds.emplace_back(coord(rng), coord(rng), coord(rng));
        const HostGridHandle g = activeSetOnHost(seeds, margin, region);
        EXPECT_EQ(voxelSet(g.grid<nanovdb::ValueOnIndex>()), referenceSet(seeds, margin, region))
            << "margin " << margin;
    }
    // within a loaded domain: only where that grid is active
    region.within = makeSphereShell(12, 5);
    std::vector<nanovdb::Coord> seeds = {nanovdb::Coord(12, 0, 0), nanovdb::Coord(0, -12, 0)};
    const HostGridHandle g = activeSetOnHost(seeds, 3, region);
    EXPECT_EQ(voxelSet(g.grid<nanovdb::ValueOnIndex>()), referenceSet(seeds, 3, region));
}

TEST(Adapt, RebuildKeepsEveryRetainedVoxelsBits)
{
    Scene scene = loadScene("smoke-open");
    HostExec exec;
    StencilRunner<HostExec> run(exec, {});
    ExecRegion<HostExec> region(scene.region);
    Domain<HostExec> domain(run, scene.grid, true, &region.view());
    Fields<HostExec> fields(scene, domain.valueCount());
    // distinct values everywhere; density above the threshold in a slab, so the set changes
    const IndexGrid* before = domain.fine().grid();
    const uint64_t n = domain.valueCount();
    const Channel kept[] = {Channel::Density, Channel::Temperature, Channel::U,
                            Channel::V,       Channel::W,           Channel::Pressure};
    std::map<std::array<int, 3>, std::array<float, 6>> old;
    for (uint32_t l = 0; l < before->tree().nodeCount(0); ++l)
        for (auto on = leaves(before)[l].valueMask().beginOn(); on; ++on) {
            const uint64_t i = leaves(before)[l].getValue(*on);
            const auto c = leaves(before)[l].offsetToGlobalCoord(*on);
            std::array<float, 6> v{};
            for (int k = 0; k < 6; ++k) {
                v[k] = std::ldexp(float((i * 7919 + k * 104729) % 1000003), -20);
                fields[kept[k]][i] = v[k];
            }
            if (c[1] < 5) fields[Channel::Density][i] = v[0] = 0.f, fields[Channel::Temperature][i] = v[1] = 0.f;
            if (c[1] < 5)
                fields[Channel::U][i] = fields[Channel::V][i] = fields[Channel::W][i] = v[2] = v[3] = v[4] = 0;
            old[{c[0], c[1], c[2]}] = v;
        }
    ASSERT_GT(n, 1u);
    ActiveSetRebuild<HostExec> rebuild(run, domain, fields, region, scene);
    PhaseTimer<HostExec> timer(exec);
    timer.beginStep();
    rebuild.run(scene.params, timer);
    timer.endStep();
    const IndexGrid* after = domain.fine().grid();
    ASSERT_NE(domain.valueCount(), n) << "the set did not change";
    uint64_t retained = 0, added = 0;
    for (uint32_t l = 0; l < after->tree().nodeCount(0); ++l)
        for (auto on = leaves(after)[l].valueMask().beginOn(); on; ++on) {
            const uint64_t i = leaves(after)[l].getValue(*on);
            const auto c = leaves(after)[l].offsetToGlobalCoord(*on);
            const auto it = old.find({c[0], c[1], c[2]});
            const bool air = domain.air()[i] != 0.f;
            for (int k = 0; k < 6; ++k) {
                const float want = it == old.end() || (kept[k] == Channel::Pressure && air) ? 0.f : it->second[k];
                ASSERT_EQ(std::bit_cast<uint32_t>(fields[kept[k]][i]), std::bit_cast<uint32_t>(want))
                    << channelName(kept[k]) << " at " << c[0] << "," << c[1] << "," << c[2];
            }
            EXPECT_EQ(flagAt(fields.emitter(), i), hostRegionView(scene.region).inEmitter(c));
            (it == old.end() ? added : retained) += 1;
        }
    EXPECT_GT(retained, 0u);
    EXPECT_GT(added, 0u);
    const FrameTimings& t = timer.read();
    for (Phase p : {Phase::RebuildTopology, Phase::RebuildVbm, Phase::RebuildRemap, Phase::RebuildHierarchy})
        EXPECT_NE(t.find(p), nullptr) << phaseName(p);
}

TEST(Adapt, ABlobInAUniformWindIsFollowedByTheActiveSet)
{
    // buoyancy and weight off: the wind alone carries the blob, 0.5 voxels per step along +x;
    // semi-Lagrangian, which keeps the mass of a uniform translation (MacCormack's clamped
    // correction gains about 1.3% over these 40 steps, whatever the margin)
    Solver s(parseScene("kind smoke\ndomain open -48 -24 -24 80 24 24\nadapt every 4 margin 3 threshold 0.05\n"
                        "density sphere -20 0 0 5 1\nwind 0.5 0 0\nbuoyancy 0\nweight 0\ndt 1\n"
                        "advection semi-lagrangian\n",
                        "wind"),
             Backend::Cpu);
    const auto centroidAndMass = [&] {
        const HostGridHandle h = s.grid();
        const IndexGrid* g = h.grid<nanovdb::ValueOnIndex>();
        const auto rho = s.field("density");
        double x = 0, setX = 0, mass = 0;
        uint64_t count = 0;
        for (uint32_t l = 0; l < g->tree().nodeCount(0); ++l)
            for (auto on = leaves(g)[l].valueMask().beginOn(); on; ++on) {
                const auto c = leaves(g)[l].offsetToGlobalCoord(*on);
                const float r = rho[leaves(g)[l].getValue(*on)];
                x += r * c[0], mass += r, setX += c[0], ++count;
            }
        return std::array<double, 4>{x / mass, setX / double(count), mass, double(count)};
    };
    const auto start = centroidAndMass();
    for (int k = 0; k < 40; ++k)
        EXPECT_LT(s.step().divergenceAfter, 1e-4);
    const auto end = centroidAndMass();
    EXPECT_EQ(s.topologyVersion(), 9u); // rebuilt before steps 4, 8, ..., 36
    // the blob moved 20 voxels; the set's centroid follows it within 3 voxels
    EXPECT_NEAR(end[0] - start[0], 20.0, 1.0);
    EXPECT_NEAR(end[1] - start[1], 20.0, 3.0);
    // retained voxels are exact and the flow is uniform: what leaves is only what fell below
    // the threshold outside the margin, within 0.2%
    EXPECT_NEAR(end[2], start[2], 0.002 * start[2]);
    // the set holds the blob and its margin: it neither vanishes nor runs away (semi-Lagrangian
    // advection spreads the blob, and more of it rises above the threshold: within 3x)
    EXPECT_GT(end[3], 0.5 * start[3]);
    EXPECT_LT(end[3], 3.0 * start[3]);
}

TEST(Adapt, EveryResolverAndWidthGivesTheSameFieldsWithAdaptationOn)
{
    expectSameFieldsWithAdaptation(Backend::Cpu, {Resolver::computeBoxStencil, Resolver::forEachBoxStencil,
                                                  Resolver::computeBoxStencilCached, Resolver::forEachBoxStencilCached,
                                                  Resolver::computeCrossStencil, Resolver::computeCrossStencilCached});
}
