// SPDX-License-Identifier: Apache-2.0
// The VBM layer on the CPU: build, decode and all six resolvers, byte-exact against
// NanoVDB's ReadAccessor and against computeBoxStencil, on every slot of every block, at
// widths 64/128/256/512, over the test topologies, through both host forms of the block
// skeleton (the shared one, the GPU's code, and the CPU form); and the sidecar consumers.
#include "GridGenerators.h"
#include "TapRuns.h"
#include "TestGrids.h"
#include "vbm/BitOps.h"
#include "vbm/BuildVoxelBlockManager.h"
#include "vbm/Resolver.h"
#include "vbm/SlotRuns.h"
#include "vbm/TreeWalkStencils.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>

using namespace vbm;

namespace {

using test::TestGrids;

const IndexGrid* gridOf(const HostGridHandle& h) { return h.grid<nanovdb::ValueOnIndex>(); }

// Grids are built once per test binary.
const HostGridHandle& cachedGrid(int i)
{
    static std::map<int, HostGridHandle> cache;
    auto it = cache.find(i);
    if (it == cache.end()) it = cache.emplace(i, TestGrids[i].make()).first;
    return it->second;
}

class VbmHost : public ::testing::TestWithParam<std::tuple<int, int>> {
protected:
    const IndexGrid* grid() const { return gridOf(cachedGrid(std::get<0>(GetParam()))); }
    int log2Width() const { return std::get<1>(GetParam()); }
};

// The metadata as defined, computed naively: block b's firstLeafID is the leaf holding index
// firstOffset + b*W; bit p of its jumpMap is set iff a leaf starts at index firstOffset + b*W + p, p > 0.
VbmMetadata naiveMetadata(const IndexGrid* grid, int l)
{
    VbmMetadata m;
    m.log2BlockWidth = l;
    m.extent = vbmExtent(grid, l);
    const uint64_t w = uint64_t(1) << l;
    m.firstLeafID.assign(m.extent.blockCount, 0);
    m.jumpMap.assign(m.extent.blockCount * (w / 64), 0);
    const uint32_t n = grid->tree().nodeCount(0);
    for (uint32_t i = 0; i < n; ++i) {
        const auto* d = leaves(grid)[i].data();
        for (uint64_t v = d->firstOffset(); v <= d->lastOffset(); ++v) {
            const uint64_t s = v - m.extent.firstOffset, b = s >> l, p = s & (w - 1);
            if (p == 0)
                m.firstLeafID[b] = i;
            else if (v == d->firstOffset())
                m.jumpMap[b * (w / 64) + p / 64] |= uint64_t(1) << (p % 64);
        }
    }
    return m;
}

} // namespace

TEST(BitOps, SelectInWordMatchesNaiveScan)
{
    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 20000; ++trial) {
        uint64_t w = rng();
        if (trial % 3 == 1) w &= rng() & rng(); // sparser words
        if (trial % 7 == 0) w = uint64_t(1) << (trial % 64);
        if (!w) continue;
        uint32_t r = 0;
        for (uint32_t pos = 0; pos < 64; ++pos)
            if ((w >> pos) & 1) {
                ASSERT_EQ(selectInWord(w, r), pos) << std::hex << w << " r=" << r;
                ++r;
            }
        ASSERT_EQ(popcount64(w), r);
    }
}

TEST(GridGenerators, BenchmarkShellHasTheAdvertisedShape)
{
    const IndexGrid* g = gridOf(cachedGrid(0));
    EXPECT_NEAR(double(g->activeVoxelCount()), 1.29e6, 0.02e6);
    EXPECT_NEAR(double(g->tree().nodeCount(0)), 9140, 200);
    EXPECT_EQ(checkVbmGrid(g), "");
    // not a multiple of any width: the final block is partial
    EXPECT_NE(g->activeVoxelCount() % 64, 0u);
}

TEST(GridGenerators, TopologiesCoverTheirCases)
{
    const IndexGrid* boundaries = gridOf(cachedGrid(4));
    bool negative = false, acrossUpper = false;
    for (uint32_t i = 0; i < boundaries->tree().nodeCount(0); ++i) {
        const auto o = leaves(boundaries)[i].origin();
        negative |= o[0] < 0 && o[1] < 0 && o[2] < 0;
        acrossUpper |= o[0] == -4096 - 8;
    }
    EXPECT_TRUE(negative);
    EXPECT_TRUE(acrossUpper);
    EXPECT_EQ(gridOf(cachedGrid(3))->tree().nodeCount(0), 1u);
    const double occ16 = double(gridOf(cachedGrid(1))->activeVoxelCount()) / gridOf(cachedGrid(1))->tree().nodeCount(0);
    const double occ60 = double(gridOf(cachedGrid(2))->activeVoxelCount()) / gridOf(cachedGrid(2))->tree().nodeCount(0);
    EXPECT_NEAR(occ16 / 512, 0.16, 0.02);
    EXPECT_NEAR(occ60 / 512, 0.60, 0.02);
    for (int l = 6; l <= 9; ++l) {
        const VbmMetadata m = buildVbmOnHost(gridOf(cachedGrid(5)), l);
        const uint64_t fallback = countFallbackBlocks(m);
        EXPECT_GT(fallback, 0u) << "width " << (1 << l);
        if (l == 6) {
            EXPECT_LT(fallback, m.extent.blockCount) << "some blocks should still be cached";
        }
    }
}

TEST_P(VbmHost, BuildMatchesDefinition)
{
    const VbmMetadata m = buildVbmOnHost(grid(), log2Width());
    const VbmMetadata want = naiveMetadata(grid(), log2Width());
    EXPECT_EQ(m.extent.blockCount, want.extent.blockCount);
    EXPECT_EQ(m.firstLeafID, want.firstLeafID);
    EXPECT_EQ(m.jumpMap, want.jumpMap);
}

TEST_P(VbmHost, DecodeFindsEverySlotsVoxel)
{
    const VbmMetadata m = buildVbmOnHost(grid(), log2Width());
    std::vector<uint32_t> li;
    std::vector<uint16_t> vo;
    decodeOnHost(grid(), m, li, vo);
    const CheckResult c = checkDecode(grid(), m, li, vo);
    EXPECT_TRUE(c.ok()) << c.firstMismatch;
    EXPECT_EQ(c.checkedSlots, grid()->activeVoxelCount());
    EXPECT_EQ(c.checkedSlots + c.idleSlots, m.extent.blockCount << log2Width());
}

TEST_P(VbmHost, EveryResolverMatchesReadAccessorAndComputeBoxStencil)
{
    const VbmMetadata m = buildVbmOnHost(grid(), log2Width());
    const auto baseline =
        resolveTapsOnHost(grid(), m, Resolver::computeBoxStencil, 0, m.extent.blockCount, HostForm::Shared);
    // The ReadAccessor check is the slow part, so it runs once, on the baseline; every resolver
    // and form is then held to the baseline byte for byte (for a cross resolver, to the
    // baseline's cross taps), which makes each of them match the ReadAccessor too.
    const CheckResult checked = checkTaps(grid(), m, true, 0, m.extent.blockCount, baseline);
    EXPECT_TRUE(checked.ok()) << checked.mismatches << " wrong; first: " << checked.firstMismatch;
    EXPECT_EQ(checked.checkedSlots, grid()->activeVoxelCount());
    const uint64_t slots = m.extent.blockCount << log2Width();
    for (HostForm form : AllHostForms)
        for (Resolver r : VbmResolvers) {
            SCOPED_TRACE(std::string(resolverName(r)) + ", " + hostFormName(form));
            const auto taps = resolveTapsOnHost(grid(), m, r, 0, m.extent.blockCount, form);
            ASSERT_EQ(taps.size(), slots * (isBoxResolver(r) ? 27 : 7));
            if (isBoxResolver(r)) {
                EXPECT_EQ(0, std::memcmp(taps.data(), baseline.data(), taps.size() * sizeof(uint64_t)));
            } else {
                uint64_t differ = 0;
                for (uint64_t s = 0; s < slots; ++s)
                    for (int t = 0; t < 7; ++t)
                        differ += taps[s * 7 + t] != baseline[s * 27 + boxTapOfCrossTap(t)];
                EXPECT_EQ(differ, 0u);
            }
        }
}

// A thread's run of K slots decodes its first slot and steps to the rest (SlotRuns.h): every
// slot lands on the (leaf, voxel) the select decode gives it, past leaf ends and the grid's
// tail too, for runs of every length from 1 to the whole block.
TEST_P(VbmHost, SlotRunsStepToTheVoxelsTheDecodeFinds)
{
    const VbmMetadata m = buildVbmOnHost(grid(), log2Width());
    withBlockWidth(log2Width(), [&](auto l) {
        constexpr int L = decltype(l)::value;
        constexpr uint32_t W = 1u << L;
        for (uint32_t K : {1u, 2u, 8u, W}) {
            uint64_t mismatches = 0, steps = 0;
            for (uint64_t b = 0; b < m.extent.blockCount; ++b) {
                const uint64_t* jm = m.jumpMap.data() + b * BlockLayout<L>::JumpMapLength;
                const uint64_t first = m.extent.firstOffset + (b << L);
                SlotCursor c{};
                for (uint32_t slot = 0; slot < W; ++slot) {
                    if (slot % K == 0)
                        c = decodeSlotCursor<L>(grid(), m.firstLeafID[b], jm, first, slot);
                    else
                        advanceSlotCursor(leaves(grid()), jm, slot, c), ++steps;
                    const DecodedSlot d = decodeSlot<L>(grid(), m.firstLeafID[b], jm, first, slot);
                    mismatches += c.leafIndex != d.leafIndex || c.voxelOffset != d.voxelOffset ||
                                  (d.leafIndex != UnusedLeafIndex && (c.rank != d.rank || c.count != d.count));
                }
            }
            EXPECT_EQ(mismatches, 0u) << "runs of " << K;
            EXPECT_EQ(steps, K == 1 ? 0u : m.extent.blockCount * W / K * (K - 1));
        }
    });
}

// Each box resolver's octant taps (SlotTaps::octant: 8 taps resolved alone) are the full
// stream's taps of that octant (every box resolver streams the same taps: the test above), and
// nothing else is written: the CPU form, the shared form with per-leaf tables (the solver's
// two) and the run form (the staged tables: test_vbm_gpu's skeleton path), every topology but the 1.29M-voxel shell
// (the cost: the others hold every case of the shell and more) at width 128 (fallback blocks included), octants -+- and
// +-+ (each axis both ways).
TEST(VbmHostOctants, OctantTapsAreTheFullStreamsTapsOfTheOctant)
{
    for (int g = 1; g < int(std::size(TestGrids)); ++g) {
        const IndexGrid* grid = gridOf(cachedGrid(g));
        const VbmMetadata m = buildVbmOnHost(grid, 7);
        const uint64_t slots = m.extent.blockCount << 7;
        const auto full = resolveTapsOnHost(grid, m, Resolver::computeBoxStencil, 0, m.extent.blockCount);
        for (HostForm form : {HostForm::Cpu, HostForm::SharedLeafTables, HostForm::Runs})
            for (Resolver r : VbmResolvers) {
                if (!isBoxResolver(r)) continue;
                for (int o : {2, 5}) {
                    SCOPED_TRACE(std::string(TestGrids[g].name) + ", " + resolverName(r) + ", " + hostFormName(form) +
                                 ", octant " + std::to_string(o));
                    int sx, sy, sz;
                    octantSigns(o, sx, sy, sz);
                    const auto oct = resolveTapsOnHost(grid, m, r, 0, m.extent.blockCount, form, o);
                    uint64_t wrong = 0, resolved = 0;
                    for (uint64_t s = 0; s < slots; ++s)
                        for (int t = 0; t < BoxTapCount; ++t) {
                            const uint64_t got = oct[s * BoxTapCount + t], want = full[s * BoxTapCount + t];
                            const bool in = inBoxOctant(t, sx, sy, sz);
                            wrong += in ? got != want : got != PoisonTap;
                            resolved += in && got != PoisonTap;
                        }
                    EXPECT_EQ(wrong, 0u);
                    EXPECT_EQ(resolved, grid->activeVoxelCount() * 8);
                }
            }
    }
}

// The CPU form over a part of the blocks writes exactly those blocks' slots, as the shared form
// does (the runs of blocks a thread takes start and end anywhere).
TEST_P(VbmHost, CpuFormOverAnyBlockRangeEqualsTheSharedForm)
{
    const VbmMetadata m = buildVbmOnHost(grid(), log2Width());
    const uint64_t n = m.extent.blockCount;
    for (const auto& [b0, b1] : {std::pair<uint64_t, uint64_t>{0, n}, {n / 3, n / 3 + 1}, {n / 2, n}, {1, n}}) {
        if (b0 >= b1 || b1 > n) continue;
        for (Resolver r :
             {Resolver::computeCrossStencilCached, Resolver::forEachBoxStencilCached, Resolver::computeCrossStencil}) {
            SCOPED_TRACE(std::string(resolverName(r)) + " blocks " + std::to_string(b0) + ".." + std::to_string(b1));
            const auto cpu = resolveTapsOnHost(grid(), m, r, b0, b1, HostForm::Cpu);
            const auto shared = resolveTapsOnHost(grid(), m, r, b0, b1, HostForm::Shared);
            ASSERT_EQ(cpu.size(), shared.size());
            EXPECT_EQ(0, std::memcmp(cpu.data(), shared.data(), cpu.size() * sizeof(uint64_t)));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Topologies, VbmHost,
                         ::testing::Combine(::testing::Range(0, int(std::size(TestGrids))),
                                            ::testing::Values(6, 7, 8, 9)),
                         [](const auto& info) {
                             return std::string(TestGrids[std::get<0>(info.param)].name) + "_w" +
                                    std::to_string(1 << std::get<1>(info.param));
                         });

TEST(VbmHostCheck, CorruptedTapsAreCaught)
{
    const HostGridHandle h = makeRandomSparse(6, 0.5, 0.3, 21);
    const VbmMetadata m = buildVbmOnHost(gridOf(h), 7);
    auto taps = resolveTapsOnHost(gridOf(h), m, Resolver::forEachBoxStencilCached, 0, m.extent.blockCount);
    ASSERT_TRUE(checkTaps(gridOf(h), m, true, 0, m.extent.blockCount, taps).ok());
    taps[27 * 5 + 3] ^= 1; // one tap of slot 5
    EXPECT_EQ(checkTaps(gridOf(h), m, true, 0, m.extent.blockCount, taps).mismatches, 1u);
    taps[27 * 5 + 3] ^= 1;
    taps.back() = 7; // a slot past the last voxel must stay untouched
    EXPECT_EQ(checkTaps(gridOf(h), m, true, 0, m.extent.blockCount, taps).mismatches, 1u);
}

class ConsumersHost : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(ConsumersHost, BitwiseIdenticalAcrossResolversOfAShape)
{
    const auto [log2Width, channels] = GetParam();
    const IndexGrid* g = gridOf(cachedGrid(0));
    const VbmMetadata m = buildVbmOnHost(g, log2Width);
    const auto sidecar = randomSidecar(m.extent.lastOffset + 1, channels, 99);
    const auto boxRef =
        applyConsumerOnHost(g, m, Resolver::computeBoxStencil, false, channels, sidecar, HostForm::Shared);
    const auto lapRef =
        applyConsumerOnHost(g, m, Resolver::computeCrossStencil, true, channels, sidecar, HostForm::Shared);
    // the outputs are not trivial
    double boxNorm = 0, lapNorm = 0;
    for (size_t i = channels; i < boxRef.size(); ++i)
        boxNorm += std::abs(boxRef[i]), lapNorm += std::abs(lapRef[i]);
    EXPECT_GT(boxNorm, 0.0);
    EXPECT_GT(lapNorm, 0.0);
    for (HostForm form : AllHostForms)
        for (Resolver r : VbmResolvers) {
            SCOPED_TRACE(std::string(resolverName(r)) + ", " + hostFormName(form));
            if (isBoxResolver(r)) {
                const auto box = applyConsumerOnHost(g, m, r, false, channels, sidecar, form);
                EXPECT_EQ(0, std::memcmp(box.data(), boxRef.data(), box.size() * sizeof(float)));
            }
            const auto lap = applyConsumerOnHost(g, m, r, true, channels, sidecar, form);
            EXPECT_EQ(0, std::memcmp(lap.data(), lapRef.data(), lap.size() * sizeof(float)));
        }
}

INSTANTIATE_TEST_SUITE_P(WidthsAndChannels, ConsumersHost,
                         ::testing::Combine(::testing::Values(7, 9), ::testing::Values(1, 8)), [](const auto& info) {
                             return "w" + std::to_string(1 << std::get<0>(info.param)) + "_C" +
                                    std::to_string(std::get<1>(info.param));
                         });

TEST(CrossTaps, BoxTapsLandInCrossOrder)
{
    CrossTaps<true> fromBox;
    for (int tap = 0; tap < BoxTapCount; ++tap)
        fromBox(tap, uint64_t(100 + tap));
    CrossTaps<false> fromCross;
    for (int t = 0; t < CrossTapCount; ++t)
        fromCross(t, uint64_t(7 + t));
    for (int t = 0; t < CrossTapCount; ++t) {
        EXPECT_EQ(fromBox.n[t], uint64_t(100 + boxTapOfCrossTap(t))) << t;
        EXPECT_EQ(fromCross.n[t], uint64_t(7 + t)) << t;
    }
}
