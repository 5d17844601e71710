// SPDX-License-Identifier: Apache-2.0
// The Domain (grid, VBM at both widths, the Laplacian's diagonal, the multigrid levels) and the
// Fields' workspace table, on the CPU executor: a Domain rebuilt from a new grid is the Domain
// made from that grid, and no two temporaries that a step uses at once share an array.
#include "domain/Domain.h"
#include "domain/Fields.h"
#include "GridGenerators.h"
#include "exec/HostExec.h"
#include "Scene.h"
#include "vbm/BuildVoxelBlockManager.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

using namespace vbm;
using namespace vbm::solver;

namespace {

/// Active neighbours of every voxel, by accessor lookups (index 0 unused).
std::vector<float> neighbourCounts(const IndexGrid* g)
{
    std::vector<float> out(vbmExtent(g, 7).lastOffset + 1, 0.f);
    auto acc = g->getAccessor();
    const nanovdb::Coord d[6] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
    for (uint32_t i = 0; i < g->tree().nodeCount(0); ++i)
        for (auto on = leaves(g)[i].valueMask().beginOn(); on; ++on) {
            const nanovdb::Coord c = leaves(g)[i].offsetToGlobalCoord(*on);
            for (const auto& o : d)
                out[acc.getValue(c)] += acc.getValue(c + o) ? 1.f : 0.f;
        }
    return out;
}

template <typename T>
std::vector<float> copy(const T* p, uint64_t n)
{
    return std::vector<float>(p, p + n);
}

void expectSameVbm(const VbmView& a, const VbmMetadata& m)
{
    ASSERT_EQ(a.blockCount, m.extent.blockCount);
    EXPECT_EQ(a.firstOffset, m.extent.firstOffset);
    EXPECT_EQ(a.valueCount, m.extent.lastOffset + 1);
    EXPECT_EQ(std::vector<uint32_t>(a.firstLeafID, a.firstLeafID + a.blockCount), m.firstLeafID);
    EXPECT_EQ(std::vector<uint64_t>(a.jumpMap, a.jumpMap + m.jumpMap.size()), m.jumpMap);
}

} // namespace

TEST(Domain, RebuiltFromANewGridEqualsTheDomainMadeFromIt)
{
    const HostGridHandle first = makeSphereShell(24, 4);
    const HostGridHandle second = makeRandomSparse(8, 0.5, 0.6, 3);
    HostExec exec;
    StencilRunner<HostExec> run(exec, StencilChoice{});
    Domain<HostExec> rebuilt(run, first, true);
    const uint64_t before = rebuilt.valueCount();
    rebuilt.rebuild(second);
    Domain<HostExec> fresh(run, second, true);

    const IndexGrid* g = second.grid<nanovdb::ValueOnIndex>();
    EXPECT_NE(rebuilt.valueCount(), before);
    EXPECT_EQ(rebuilt.valueCount(), vbmExtent(g, 7).lastOffset + 1);
    EXPECT_EQ(rebuilt.activeVoxels(), g->activeVoxelCount());
    expectSameVbm(rebuilt.fine().view(7), buildVoxelBlockManagerHost<7>(g));
    expectSameVbm(rebuilt.fine().view(9), buildVoxelBlockManagerHost<9>(g));
    EXPECT_EQ(copy(rebuilt.diag(), rebuilt.valueCount()), neighbourCounts(g));
    // the coarse levels: as many, with the same tables, as a fresh domain's
    ASSERT_TRUE(rebuilt.hasMultigrid());
    ASSERT_EQ(rebuilt.levels().size(), fresh.levels().size());
    for (size_t k = 0; k < fresh.levels().size(); ++k) {
        SCOPED_TRACE("level " + std::to_string(k + 1));
        const auto &a = rebuilt.levels()[k], &b = fresh.levels()[k];
        EXPECT_EQ(a.n, b.n);
        EXPECT_EQ(a.neighbours, b.neighbours);
        EXPECT_EQ(a.childBase, b.childBase);
        EXPECT_EQ(a.childOffsets, b.childOffsets);
    }
    EXPECT_EQ(rebuilt.gridAndVbmBytes(), fresh.gridAndVbmBytes());
}

TEST(Domain, CoarseLevelsChildrenAreTheVoxelsBelow)
{
    const HostGridHandle first = makeSphereShell(24, 4);
    HostExec exec;
    StencilRunner<HostExec> run(exec, StencilChoice{});
    Domain<HostExec> d(run, first, true);
    ASSERT_GE(d.levels().size(), 2u);
    HostGridHandle above = makeSphereShell(24, 4), here;
    for (size_t k = 0; k < d.levels().size(); ++k) {
        SCOPED_TRACE("level " + std::to_string(k + 1));
        here = MultigridHierarchy<HostExec>::coarsened(above.grid<nanovdb::ValueOnIndex>());
        const IndexGrid* g = here.grid<nanovdb::ValueOnIndex>();
        auto up = above.grid<nanovdb::ValueOnIndex>()->getAccessor();
        const ChildTable t = d.levels()[k].children();
        int partial = 0;
        for (uint32_t l = 0; l < g->tree().nodeCount(0); ++l)
            for (auto on = leaves(g)[l].valueMask().beginOn(); on; ++on) {
                const uint64_t i = leaves(g)[l].getValue(*on);
                const nanovdb::Coord c = leaves(g)[l].offsetToGlobalCoord(*on);
                uint32_t got[8];
                t.half(i, 0, got), t.half(i, 1, got + 4);
                for (int o = 0; o < 8; ++o) {
                    const nanovdb::Coord f(2 * c[0] + (o >> 2), 2 * c[1] + ((o >> 1) & 1), 2 * c[2] + (o & 1));
                    ASSERT_EQ(got[o], uint32_t(up.getValue(f))) << "octant " << o;
                    partial += got[o] == 0;
                }
            }
        EXPECT_GT(partial, 0);
        above = std::move(here);
    }
}

TEST(Fields, TheEmitterBitsAreSetWhereTheSceneEmits)
{
    const Scene scene = parseScene("kind smoke\ndomain box 0 0 0 8 8 8\nemitter sphere 4 4 4 2\n", "fields test");
    const uint64_t n = vbmExtent(scene.grid.grid<nanovdb::ValueOnIndex>(), 7).lastOffset + 1;
    ASSERT_EQ(scene.emitter.size(), n);
    Fields<HostExec> f(scene, n);
    const std::vector<float> got = f.downloadEmitter();
    int set = 0;
    for (uint64_t i = 0; i < n; ++i) {
        ASSERT_EQ(got[i], scene.emitter[i] != 0.f ? 1.f : 0.f) << i;
        set += got[i] != 0.f;
    }
    EXPECT_GT(set, 0);
    EXPECT_LT(set, int(n) - 1);
}

TEST(Domain, EveryResolverGivesTheSameDiagonal)
{
    const HostGridHandle grid = makeSparseLeaves(300, 4, 5); // blocks past MaxCachedLeaves too
    const std::vector<float> want = neighbourCounts(grid.grid<nanovdb::ValueOnIndex>());
    HostExec exec;
    for (Resolver r : VbmResolvers)
        for (int l : {7, 9}) {
            SCOPED_TRACE(std::string(resolverName(r)) + " w" + std::to_string(1 << l));
            StencilRunner<HostExec> run(exec, StencilChoice{r, Resolver::computeBoxStencil, l});
            Domain<HostExec> d(run, grid, false);
            EXPECT_FALSE(d.hasMultigrid());
            EXPECT_EQ(copy(d.diag(), d.valueCount()), want);
        }
}

TEST(Fields, TemporariesLiveAtOnceNeverShareAnArray)
{
    // the temporaries each step holds at the same time (the shares slotOf allows, where one's
    // last read comes before the other's first write, are not listed together: CG's z with the
    // right-hand side it replaces and with the V-cycle's fine residual; the product with the
    // V-cycle's first sweep; MacCormack's corrections with the centred velocity)
    const std::vector<std::vector<Temp>> together = {
        {Temp::NewTemperature, Temp::HeatSolution, Temp::CgResidual, Temp::CgDirectionOld, Temp::CgDirection,
         Temp::CgProduct},
        {Temp::HeatSolution, Temp::CgResidual, Temp::CgPreconditioned, Temp::CgDirectionOld, Temp::CgDirection,
         Temp::CgProduct},
        // (vorticity's z and |curl| are the faces U and V)
        {Temp::CentreU, Temp::CentreV, Temp::CentreW, Temp::VorticityX, Temp::VorticityY},
        // (advection's forward density, temperature and w are the faces)
        {Temp::CentreU, Temp::CentreV, Temp::CentreW, Temp::AdvectedU, Temp::AdvectedV},
        {Temp::CentreU, Temp::CentreV, Temp::CentreW, Temp::PressureRhs},
        // CG's start reads rhs and writes r; after it rhs is dead (its array holds z)
        {Temp::PressureRhs, Temp::CgResidual, Temp::CgDirectionOld, Temp::CgDirection, Temp::CgProduct},
        {Temp::CgResidual, Temp::CgPreconditioned, Temp::CgDirectionOld, Temp::CgDirection, Temp::CgProduct},
        // (the coarse levels' arrays are in the direction that is dead during the V-cycle)
        {Temp::CgResidual, Temp::MultigridResidual, Temp::CgDirectionOld, Temp::CgDirection, Temp::MultigridSweep},
    };
    const std::vector<Temp> fire = {Temp::CentreU,   Temp::CentreV,   Temp::CentreW,
                                    Temp::AdvectedU, Temp::AdvectedV, Temp::AdvectedFuel};
    std::set<int> fireSlots;
    for (Temp t : fire) {
        EXPECT_TRUE(fireSlots.insert(slotOf(t)).second) << "fire: temporary " << int(t) << " shares slot " << slotOf(t);
        EXPECT_LT(slotOf(t), slotCount(SimulationKind::Smoke, true));
    }
    for (size_t k = 0; k < together.size(); ++k) {
        std::set<int> slots;
        for (Temp t : together[k]) {
            EXPECT_GE(slotOf(t), 0);
            EXPECT_TRUE(slots.insert(slotOf(t)).second)
                << "group " << k << ": temporary " << int(t) << " shares slot " << slotOf(t);
        }
    }
    // heat's temporaries fit its slots, smoke's its own
    for (size_t k = 0; k < 2; ++k)
        for (Temp t : together[k])
            EXPECT_LT(slotOf(t), slotCount(SimulationKind::Heat));
    for (size_t k = 2; k < together.size(); ++k)
        for (Temp t : together[k])
            EXPECT_LT(slotOf(t), slotCount(SimulationKind::Smoke));
}

TEST(Fields, SwapHandsTheOutputToTheChannelAndKeepsBoth)
{
    const Scene scene = parseScene("kind smoke\ndomain box 0 0 0 8 8 8\nemitter sphere 4 4 4 2\n", "fields test");
    const uint64_t n = vbmExtent(scene.grid.grid<nanovdb::ValueOnIndex>(), 7).lastOffset + 1;
    Fields<HostExec> f(scene, n);
    EXPECT_TRUE(f.has(Channel::Density));
    EXPECT_FALSE(f.has(Channel::Fixed));
    f[Channel::Density][1] = 1.f;
    f[Temp::CentreU][1] = 2.f;
    const float* channelBefore = f[Channel::Density];
    f.swap(Channel::Density, Temp::CentreU);
    EXPECT_EQ(f[Channel::Density][1], 2.f);
    EXPECT_EQ(f[Temp::CentreU][1], 1.f);
    EXPECT_EQ(f[Temp::CentreU], channelBefore);
    EXPECT_EQ(f.workspaceBytes(), uint64_t(slotCount(SimulationKind::Smoke)) * n * sizeof(float));
}
