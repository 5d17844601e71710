// SPDX-License-Identifier: Apache-2.0
// Host runs and checks of the resolvers (see TapRuns.h).
#include "TapRuns.h"

#include "ConsumerBody.h"
#include "ResolverRules.h"
#include "vbm/CpuBlockSkeleton.h"

#include <atomic>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>

namespace vbm {

namespace {

template <typename Fn>
decltype(auto) withOurResolver(Resolver r, Fn&& fn)
{
    if (const std::string why = resolverUnavailableReason(r, Backend::Cpu, StepKind::Laplacian); !why.empty())
        throw std::invalid_argument(why);
    return withResolver(r, [&](auto tag) {
        if constexpr (decltype(tag)::value == Resolver::NanoVDB13)
            return fn(ResolverTag<Resolver::computeBoxStencil>{});
        else
            return fn(tag);
    });
}

std::string coordText(const nanovdb::Coord& c)
{
    std::ostringstream s;
    s << "(" << c[0] << "," << c[1] << "," << c[2] << ")";
    return s.str();
}

} // namespace

VbmMetadata buildVbmOnHost(const IndexGrid* grid, int log2BlockWidth)
{
    return withBlockWidth(log2BlockWidth, [&](auto l) { return buildVoxelBlockManagerHost<decltype(l)::value>(grid); });
}

namespace {
/// The per-leaf tables a HostForm::SharedLeafTables run attaches to its view (none otherwise).
struct LeafTables {
    std::vector<uint32_t> box, cross;
    LeafTables(const IndexGrid* grid, HostForm form)
    {
        if (form != HostForm::SharedLeafTables && form != HostForm::Runs) return;
        box = buildLeafNeighbourTableHost(grid, true);
        cross = buildLeafNeighbourTableHost(grid, false);
    }
    VbmView attach(VbmView v) const
    {
        if (!box.empty()) v.boxTable = box.data(), v.crossTable = cross.data();
        return v;
    }
};
/// Blocks [b0, b1) of view v through host form `form` of the skeleton: body(slot, taps).
template <int L, Resolver R, typename Body>
void forEachSlotInForm(const VbmView& v, uint64_t b0, uint64_t b1, HostForm form, const Body& body)
{
    switch (form) {
    case HostForm::Cpu:
        forEachSlotOnHost<L, R>(v, b0, b1, body);
        break;
    case HostForm::Shared:
    case HostForm::SharedLeafTables:
        forEachSlotOnHostShared<L, R>(v, b0, b1, body);
        break;
    case HostForm::Runs:
    case HostForm::RunsWithoutTables:
        forEachBlockOnHost(b0, b1, [&](uint64_t b) { runBlockRunsOnHost<L, R, RunFormLength>(v, b, body); });
        break;
    }
}
} // namespace

uint64_t countFallbackBlocks(const VbmMetadata& vbm)
{
    return withBlockWidth(vbm.log2BlockWidth, [&](auto l) {
        constexpr int L = decltype(l)::value;
        uint64_t n = 0;
        for (uint64_t b = 0; b < vbm.extent.blockCount; ++b)
            n += !blockIsCached<L>(vbm.jumpMap.data() + b * BlockLayout<L>::JumpMapLength);
        return n;
    });
}

std::vector<uint64_t> resolveTapsOnHost(const IndexGrid* grid, const VbmMetadata& vbm, Resolver r, uint64_t blockBegin,
                                        uint64_t blockEnd, HostForm form, int octant)
{
    if (octant >= 0 && !isBoxResolver(r)) throw std::invalid_argument("octants are for box resolvers");
    int sx = 0, sy = 0, sz = 0;
    if (octant >= 0) octantSigns(octant, sx, sy, sz);
    const int taps = tapCount(r);
    const uint64_t width = uint64_t(1) << vbm.log2BlockWidth;
    std::vector<uint64_t> out((blockEnd - blockBegin) * width * taps, PoisonTap);
    const LeafTables tables(grid, form);
    const VbmView view = tables.attach(hostView(grid, vbm));
    withBlockWidth(vbm.log2BlockWidth, [&](auto l) {
        withOurResolver(r, [&](auto tag) {
            constexpr int L = decltype(l)::value;
            constexpr Resolver R = decltype(tag)::value;
            const auto store = [&](const SlotOf& s, auto&& resolve) {
                const uint64_t slot = s.index - vbm.extent.firstOffset - blockBegin * width;
                uint64_t* dst = out.data() + slot * taps;
                const auto write = [dst](int tap, uint64_t index) { dst[tap] = index; };
                if constexpr (isBoxResolver(R)) {
                    if (octant >= 0) {
                        // by corner, as the solver's bodies take them: a tap out of the
                        // octant's order lands on another tap
                        resolve.octantCorners(sx, sy, sz, [&](int corner, uint64_t index) {
                            dst[boxOctantTap(sx, sy, sz, corner)] = index;
                        });
                        return;
                    }
                }
                resolve(write);
            };
            forEachSlotInForm<L, R>(view, blockBegin, blockEnd, form, store);
        });
    });
    return out;
}

CheckResult checkTaps(const IndexGrid* grid, const VbmMetadata& vbm, bool box, uint64_t blockBegin, uint64_t blockEnd,
                      const std::vector<uint64_t>& taps, bool oddSlotsIdle)
{
    const int tapsPerSlot = box ? 27 : 7;
    const uint64_t width = uint64_t(1) << vbm.log2BlockWidth;
    if (taps.size() != (blockEnd - blockBegin) * width * tapsPerSlot)
        throw std::invalid_argument("checkTaps: tap array has the wrong size");
    std::atomic<uint64_t> checked{0}, idle{0}, bad{0};
    std::mutex firstMutex;
    CheckResult result;
    const nanovdb::Coord crossOffsets[7] = {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0},
                                            {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
    forEachBlockOnHost(blockBegin, blockEnd, [&](uint64_t b) {
        auto acc = grid->getAccessor();
        uint64_t nChecked = 0, nIdle = 0, nBad = 0;
        const IndexLeaf* ls = leaves(grid);
        uint32_t cursorLeaf = UnusedLeafIndex, cursorVoxel = 0;
        for (uint64_t slot = 0; slot < width; ++slot) {
            const uint64_t index = vbm.extent.firstOffset + b * width + slot;
            const uint64_t* got = taps.data() + ((b - blockBegin) * width + slot) * tapsPerSlot;
            std::string what;
            if (index > vbm.extent.lastOffset || (oddSlotsIdle && (slot & 1))) {
                ++nIdle;
                for (int t = 0; t < tapsPerSlot; ++t)
                    if (got[t] != PoisonTap) {
                        what = "slot " + std::to_string(slot) + " of block " + std::to_string(b) +
                               " should be untouched but tap " + std::to_string(t) + " was written";
                        break;
                    }
            } else {
                ++nChecked;
                // The voxel of this value index, found independently of the VBM: a cursor that
                // walks the leaves' voxels in index order from a binary search at the block start.
                // It stops at the last leaf: a grid whose indices skip this one has no such voxel.
                const uint32_t leafCount = grid->tree().nodeCount(0);
                while (cursorLeaf == UnusedLeafIndex ||
                       (cursorLeaf < leafCount && ls[cursorLeaf].data()->getValue(cursorVoxel) != index)) {
                    if (cursorLeaf == UnusedLeafIndex) {
                        uint32_t lo = 0, hi = leafCount - 1;
                        while (lo < hi) {
                            const uint32_t mid = (lo + hi + 1) / 2;
                            if (ls[mid].data()->firstOffset() <= index)
                                lo = mid;
                            else
                                hi = mid - 1;
                        }
                        cursorLeaf = lo, cursorVoxel = 0;
                    } else if (++cursorVoxel == 512) {
                        ++cursorLeaf, cursorVoxel = 0;
                    }
                }
                if (cursorLeaf >= leafCount) {
                    what = "no voxel has value index " + std::to_string(index) + " (block " + std::to_string(b) +
                           ", slot " + std::to_string(slot) + ")";
                    cursorLeaf = UnusedLeafIndex; // search again at the next slot
                } else {
                    const nanovdb::Coord c = ls[cursorLeaf].offsetToGlobalCoord(cursorVoxel);
                    for (int t = 0; t < tapsPerSlot && what.empty(); ++t) {
                        const nanovdb::Coord d =
                            box ? nanovdb::Coord(t / 9 - 1, t / 3 % 3 - 1, t % 3 - 1) : crossOffsets[t];
                        const uint64_t want = acc.getValue(c + d);
                        if (got[t] != want)
                            what = "voxel " + coordText(c) + " (block " + std::to_string(b) + ", slot " +
                                   std::to_string(slot) + ") tap " + std::to_string(t) + ": got " +
                                   std::to_string(got[t]) + ", ReadAccessor says " + std::to_string(want);
                    }
                }
            }
            if (!what.empty()) {
                ++nBad;
                std::lock_guard lock(firstMutex);
                if (result.firstMismatch.empty()) result.firstMismatch = what;
            }
        }
        checked += nChecked, idle += nIdle, bad += nBad;
    });
    result.checkedSlots = checked, result.idleSlots = idle, result.mismatches = bad;
    return result;
}

void decodeOnHost(const IndexGrid* grid, const VbmMetadata& vbm, std::vector<uint32_t>& leafIndex,
                  std::vector<uint16_t>& voxelOffset)
{
    const uint64_t width = uint64_t(1) << vbm.log2BlockWidth;
    leafIndex.assign(vbm.extent.blockCount * width, 0);
    voxelOffset.assign(vbm.extent.blockCount * width, 0);
    withBlockWidth(vbm.log2BlockWidth, [&](auto l) {
        constexpr int L = decltype(l)::value;
        forEachBlockOnHost(0, vbm.extent.blockCount, [&](uint64_t b) {
            for (uint32_t slot = 0; slot < width; ++slot)
                decodeInverseMap<L>(grid, vbm.firstLeafID[b], vbm.jumpMap.data() + b * BlockLayout<L>::JumpMapLength,
                                    vbm.extent.firstOffset + b * width, slot, leafIndex[b * width + slot],
                                    voxelOffset[b * width + slot]);
        });
    });
}

CheckResult checkDecode(const IndexGrid* grid, const VbmMetadata& vbm, const std::vector<uint32_t>& leafIndex,
                        const std::vector<uint16_t>& voxelOffset)
{
    CheckResult result;
    const uint64_t width = uint64_t(1) << vbm.log2BlockWidth;
    const uint64_t slots = vbm.extent.blockCount * width;
    if (leafIndex.size() != slots || voxelOffset.size() != slots)
        throw std::invalid_argument("checkDecode: arrays have the wrong size");
    const uint32_t leafCount = grid->tree().nodeCount(0);
    for (uint64_t s = 0; s < slots; ++s) {
        const uint64_t index = vbm.extent.firstOffset + s;
        bool good;
        if (index > vbm.extent.lastOffset) {
            ++result.idleSlots;
            good = leafIndex[s] == UnusedLeafIndex && voxelOffset[s] == UnusedVoxelOffset;
        } else {
            ++result.checkedSlots;
            good = leafIndex[s] < leafCount && voxelOffset[s] < 512 &&
                   leaves(grid)[leafIndex[s]].data()->getValue(voxelOffset[s]) == index;
        }
        if (!good && result.mismatches++ == 0)
            result.firstMismatch = "slot " + std::to_string(s % width) + " of block " + std::to_string(s / width) +
                                   " (value index " + std::to_string(index) + ") decoded to leaf " +
                                   std::to_string(leafIndex[s]) + ", voxel " + std::to_string(voxelOffset[s]);
    }
    return result;
}

namespace {

template <int C, int L, Resolver R>
void consumeOnHost(const IndexGrid* grid, const VbmMetadata& vbm, bool laplacian, const float* sidecar, float* out,
                   HostForm form)
{
    const ConsumerBody<C, isBoxResolver(R)> body{sidecar, out, laplacian};
    const LeafTables tables(grid, form);
    forEachSlotInForm<L, R>(tables.attach(hostView(grid, vbm)), 0, vbm.extent.blockCount, form, body);
}

template <int C>
void consumeOnHost(const IndexGrid* grid, const VbmMetadata& vbm, Resolver r, bool laplacian, const float* sidecar,
                   float* out, HostForm form)
{
    withBlockWidth(vbm.log2BlockWidth, [&](auto l) {
        withOurResolver(r, [&](auto tag) {
            consumeOnHost<C, decltype(l)::value, decltype(tag)::value>(grid, vbm, laplacian, sidecar, out, form);
        });
    });
}

} // namespace

std::vector<float> applyConsumerOnHost(const IndexGrid* grid, const VbmMetadata& vbm, Resolver r, bool laplacian,
                                       int channels, const std::vector<float>& sidecar, HostForm form)
{
    std::vector<float> out((vbm.extent.lastOffset + 1) * channels, 0.f);
    if (channels == 1)
        consumeOnHost<1>(grid, vbm, r, laplacian, sidecar.data(), out.data(), form);
    else if (channels == 8)
        consumeOnHost<8>(grid, vbm, r, laplacian, sidecar.data(), out.data(), form);
    else
        throw std::invalid_argument("consumers are built for 1 or 8 channels");
    return out;
}

std::vector<float> randomSidecar(uint64_t valueCount, int channels, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(0.5f, 2.0f);
    std::vector<float> s(valueCount * channels);
    for (auto& v : s)
        v = (rng() & 1) ? u(rng) : -u(rng);
    return s;
}

} // namespace vbm
