// SPDX-License-Identifier: Apache-2.0
// The VBM layer on the GPU (test names start with Gpu; skipped where there is no CUDA GPU):
// build and decode equal NanoVDB 13.0.0's own, every resolver byte-exact against the
// ReadAccessor, plain forms from half-empty blocks, consumers bitwise equal across resolvers.
#include "DeviceQueries.h"
#include "DeviceRuns.h"
#include "GridGenerators.h"
#include "TapRuns.h"
#include "TestGrids.h"
#include "vbm/BuildVoxelBlockManager.h"
#include "vbm/LeafTaps.h"
#include "vbm/Resolver.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>

using namespace vbm;

namespace {

using test::TestGrids;

struct GpuGrid {
    HostGridHandle host;
    std::unique_ptr<cuda::DeviceGrid> device;
    const IndexGrid* grid() const { return host.grid<nanovdb::ValueOnIndex>(); }
};

const GpuGrid& cachedGrid(int i)
{
    static std::map<int, GpuGrid> cache;
    auto it = cache.find(i);
    if (it == cache.end()) {
        GpuGrid g{TestGrids[i].make(), nullptr};
        g.device = std::make_unique<cuda::DeviceGrid>(g.host);
        it = cache.emplace(i, std::move(g)).first;
    }
    return it->second;
}

#define SKIP_WITHOUT_GPU()                                                                                             \
    do {                                                                                                               \
        const std::string why = cudaUnavailableReason();                                                               \
        if (!why.empty()) GTEST_SKIP() << "GPU test skipped: " << why;                                                 \
    } while (0)

class GpuVbm : public ::testing::TestWithParam<std::tuple<int, int>> {
protected:
    const GpuGrid& g() const { return cachedGrid(std::get<0>(GetParam())); }
    int log2Width() const { return std::get<1>(GetParam()); }
};

} // namespace

TEST_P(GpuVbm, BuildEqualsNanoVDB13AndHost)
{
    SKIP_WITHOUT_GPU();
    const VbmMetadata host = buildVbmOnHost(g().grid(), log2Width());
    const VbmMetadata ours = cuda::buildVbmOnDevice(*g().device, host.extent, log2Width(), false);
    const VbmMetadata nano = cuda::buildVbmOnDevice(*g().device, host.extent, log2Width(), true);
    EXPECT_EQ(ours.firstLeafID, nano.firstLeafID);
    EXPECT_EQ(ours.jumpMap, nano.jumpMap);
    EXPECT_EQ(host.firstLeafID, nano.firstLeafID);
    EXPECT_EQ(host.jumpMap, nano.jumpMap);
}

TEST_P(GpuVbm, DecodeEqualsNanoVDB13AndHost)
{
    SKIP_WITHOUT_GPU();
    const VbmMetadata m = buildVbmOnHost(g().grid(), log2Width());
    std::vector<uint32_t> li, nli, hli;
    std::vector<uint16_t> vo, nvo, hvo;
    cuda::decodeOnDevice(*g().device, m, false, li, vo);
    cuda::decodeOnDevice(*g().device, m, true, nli, nvo);
    decodeOnHost(g().grid(), m, hli, hvo);
    const CheckResult c = checkDecode(g().grid(), m, li, vo);
    EXPECT_TRUE(c.ok()) << c.firstMismatch;
    EXPECT_EQ(li, nli);
    EXPECT_EQ(vo, nvo);
    EXPECT_EQ(li, hli);
    EXPECT_EQ(vo, hvo);
}

// The skeleton's decode shares the jump map across the warp; it must find what the thread-local
// decode finds, and every slot of a block the span blockLeafSpan counts.
TEST_P(GpuVbm, WarpDecodeEqualsTheThreadDecodeAndCountsTheSpan)
{
    SKIP_WITHOUT_GPU();
    const VbmMetadata m = buildVbmOnHost(g().grid(), log2Width());
    std::vector<uint32_t> li, wli, span;
    std::vector<uint16_t> vo, wvo;
    cuda::decodeOnDevice(*g().device, m, false, li, vo);
    cuda::decodeInWarpOnDevice(*g().device, m, wli, wvo, span);
    EXPECT_EQ(wli, li);
    EXPECT_EQ(wvo, vo);
    const uint64_t words = m.jumpMap.size() / m.extent.blockCount, width = uint64_t(1) << log2Width();
    uint64_t wrong = 0;
    for (uint64_t b = 0; b < m.extent.blockCount; ++b) {
        uint32_t expected = 1;
        for (uint64_t w = 0; w < words; ++w)
            expected += uint32_t(__builtin_popcountll(m.jumpMap[b * words + w]));
        for (uint64_t s = 0; s < width; ++s)
            wrong += span[b * width + s] != expected;
    }
    EXPECT_EQ(wrong, 0u);
}

TEST_P(GpuVbm, EveryResolverMatchesReadAccessorAndHost)
{
    SKIP_WITHOUT_GPU();
    const VbmMetadata m = buildVbmOnHost(g().grid(), log2Width());
    for (cuda::DeviceTapPath path :
         {cuda::DeviceTapPath::Skeleton, cuda::DeviceTapPath::PublicApi, cuda::DeviceTapPath::Runs})
        for (Resolver r : AllResolvers) {
            if (r == Resolver::NanoVDB13 && path == cuda::DeviceTapPath::Runs) continue; // no run form
            SCOPED_TRACE(std::string(resolverName(r)) + (path == cuda::DeviceTapPath::Skeleton ? ", skeleton"
                                                         : path == cuda::DeviceTapPath::Runs   ? ", run form"
                                                                                               : ", API"));
            const auto taps = cuda::resolveTapsOnDevice(*g().device, m, r, 0, m.extent.blockCount, path);
            const CheckResult c = checkTaps(g().grid(), m, isBoxResolver(r), 0, m.extent.blockCount, taps);
            EXPECT_TRUE(c.ok()) << c.mismatches << " wrong; first: " << c.firstMismatch;
            EXPECT_EQ(c.checkedSlots, g().grid()->activeVoxelCount());
            if (r != Resolver::NanoVDB13) {
                const auto host = resolveTapsOnHost(g().grid(), m, r, 0, m.extent.blockCount);
                EXPECT_EQ(0, std::memcmp(taps.data(), host.data(), taps.size() * sizeof(uint64_t)));
            }
        }
}

// Octant taps on the GPU (SlotTaps::octant), through the skeleton and the run form: the full
// stream's taps of the octant and nothing else (the full stream equals the CPU's: above).
TEST_P(GpuVbm, OctantTapsAreTheFullStreamsTapsOfTheOctant)
{
    SKIP_WITHOUT_GPU();
    const VbmMetadata m = buildVbmOnHost(g().grid(), log2Width());
    const uint64_t slots = m.extent.blockCount << log2Width();
    const auto full = cuda::resolveTapsOnDevice(*g().device, m, Resolver::computeBoxStencil, 0, m.extent.blockCount);
    for (cuda::DeviceTapPath path : {cuda::DeviceTapPath::Skeleton, cuda::DeviceTapPath::Runs})
        for (Resolver r : AllResolvers) {
            if (!isBoxResolver(r) || (r == Resolver::NanoVDB13 && path == cuda::DeviceTapPath::Runs)) continue;
            for (int o : {0, 2, 5, 7}) {
                SCOPED_TRACE(std::string(resolverName(r)) + (path == cuda::DeviceTapPath::Runs ? ", run form" : "") +
                             ", octant " + std::to_string(o));
                int sx, sy, sz;
                octantSigns(o, sx, sy, sz);
                const auto oct = cuda::resolveTapsOnDevice(*g().device, m, r, 0, m.extent.blockCount, path, o);
                uint64_t wrong = 0;
                for (uint64_t s = 0; s < slots; ++s)
                    for (int t = 0; t < BoxTapCount; ++t) {
                        const uint64_t got = oct[s * BoxTapCount + t];
                        wrong += inBoxOctant(t, sx, sy, sz) ? got != full[s * BoxTapCount + t] : got != PoisonTap;
                    }
                EXPECT_EQ(wrong, 0u);
            }
        }
}

TEST_P(GpuVbm, PlainFormsWorkWhenHalfTheThreadsReturnedEarly)
{
    SKIP_WITHOUT_GPU();
    const VbmMetadata m = buildVbmOnHost(g().grid(), log2Width());
    for (Resolver r : VbmResolvers) {
        if (!isDivergentSafe(r)) continue;
        SCOPED_TRACE(resolverName(r));
        const auto taps =
            cuda::resolveTapsOnDevice(*g().device, m, r, 0, m.extent.blockCount, cuda::DeviceTapPath::PublicApiOddIdle);
        const CheckResult c = checkTaps(g().grid(), m, isBoxResolver(r), 0, m.extent.blockCount, taps, true);
        EXPECT_TRUE(c.ok()) << c.mismatches << " wrong; first: " << c.firstMismatch;
        EXPECT_GT(c.checkedSlots, 0u);
    }
}

INSTANTIATE_TEST_SUITE_P(Topologies, GpuVbm,
                         ::testing::Combine(::testing::Range(0, int(std::size(TestGrids))),
                                            ::testing::Values(6, 7, 8, 9)),
                         [](const auto& info) {
                             return std::string(TestGrids[std::get<0>(info.param)].name) + "_w" +
                                    std::to_string(1 << std::get<1>(info.param));
                         });

class GpuConsumers : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(GpuConsumers, BitwiseIdenticalAcrossResolversOfAShape)
{
    SKIP_WITHOUT_GPU();
    const auto [log2Width, channels] = GetParam();
    const GpuGrid& g = cachedGrid(0);
    const VbmMetadata m = buildVbmOnHost(g.grid(), log2Width);
    const auto sidecar = randomSidecar(m.extent.lastOffset + 1, channels, 99);
    const auto boxRef =
        cuda::applyConsumerOnDevice(*g.device, m, Resolver::computeBoxStencil, false, channels, sidecar);
    const auto lapRef =
        cuda::applyConsumerOnDevice(*g.device, m, Resolver::computeCrossStencil, true, channels, sidecar);
    double norm = 0;
    for (size_t i = channels; i < boxRef.size(); ++i)
        norm += std::abs(boxRef[i]);
    EXPECT_GT(norm, 0.0);
    for (Resolver r : AllResolvers) {
        SCOPED_TRACE(resolverName(r));
        if (isBoxResolver(r)) {
            const auto box = cuda::applyConsumerOnDevice(*g.device, m, r, false, channels, sidecar);
            EXPECT_EQ(0, std::memcmp(box.data(), boxRef.data(), box.size() * sizeof(float)));
        }
        const auto lap = cuda::applyConsumerOnDevice(*g.device, m, r, true, channels, sidecar);
        EXPECT_EQ(0, std::memcmp(lap.data(), lapRef.data(), lap.size() * sizeof(float)));
    }
}

INSTANTIATE_TEST_SUITE_P(WidthsAndChannels, GpuConsumers,
                         ::testing::Combine(::testing::Values(7, 9), ::testing::Values(1, 8)), [](const auto& info) {
                             return "w" + std::to_string(1 << std::get<0>(info.param)) + "_C" +
                                    std::to_string(std::get<1>(info.param));
                         });
