// SPDX-License-Identifier: Apache-2.0
// The dilation of a rebuild's seeds on the device, by up to 8 voxels (the L-infinity ball: a
// cube) in one grid build, joined with another grid's voxels (the emitters'). NanoVDB 13's
// DilateGrid grows a grid by one voxel per call, each call a whole grid build with host round
// trips: a margin of 7 was 7 builds, 34 ms of a 5M-voxel rebuild on the H200. Here the new
// topology goes through NanoVDB's own TopologyBuilder (the machinery DilateGrid, PruneGrid and
// MergeGrids share), with our kernels for what differs:
//   1. every seed leaf names the neighbouring root tiles its dilated seeds reach (exactly), and
//      the host makes the speculative root from them (one small read of the tile table);
//   2. every seed leaf marks the neighbouring leaves its dilated seeds reach, and every joined
//      leaf itself, in the builder's dense internal masks; the builder lays out the nodes;
//   3. every new leaf's mask is computed from its 27 neighbours' seed masks: separable bit
//      dilation along z, y, x in shared memory, then ORed with the joined grid's leaf.
// Each marked leaf is reached by at least one seed's cube (or holds a joined voxel), so the
// result has no empty leaf. Larger margins are dilated in passes of at most 8.
#pragma once

#include "CudaCheck.h"
#include "vbm/VoxelBlockManager.h"

#include <cub/cub.cuh>
#include <nanovdb/cuda/DeviceBuffer.h>
#include <nanovdb/tools/cuda/TopologyBuilder.cuh>

#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace vbm::solver {

using DeviceGridHandle = nanovdb::GridHandle<nanovdb::cuda::DeviceBuffer>;
using LeafMask = nanovdb::Mask<3>;

/// The largest margin one dilation pass reaches (the 26 neighbouring leaves).
constexpr int MaxDilationPass = 8;
/// The most root tiles (4096^3 voxels each) a dilated grid's source may have.
constexpr uint32_t MaxDilationTiles = 1024;

namespace dilation {

using Root = nanovdb::NanoRoot<nanovdb::ValueOnIndex>;
using Upper = nanovdb::NanoUpper<nanovdb::ValueOnIndex>;
using Lower = nanovdb::NanoLower<nanovdb::ValueOnIndex>;
using LowerMasks = nanovdb::Mask<4> (*)[nanovdb::Mask<5>::SIZE];

/// What the host reads back to make the speculative root: the source's tiles and, per tile,
/// which of its 27 neighbours (itself included) the dilated seeds reach.
struct TileNeeds {
    uint32_t count;
    nanovdb::Coord origin[MaxDilationTiles];
    uint8_t need[MaxDilationTiles][27];
};

/// A seed leaf's mask: its seeds, or with no seed masks its voxels.
__device__ inline const uint64_t* seedWords(const IndexGrid* g, const LeafMask* seeds, uint32_t leaf)
{
    return seeds ? seeds[leaf].words() : leaves(g)[leaf].valueMask().words();
}

/// Whether some seed's cube of half-width m reaches the leaf at offset d (each -1, 0, 1) from
/// the seeds' leaf: a seed with x < m for dx = -1, x >= 8 - m for dx = +1 (any x for 0), the
/// same along y and z.
__device__ inline bool reaches(const uint64_t* w, int m, int dx, int dy, int dz)
{
    const unsigned low = (1u << m) - 1u, high = (0xffu << (8 - m)) & 0xffu;
    const unsigned zbits = dz < 0 ? low : dz > 0 ? high : 0xffu;
    const unsigned ybytes = dy < 0 ? low : dy > 0 ? high : 0xffu;
    uint64_t yz = 0;
    for (int y = 0; y < 8; ++y)
        if (ybytes >> y & 1u) yz |= uint64_t(zbits) << (8 * y);
    const unsigned xwords = dx < 0 ? low : dx > 0 ? high : 0xffu;
    for (int x = 0; x < 8; ++x)
        if ((xwords >> x & 1u) && (w[x] & yz)) return true;
    return false;
}

/// One thread writes the source's tile origins.
static __global__ void tileOriginsKernel(const IndexGrid* g, TileNeeds* out)
{
    const Root& root = g->tree().root();
    out->count = root.tileCount();
    for (uint32_t t = 0; t < root.tileCount() && t < MaxDilationTiles; ++t)
        out->origin[t] = root.tile(t)->origin();
}

__device__ inline nanovdb::Coord tileOf(const nanovdb::Coord& c)
{
    return nanovdb::Coord(c[0] & ~4095, c[1] & ~4095, c[2] & ~4095);
}

/// Per seed leaf: the neighbouring tiles the leaves it reaches lie in.
static __global__ void tileNeedsKernel(const IndexGrid* g, uint32_t leafCount, const LeafMask* seeds, int m,
                                       TileNeeds* out)
{
    const uint32_t leaf = blockIdx.x * blockDim.x + threadIdx.x;
    if (leaf >= leafCount) return;
    const uint64_t* w = seedWords(g, seeds, leaf);
    const nanovdb::Coord o = leaves(g)[leaf].origin(), home = tileOf(o);
    const Root& root = g->tree().root();
    const uint32_t t = uint32_t(root.probeTile(o) - root.tile(0));
    if (t >= MaxDilationTiles) return; // the host refuses such grids
    for (int d = 0; d < 27; ++d) {
        const int dx = d / 9 - 1, dy = d / 3 % 3 - 1, dz = d % 3 - 1;
        if ((m > 0 || d == 13) && reaches(w, m, dx, dy, dz)) {
            const nanovdb::Coord n = tileOf(o.offsetBy(8 * dx, 8 * dy, 8 * dz));
            const int k = ((n[0] - home[0]) / 4096 + 1) * 9 + ((n[1] - home[1]) / 4096 + 1) * 3 + (n[2] - home[2]) / 4096 + 1;
            out->need[t][k] = 1;
        }
    }
}

/// The leaf at `origin` into the builder's dense masks.
__device__ inline void markLeaf(const Root* root, nanovdb::Mask<5>* upper, LowerMasks lower, const nanovdb::Coord& origin)
{
    const uint64_t tile = uint64_t(root->probeTile(origin) - root->tile(0));
    const uint32_t u = Upper::CoordToOffset(origin);
    upper[tile].setOnAtomic(u);
    lower[tile][u].setOnAtomic(Lower::CoordToOffset(origin));
}

static __global__ void markReachedLeavesKernel(const IndexGrid* g, uint32_t leafCount, const LeafMask* seeds, int m,
                                               const Root* root, void* upper, void* lower)
{
    const uint32_t leaf = blockIdx.x * blockDim.x + threadIdx.x;
    if (leaf >= leafCount) return;
    const uint64_t* w = seedWords(g, seeds, leaf);
    const nanovdb::Coord o = leaves(g)[leaf].origin();
    for (int d = 0; d < 27; ++d) {
        const int dx = d / 9 - 1, dy = d / 3 % 3 - 1, dz = d % 3 - 1;
        if ((m > 0 || d == 13) && reaches(w, m, dx, dy, dz))
            markLeaf(root, static_cast<nanovdb::Mask<5>*>(upper), static_cast<LowerMasks>(lower),
                     o.offsetBy(8 * dx, 8 * dy, 8 * dz));
    }
}

static __global__ void markJoinedLeavesKernel(const IndexGrid* g, uint32_t leafCount, const Root* root, void* upper,
                                              void* lower)
{
    const uint32_t leaf = blockIdx.x * blockDim.x + threadIdx.x;
    if (leaf < leafCount)
        markLeaf(root, static_cast<nanovdb::Mask<5>*>(upper), static_cast<LowerMasks>(lower), leaves(g)[leaf].origin());
}

static __global__ void gridTreeRootKernel(nanovdb::tools::cuda::TopologyBuilder<nanovdb::ValueOnIndex>::Data* d)
{
    nanovdb::tools::cuda::topology::detail::BuildGridTreeRootFunctor<nanovdb::ValueOnIndex>()(0, d);
}

/// One block of 64 threads per new leaf: its 24^3 neighbourhood of seed bits as rows along z
/// (bit 8 + z for the leaf's own z), dilated along z by shifts, then along y and x by ORs of
/// neighbouring rows; the middle 8^3 is the leaf's mask.
static __global__ void __launch_bounds__(64) dilateLeavesKernel(const IndexGrid* src, const LeafMask* seeds,
                                                                const IndexGrid* join, IndexGrid* dst, int m)
{
    __shared__ const uint64_t* nb[27];
    __shared__ uint32_t rows[24][24];
    __shared__ uint32_t alongY[24][8];
    __shared__ unsigned long long out[8];
    const unsigned t = threadIdx.x;
    IndexLeaf& leaf = const_cast<IndexLeaf&>(leaves(dst)[blockIdx.x]);
    const nanovdb::Coord o = leaf.origin();
    if (t < 27) {
        const IndexLeaf* n = src->tree().root().probeLeaf(o.offsetBy(8 * (int(t) / 9 - 1), 8 * (int(t) / 3 % 3 - 1), 8 * (int(t) % 3 - 1)));
        nb[t] = n ? seedWords(src, seeds, uint32_t(n - leaves(src))) : nullptr;
    }
    if (t < 8) out[t] = 0;
    __syncthreads();
    for (unsigned r = t; r < 24 * 24; r += 64) {
        const unsigned x = r / 24, y = r % 24;
        uint32_t row = 0;
        for (unsigned bz = 0; bz < 3; ++bz)
            if (const uint64_t* w = nb[(x / 8) * 9 + (y / 8) * 3 + bz]) row |= uint32_t(w[x % 8] >> (8 * (y % 8)) & 0xffu) << (8 * bz);
        uint32_t d = row;
        for (int k = 1; k <= m; ++k)
            d |= row << k | row >> k;
        rows[x][y] = d;
    }
    __syncthreads();
    for (unsigned r = t; r < 24 * 8; r += 64) {
        const unsigned x = r / 8, y = r % 8 + 8;
        uint32_t v = 0;
        for (int k = -m; k <= m; ++k)
            v |= rows[x][y + k];
        alongY[x][y - 8] = v;
    }
    __syncthreads();
    {
        const unsigned x = t / 8 + 8, y = t % 8;
        uint32_t v = 0;
        for (int k = -m; k <= m; ++k)
            v |= alongY[x + k][y];
        atomicOr(&out[x - 8], (unsigned long long)(v >> 8 & 0xffu) << (8 * y));
    }
    __syncthreads();
    if (t < 8) {
        uint64_t w = out[t];
        if (join)
            if (const IndexLeaf* j = join->tree().root().probeLeaf(o)) w |= j->valueMask().words()[t];
        const_cast<LeafMask&>(leaf.valueMask()).words()[t] = w;
    }
}

} // namespace dilation

/// A dilation's result: the grid, and its leaf count (known on the host).
struct Dilated {
    DeviceGridHandle grid;
    uint32_t leafCount = 0;
};

/// The voxels within `m` (0 to MaxDilationPass) of the seeds of `src` (per-leaf masks; null: all
/// its voxels), joined with the voxels of `join` (null for none), as a new OnIndex grid. `src`
/// has no tiles (as every grid of ours). Runs on `stream`; returns after it finishes.
inline Dilated dilateOnDevice(const IndexGrid* src, uint32_t srcLeaves, const LeafMask* seeds, int m,
                              const IndexGrid* join, uint32_t joinLeaves, const std::vector<nanovdb::Coord>& joinTiles,
                              cudaStream_t stream)
{
    using namespace dilation;
    if (m < 0 || m > MaxDilationPass) throw std::logic_error("dilateOnDevice: margin out of range");
    const auto check = [](cudaError_t e, const char* what) { cuda::checkCuda(e, what); };
    nanovdb::tools::cuda::TopologyBuilder<nanovdb::ValueOnIndex> builder(stream);
    // 1. the speculative root
    std::set<std::tuple<int, int, int>> tiles;
    for (const nanovdb::Coord& c : joinTiles)
        tiles.insert({c[0], c[1], c[2]});
    if (srcLeaves) {
        cuda::DeviceArray<TileNeeds> needs(1);
        needs.fill(0);
        tileOriginsKernel<<<1, 1, 0, stream>>>(src, needs.data());
        tileNeedsKernel<<<(srcLeaves + 127) / 128, 128, 0, stream>>>(src, srcLeaves, seeds, m, needs.data());
        check(cudaGetLastError(), "the dilation's tile kernels");
        TileNeeds host;
        check(cudaMemcpyAsync(&host, needs.data(), sizeof(TileNeeds), cudaMemcpyDeviceToHost, stream), "reading the dilation's root tiles");
        check(cudaStreamSynchronize(stream), "the dilation's root tiles");
        if (host.count > MaxDilationTiles)
            throw std::runtime_error("rebuild: the active set spans " + std::to_string(host.count) +
                                     " root tiles of 4096^3 voxels, over the dilation's limit of " +
                                     std::to_string(MaxDilationTiles));
        for (uint32_t t = 0; t < host.count; ++t)
            for (int k = 0; k < 27; ++k)
                if (host.need[t][k]) {
                    const nanovdb::Coord& o = host.origin[t];
                    tiles.insert({o[0] + 4096 * (k / 9 - 1), o[1] + 4096 * (k / 3 % 3 - 1), o[2] + 4096 * (k % 3 - 1)});
                }
    }
    builder.mProcessedRoot = nanovdb::cuda::DeviceBuffer::create(Root::memUsage(uint32_t(tiles.size())));
    Root* root = builder.hostProcessedRoot();
    root->mTableSize = uint32_t(tiles.size());
    uint32_t n = 0;
    for (const auto& [x, y, z] : tiles)
    {
        typename Root::Tile tile{};
        tile.key = Root::CoordToKey(nanovdb::Coord(x, y, z));
        *root->tile(n++) = tile;
    }
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    builder.mProcessedRoot.deviceUpload(device, stream, false);
    // 2. the leaves, marked in the builder's dense masks; the nodes laid out
    builder.allocateInternalMaskBuffers(stream);
    if (!tiles.empty()) {
        if (srcLeaves)
            markReachedLeavesKernel<<<(srcLeaves + 127) / 128, 128, 0, stream>>>(
                src, srcLeaves, seeds, m, builder.deviceProcessedRoot(), builder.deviceUpperMasks(), builder.deviceLowerMasks());
        if (joinLeaves)
            markJoinedLeavesKernel<<<(joinLeaves + 127) / 128, 128, 0, stream>>>(
                join, joinLeaves, builder.deviceProcessedRoot(), builder.deviceUpperMasks(), builder.deviceLowerMasks());
        check(cudaGetLastError(), "the dilation's marking kernels");
    }
    builder.countNodes(stream);
    check(cudaStreamSynchronize(stream), "counting the dilated grid's nodes");
    nanovdb::cuda::DeviceBuffer buffer = builder.getBuffer(nanovdb::cuda::DeviceBuffer(), stream);
    check(cudaMemcpyAsync(&builder.data()->getGrid(), src, sizeof(nanovdb::GridData), cudaMemcpyDeviceToDevice, stream),
          "copying the grid header");
    gridTreeRootKernel<<<1, 1, 0, stream>>>(builder.deviceData());
    builder.processUpperNodes(stream);
    builder.processLowerNodes(stream);
    // 3. the leaves' masks
    const uint32_t leafCount = builder.data()->nodeCount[0];
    if (leafCount) {
        dilateLeavesKernel<<<leafCount, 64, 0, stream>>>(src, seeds, join, static_cast<IndexGrid*>(builder.data()->d_bufferPtr), m);
        check(cudaGetLastError(), "the dilation's leaf kernel");
    }
    builder.processLeafOffsets(stream);
    builder.processBBox(stream);
    builder.postProcessGridTree(stream);
    check(cudaStreamSynchronize(stream), "building the dilated grid");
    return {DeviceGridHandle(std::move(buffer)), leafCount};
}

/// dilateOnDevice by any margin >= 0, in passes of at most MaxDilationPass (an L-infinity ball
/// of radius a + b is the ball of radius a dilated by b); `join` joins in the last.
inline Dilated dilateBy(const IndexGrid* src, uint32_t srcLeaves, const LeafMask* seeds, int margin,
                        const IndexGrid* join, uint32_t joinLeaves, const std::vector<nanovdb::Coord>& joinTiles,
                        cudaStream_t stream)
{
    Dilated set;
    for (int left = margin;;) {
        const int m = std::min(left, MaxDilationPass);
        left -= m;
        const bool last = left == 0;
        set = dilateOnDevice(src, srcLeaves, seeds, m, last ? join : nullptr, last ? joinLeaves : 0,
                             last ? joinTiles : std::vector<nanovdb::Coord>(), stream);
        if (last) return set;
        src = static_cast<const IndexGrid*>(set.grid.buffer().deviceData()), srcLeaves = set.leafCount, seeds = nullptr;
    }
}

} // namespace vbm::solver
