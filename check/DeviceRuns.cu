// SPDX-License-Identifier: Apache-2.0
// CUDA runs of build, decode, resolvers and consumers (see DeviceRuns.h).
#include "DeviceRuns.h"
#include "vbm/LeafNeighbourTable.cuh"

#include "ConsumerBody.h"
#include "DeviceArray.h"
#include "vbm/BlockSkeleton.h"
#include "vbm/BuildVoxelBlockManager.cuh"
#include "vbm/CachedStencils.h"

#include <nanovdb/tools/cuda/VoxelBlockManager.cuh>

#include <stdexcept>

namespace vbm::cuda {

namespace {

template <int L>
using NanoVbm = nanovdb::tools::cuda::VoxelBlockManager<BlockLayout<L>::BlockWidth>;

// Our decode, one thread per slot.
template <int L>
__global__ void decodeKernel(const IndexGrid* grid, const uint32_t* firstLeafID, const uint64_t* jumpMap,
                             uint64_t firstOffset, uint32_t* leafIndex, uint16_t* voxelOffset)
{
    const uint64_t b = blockIdx.x;
    const uint64_t s = (b << L) + threadIdx.x;
    decodeInverseMap<L>(grid, firstLeafID[b], jumpMap + b * BlockLayout<L>::JumpMapLength, firstOffset + (b << L),
                        threadIdx.x, leafIndex[s], voxelOffset[s]);
}

// The warp's shared decode (decodeSlotInWarp), with the span each slot found.
template <int L>
__global__ void warpDecodeKernel(const IndexGrid* grid, const uint32_t* firstLeafID, const uint64_t* jumpMap,
                                 uint64_t firstOffset, uint32_t* leafIndex, uint16_t* voxelOffset, uint32_t* span)
{
    const uint64_t b = blockIdx.x;
    const uint64_t s = (b << L) + threadIdx.x;
    span[s] = decodeSlotInWarp<L>(grid, firstLeafID[b], jumpMap + b * BlockLayout<L>::JumpMapLength,
                                  firstOffset + (b << L), threadIdx.x, leafIndex[s], voxelOffset[s]);
}

// NanoVDB 13.0.0's sweep decode into shared memory, copied out.
template <int L>
__global__ void nanovdbDecodeKernel(const IndexGrid* grid, const uint32_t* firstLeafID, const uint64_t* jumpMap,
                                    uint64_t firstOffset, uint32_t* leafIndex, uint16_t* voxelOffset)
{
    constexpr int W = BlockLayout<L>::BlockWidth;
    __shared__ uint32_t sLeaf[W];
    __shared__ uint16_t sVoxel[W];
    const uint64_t b = blockIdx.x;
    NanoVbm<L>::decodeInverseMaps(const_cast<IndexGrid*>(grid), firstLeafID[b], jumpMap + b * (W / 64),
                                  firstOffset + (b << L), sLeaf, sVoxel);
    leafIndex[(b << L) + threadIdx.x] = sLeaf[threadIdx.x];
    voxelOffset[(b << L) + threadIdx.x] = sVoxel[threadIdx.x];
}

// A block body writing slot s's taps to out[(s.index - first)*T ..): every tap, or with octant
// o >= 0 (box resolvers) only the octant's (SlotTaps::octant).
template <Resolver R>
struct TapWriter {
    uint64_t* out;
    uint64_t first;
    int octant;
    template <typename Taps>
    __device__ void operator()(const SlotOf& s, Taps&& taps) const
    {
        uint64_t* dst = out + (s.index - first) * tapCount(R);
        const auto write = [dst](int tap, uint64_t index) { dst[tap] = index; };
        if constexpr (isBoxResolver(R)) {
            if (octant >= 0) {
                // by corner, as the solver's bodies take them: a tap out of the octant's order lands on another tap
                const int sx = (octant & 4) ? 1 : -1, sy = (octant & 2) ? 1 : -1, sz = (octant & 1) ? 1 : -1;
                taps.octantCorners(sx, sy, sz,
                                   [&](int corner, uint64_t index) { dst[boxOctantTap(sx, sy, sz, corner)] = index; });
                return;
            }
        }
        taps(write);
    }
};

// Resolver R through the block skeleton, as the solver and the bench run it; taps of slot s of
// the run go to out[s*T .. s*T+T).
template <int L, Resolver R>
__global__ void skeletonTapsKernel(VbmView v, uint64_t blockBegin, int octant, uint64_t* out)
{
    const uint64_t first = v.firstOffset + (blockBegin << L);
    runThisSlot<L, R>(v, blockBegin + blockIdx.x, TapWriter<R>{out, first, octant});
}

// Resolver R through the run form (RunLength slots per thread, several VBM blocks per thread
// block), as the solver runs it; taps laid out as skeletonTapsKernel's.
constexpr int RunLength = 4, RunBlockThreads = 128;
template <int L, Resolver R>
__global__ void runTapsKernel(VbmView v, uint64_t blockBegin, uint64_t blockEnd, int octant, uint64_t* out)
{
    using Layout = RunLayout<L, RunLength>;
    const uint64_t run = uint64_t(blockIdx.x) * RunBlockThreads + threadIdx.x;
    const uint64_t b = blockBegin + Layout::blockOf(run);
    if (b >= blockEnd) return;
    const uint64_t first = v.firstOffset + (blockBegin << L);
    runSlotRun<L, R, RunLength>(v, b, Layout::firstSlotOf(run), TapWriter<R>{out, first, octant});
}

// Resolver R through the entry point a user calls (docs/vbm.md): the cached forms' cooperative
// wrappers, the plain forms from threads that may have diverged (with oddSlotsIdle, odd
// threads return before they decode). Not the block skeleton: this checks the API itself.
template <int L, Resolver R>
__global__ void publicApiTapsKernel(VbmView v, uint64_t blockBegin, bool oddSlotsIdle, uint64_t* out)
{
    constexpr int T = tapCount(R);
    constexpr int W = BlockLayout<L>::BlockWidth;
    const uint64_t b = blockBegin + blockIdx.x;
    const uint32_t slot = threadIdx.x;
    const uint32_t firstLeaf = v.firstLeafID[b];
    const uint64_t* jm = v.jumpMap + b * BlockLayout<L>::JumpMapLength;
    const uint64_t blockFirst = v.firstOffset + (b << L);
    uint64_t* dst = out + (uint64_t(blockIdx.x) * W + slot) * T;
    auto& dstArray = *reinterpret_cast<uint64_t(*)[T]>(dst);
    const auto write = [dst](int tap, uint64_t index) { dst[tap] = index; };
    uint16_t voxelOffset;
    if constexpr (R == Resolver::NanoVDB13) {
        nanovdbReferenceBoxStencil<L>(v.grid, firstLeaf, jm, blockFirst, dstArray, voxelOffset);
    } else if constexpr (isCachedResolver(R)) {
        __shared__ ResolverTable<R> table;
        uint32_t leafIndex;
        decodeInverseMap<L>(v.grid, firstLeaf, jm, blockFirst, slot, leafIndex, voxelOffset);
        if constexpr (R == Resolver::computeBoxStencilCached)
            computeBoxStencilCached<L>(v.grid, firstLeaf, jm, leafIndex, voxelOffset, table, dstArray);
        else if constexpr (R == Resolver::forEachBoxStencilCached)
            forEachBoxStencilCached<L>(v.grid, firstLeaf, jm, leafIndex, voxelOffset, table, write);
        else
            computeCrossStencilCached<L>(v.grid, firstLeaf, jm, leafIndex, voxelOffset, table, dstArray);
    } else {
        if (oddSlotsIdle && (slot & 1)) return; // divergent-safe forms: half the threads leave now
        uint32_t leafIndex;
        decodeInverseMap<L>(v.grid, firstLeaf, jm, blockFirst, slot, leafIndex, voxelOffset);
        if constexpr (R == Resolver::computeBoxStencil)
            computeBoxStencil(v.grid, leafIndex, voxelOffset, dstArray);
        else if constexpr (R == Resolver::forEachBoxStencil)
            forEachBoxStencil(v.grid, leafIndex, voxelOffset, write);
        else
            computeCrossStencil(v.grid, leafIndex, voxelOffset, dstArray);
    }
}

// Sidecar consumer (box sum or Laplacian) over C channels through resolver R, by the block skeleton.
template <int L, Resolver R, int C, bool Laplacian>
__global__ void consumerKernel(VbmView v, const float* sidecar, float* out)
{
    runThisSlot<L, R>(v, blockIdx.x, ConsumerBody<C, isBoxResolver(R)>{sidecar, out, Laplacian});
}

struct DeviceVbm {
    DeviceArray<uint32_t> firstLeafID;
    DeviceArray<uint64_t> jumpMap;
    explicit DeviceVbm(const VbmMetadata& m) : firstLeafID(m.firstLeafID), jumpMap(m.jumpMap) {}
    VbmView view(const DeviceGrid& g, const VbmMetadata& m) const
    {
        return {g.grid(),
                firstLeafID.data(),
                jumpMap.data(),
                m.extent.firstOffset,
                m.extent.blockCount,
                m.extent.lastOffset + 1};
    }
};

void syncAndCheck(const char* what)
{
    checkCuda(cudaGetLastError(), what);
    checkCuda(cudaDeviceSynchronize(), what);
}

} // namespace

struct DeviceGrid::Impl {
    DeviceArray<char> bytes;
};

DeviceGrid::DeviceGrid(const HostGridHandle& host) : mImpl(std::make_unique<Impl>())
{
    const IndexGrid* g = host.grid<nanovdb::ValueOnIndex>();
    if (!g) throw std::invalid_argument("DeviceGrid needs an OnIndex grid");
    mLeafCount = g->tree().nodeCount(0);
    mLowerCount = g->tree().nodeCount(1);
    mImpl->bytes = DeviceArray<char>(host.gridSize());
    mImpl->bytes.upload(static_cast<const char*>(host.data()), host.gridSize());
}
DeviceGrid::~DeviceGrid() = default;
const IndexGrid* DeviceGrid::grid() const { return reinterpret_cast<const IndexGrid*>(mImpl->bytes.data()); }

VbmMetadata buildVbmOnDevice(const DeviceGrid& grid, const VbmExtent& extent, int log2BlockWidth, bool nanovdbReference)
{
    return withBlockWidth(log2BlockWidth, [&](auto l) {
        constexpr int L = decltype(l)::value;
        VbmMetadata m;
        m.log2BlockWidth = L;
        m.extent = extent;
        DeviceArray<uint32_t> firstLeafID(extent.blockCount);
        DeviceArray<uint64_t> jumpMap(extent.blockCount * BlockLayout<L>::JumpMapLength);
        firstLeafID.fill(0);
        if (nanovdbReference) {
            jumpMap.fill(0);
            nanovdb::tools::cuda::buildVoxelBlockManager<L>(extent.firstOffset, extent.lastOffset,
                                                            int(extent.blockCount), int(grid.lowerCount()), grid.grid(),
                                                            firstLeafID.data(), jumpMap.data());
        } else {
            checkCuda(buildVoxelBlockManagerDevice<L>(grid.grid(), grid.leafCount(), extent, firstLeafID.data(),
                                                      jumpMap.data()),
                      "buildVoxelBlockManagerDevice");
        }
        syncAndCheck("VBM build kernel");
        m.firstLeafID = firstLeafID.download();
        m.jumpMap = jumpMap.download();
        return m;
    });
}

void decodeOnDevice(const DeviceGrid& grid, const VbmMetadata& vbm, bool nanovdbReference,
                    std::vector<uint32_t>& leafIndex, std::vector<uint16_t>& voxelOffset)
{
    withBlockWidth(vbm.log2BlockWidth, [&](auto l) {
        constexpr int L = decltype(l)::value;
        DeviceVbm d(vbm);
        const uint64_t slots = vbm.extent.blockCount << L;
        DeviceArray<uint32_t> li(slots);
        DeviceArray<uint16_t> vo(slots);
        li.fill(0x5a), vo.fill(0x5a);
        const dim3 blocks(unsigned(vbm.extent.blockCount)), threads(1u << L);
        if (nanovdbReference)
            nanovdbDecodeKernel<L><<<blocks, threads>>>(grid.grid(), d.firstLeafID.data(), d.jumpMap.data(),
                                                        vbm.extent.firstOffset, li.data(), vo.data());
        else
            decodeKernel<L><<<blocks, threads>>>(grid.grid(), d.firstLeafID.data(), d.jumpMap.data(),
                                                 vbm.extent.firstOffset, li.data(), vo.data());
        syncAndCheck("decode kernel");
        leafIndex = li.download();
        voxelOffset = vo.download();
    });
}

void decodeInWarpOnDevice(const DeviceGrid& grid, const VbmMetadata& vbm, std::vector<uint32_t>& leafIndex,
                          std::vector<uint16_t>& voxelOffset, std::vector<uint32_t>& span)
{
    withBlockWidth(vbm.log2BlockWidth, [&](auto l) {
        constexpr int L = decltype(l)::value;
        DeviceVbm d(vbm);
        const uint64_t slots = vbm.extent.blockCount << L;
        DeviceArray<uint32_t> li(slots), sp(slots);
        DeviceArray<uint16_t> vo(slots);
        li.fill(0x5a), vo.fill(0x5a), sp.fill(0x5a);
        warpDecodeKernel<L><<<unsigned(vbm.extent.blockCount), 1u << L>>>(
            grid.grid(), d.firstLeafID.data(), d.jumpMap.data(), vbm.extent.firstOffset, li.data(), vo.data(),
            sp.data());
        syncAndCheck("warp decode kernel");
        leafIndex = li.download();
        voxelOffset = vo.download();
        span = sp.download();
    });
}

std::vector<uint64_t> resolveTapsOnDevice(const DeviceGrid& grid, const VbmMetadata& vbm, Resolver r,
                                          uint64_t blockBegin, uint64_t blockEnd, DeviceTapPath path, int octant)
{
    if (octant >= 0 &&
        (!isBoxResolver(r) || path == DeviceTapPath::PublicApi || path == DeviceTapPath::PublicApiOddIdle))
        throw std::invalid_argument("octants are for box resolvers, through the skeleton or the run form");
    return withBlockWidth(vbm.log2BlockWidth, [&](auto l) {
        constexpr int L = decltype(l)::value;
        return withResolver(r, [&](auto tag) {
            constexpr Resolver R = decltype(tag)::value;
            DeviceVbm d(vbm);
            DeviceArray<uint64_t> taps((blockEnd - blockBegin) * (uint64_t(1) << L) * tapCount(R));
            std::vector<uint64_t> poison(taps.size(), 0xdeadbeefcafef00dull);
            taps.upload(poison);
            VbmView v = d.view(grid, vbm);
            const unsigned blocks = unsigned(blockEnd - blockBegin);
            DeviceArray<uint32_t> boxTable, crossTable;
            if constexpr (R != Resolver::NanoVDB13) {
                if (blocks && path == DeviceTapPath::Runs) {
                    boxTable = DeviceArray<uint32_t>(uint64_t(grid.leafCount()) * boxTableWidth);
                    crossTable = DeviceArray<uint32_t>(uint64_t(grid.leafCount()) * crossTableWidth);
                    checkCuda(buildLeafNeighbourTableDevice(grid.grid(), grid.leafCount(), true, boxTable.data()),
                              "building the box leaf table");
                    checkCuda(buildLeafNeighbourTableDevice(grid.grid(), grid.leafCount(), false, crossTable.data()),
                              "building the cross leaf table");
                    v.boxTable = boxTable.data(), v.crossTable = crossTable.data();
                    const uint64_t threads = RunLayout<L, RunLength>::threads(blockEnd - blockBegin);
                    runTapsKernel<L, R>
                        <<<unsigned((threads + RunBlockThreads - 1) / RunBlockThreads), RunBlockThreads>>>(
                            v, blockBegin, blockEnd, octant, taps.data());
                    syncAndCheck("run-form resolver kernel");
                    return taps.download();
                }
            }
            if (path == DeviceTapPath::Runs) throw std::invalid_argument("NanoVDB13 has no run form");
            if (blocks && path == DeviceTapPath::Skeleton)
                skeletonTapsKernel<L, R><<<blocks, 1u << L>>>(v, blockBegin, octant, taps.data());
            else if (blocks)
                publicApiTapsKernel<L, R>
                    <<<blocks, 1u << L>>>(v, blockBegin, path == DeviceTapPath::PublicApiOddIdle, taps.data());
            syncAndCheck("resolver kernel");
            return taps.download();
        });
    });
}

std::vector<float> applyConsumerOnDevice(const DeviceGrid& grid, const VbmMetadata& vbm, Resolver r, bool laplacian,
                                         int channels, const std::vector<float>& sidecar)
{
    if (channels != 1 && channels != 8) throw std::invalid_argument("consumers are built for 1 or 8 channels");
    DeviceVbm d(vbm);
    DeviceArray<float> side(sidecar);
    DeviceArray<float> out((vbm.extent.lastOffset + 1) * channels);
    out.fill(0);
    if (vbm.log2BlockWidth != 7 && vbm.log2BlockWidth != 9)
        throw std::invalid_argument("device consumers are built for block widths 128 and 512");
    withBlockWidth(vbm.log2BlockWidth, [&](auto l) {
        constexpr int L = decltype(l)::value;
        if constexpr (L == 7 || L == 9)
            withResolver(r, [&](auto tag) {
                constexpr Resolver R = decltype(tag)::value;
                const auto launch = [&](auto c, auto lap) {
                    consumerKernel<L, R, decltype(c)::value, decltype(lap)::value>
                        <<<unsigned(vbm.extent.blockCount), 1u << L>>>(d.view(grid, vbm), side.data(), out.data());
                };
                using One = std::integral_constant<int, 1>;
                using Eight = std::integral_constant<int, 8>;
                if (channels == 1)
                    laplacian ? launch(One{}, std::true_type{}) : launch(One{}, std::false_type{});
                else
                    laplacian ? launch(Eight{}, std::true_type{}) : launch(Eight{}, std::false_type{});
            });
    });
    syncAndCheck("consumer kernel");
    return out.download();
}

} // namespace vbm::cuda
