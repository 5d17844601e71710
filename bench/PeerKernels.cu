// SPDX-License-Identifier: Apache-2.0
// The alternatives vbm-bench compares against: ReadAccessor per voxel, the dense floor, and
// decode alone (ours and NanoVDB 13.0.0's).
#include "BenchKernels.h"
#include "vbm/DecodeInverseMap.h"
#include "vbm/TreeWalkStencils.h"

#include <nanovdb/tools/cuda/VoxelBlockManager.cuh>

#include <algorithm>
#include <stdexcept>

namespace bench {

namespace {

// One thread per voxel slot of a leaf (512 per block); inactive slots leave at once.
template <int C, bool Box>
__global__ void __launch_bounds__(512) accessorConsumer(SparseProblem p)
{
    using namespace vbm;
    const IndexLeaf& leaf = leaves(p.grid)[blockIdx.x];
    const uint32_t n = threadIdx.x;
    if (!leaf.valueMask().isOn(n)) return;
    auto acc = p.grid->getAccessor();
    const nanovdb::Coord c = leaf.offsetToGlobalCoord(n);
    float sum[C] = {};
    const auto add = [&](uint64_t index) {
        for (int ch = 0; ch < C; ++ch)
            sum[ch] += p.sidecar[index * C + ch];
    };
    if constexpr (Box) {
        for (int di = -1; di <= 1; ++di)
            for (int dj = -1; dj <= 1; ++dj)
                for (int dk = -1; dk <= 1; ++dk)
                    add(acc.getValue(c.offsetBy(di, dj, dk)));
    } else {
        add(acc.getValue(c));
        add(acc.getValue(c.offsetBy(-1, 0, 0)));
        add(acc.getValue(c.offsetBy(1, 0, 0)));
        add(acc.getValue(c.offsetBy(0, -1, 0)));
        add(acc.getValue(c.offsetBy(0, 1, 0)));
        add(acc.getValue(c.offsetBy(0, 0, -1)));
        add(acc.getValue(c.offsetBy(0, 0, 1)));
    }
    float* dst = p.out + leaf.getValue(n) * C;
    for (int ch = 0; ch < C; ++ch)
        dst[ch] = sum[ch];
}

constexpr int DenseBlockX = 32, DenseBlockY = 8;

// All C channels of one voxel, with the widest loads the layout's alignment allows.
template <int C>
__device__ inline void loadChannels(const float* __restrict__ src, float (&v)[C])
{
    if constexpr (C % 4 == 0) {
        for (int ch = 0; ch < C; ch += 4) {
            const float4 q = __ldg(reinterpret_cast<const float4*>(src + ch));
            v[ch] = q.x, v[ch + 1] = q.y, v[ch + 2] = q.z, v[ch + 3] = q.w;
        }
    } else if constexpr (C == 2) {
        const float2 q = __ldg(reinterpret_cast<const float2*>(src));
        v[0] = q.x, v[1] = q.y;
    } else {
        for (int ch = 0; ch < C; ++ch)
            v[ch] = __ldg(src + ch);
    }
}

// The stencil along a column from z0 to z1, each step loading one new plane: the cross keeps
// the centre column's z-1 and z, the box the 3x3 plane sums of z-1 and z. `at(di, dj, dk, v)`
// loads the channels of the neighbour (di, dj, dk) of the column's voxel at z = dk.
template <int C, bool Box, typename At>
__device__ inline void marchColumn(float* __restrict__ dst, size_t dstStrideZ, int z0, int z1, At&& at)
{
    const auto addTo = [](float(&acc)[C], const float(&v)[C]) {
#pragma unroll
        for (int ch = 0; ch < C; ++ch)
            acc[ch] += v[ch];
    };
    const auto plane = [&](int k, float(&s)[C]) {
#pragma unroll
        for (int ch = 0; ch < C; ++ch)
            s[ch] = 0.f;
        float v[C];
#pragma unroll
        for (int dj = -1; dj <= 1; ++dj)
#pragma unroll
            for (int di = -1; di <= 1; ++di) {
                at(di, dj, k, v);
                addTo(s, v);
            }
    };
    float prev[C], cur[C], next[C], v[C];
    if constexpr (Box)
        plane(z0 - 1, prev), plane(z0, cur);
    else
        at(0, 0, z0 - 1, prev), at(0, 0, z0, cur);
#pragma unroll 4
    for (int z = z0; z < z1; ++z) {
        float acc[C];
        if constexpr (Box) {
            plane(z + 1, next);
#pragma unroll
            for (int ch = 0; ch < C; ++ch)
                acc[ch] = prev[ch] + cur[ch] + next[ch];
        } else {
            at(0, 0, z + 1, next);
#pragma unroll
            for (int ch = 0; ch < C; ++ch)
                acc[ch] = cur[ch];
            at(-1, 0, z, v), addTo(acc, v);
            at(1, 0, z, v), addTo(acc, v);
            at(0, -1, z, v), addTo(acc, v);
            at(0, 1, z, v), addTo(acc, v);
            addTo(acc, prev), addTo(acc, next);
        }
#pragma unroll
        for (int ch = 0; ch < C; ++ch)
            dst[ch] = acc[ch];
        dst += dstStrideZ;
#pragma unroll
        for (int ch = 0; ch < C; ++ch)
            prev[ch] = cur[ch], cur[ch] = next[ch];
    }
}

// Each thread owns column (x, y) over z in [z0, z0 + zChunk) and marches along z, all C
// channels at once, from one base pointer at constant strides: the halo makes every
// neighbour a plain load.
template <int C, bool Box>
__global__ void __launch_bounds__(DenseBlockX* DenseBlockY) denseConsumer(DenseProblem p, int zChunk)
{
    const int x = blockIdx.x * DenseBlockX + threadIdx.x;
    const int y = blockIdx.y * DenseBlockY + threadIdx.y;
    const int z0 = blockIdx.z * zChunk;
    if (x >= p.nx || y >= p.ny || z0 >= p.nz) return;
    const int z1 = min(p.nz, z0 + zChunk);
    const ptrdiff_t iy = ptrdiff_t(p.nx + 2) * C, iz = iy * (p.ny + 2);
    const float* __restrict__ c = p.in + ptrdiff_t(y) * iy + ptrdiff_t(x) * C;
    float* dst = p.out + ((size_t(z0) * p.ny + y) * p.nx + x) * C;
    marchColumn<C, Box>(dst, size_t(p.nx) * p.ny * C, z0, z1, [&](int di, int dj, int k, float(&v)[C]) {
        loadChannels<C>(c + ptrdiff_t(k) * iz + ptrdiff_t(dj) * iy + di * C, v);
    });
}

// 16 planes per thread (the z-march's reuse pays from there on; more leaves too few blocks
// on small boxes), never fewer than 4 when the box is short.
int denseZChunk(const DenseProblem& p) { return std::max(4, std::min(16, p.nz)); }

template <int L>
__global__ void __launch_bounds__(1 << L) ourDecode(SparseProblem p, uint32_t* leafIndex, uint16_t* voxelOffset)
{
    const uint64_t b = blockIdx.x;
    const uint64_t s = (b << L) + threadIdx.x;
    uint32_t li;
    uint16_t vo;
    vbm::decodeInverseMap<L>(p.grid, p.firstLeafID[b], p.jumpMap + b * vbm::BlockLayout<L>::JumpMapLength,
                             p.firstOffset + (b << L), threadIdx.x, li, vo);
    leafIndex[s] = li;
    voxelOffset[s] = vo;
}

template <int L>
__global__ void __launch_bounds__(1 << L) nanovdbDecode(SparseProblem p, uint32_t* leafIndex, uint16_t* voxelOffset)
{
    constexpr int W = 1 << L;
    __shared__ uint32_t sLeaf[W];
    __shared__ uint16_t sVoxel[W];
    const uint64_t b = blockIdx.x;
    nanovdb::tools::cuda::VoxelBlockManager<W>::decodeInverseMaps(const_cast<vbm::IndexGrid*>(p.grid), p.firstLeafID[b],
                                                                  p.jumpMap + b * (W / 64), p.firstOffset + (b << L),
                                                                  sLeaf, sVoxel);
    leafIndex[(b << L) + threadIdx.x] = sLeaf[threadIdx.x];
    voxelOffset[(b << L) + threadIdx.x] = sVoxel[threadIdx.x];
}

} // namespace

void launchAccessorConsumer(bool box, const SparseProblem& p, cudaStream_t stream)
{
    withChannels(p.channels, [&](auto c) {
        if (box)
            accessorConsumer<decltype(c)::value, true><<<p.leafCount, 512, 0, stream>>>(p);
        else
            accessorConsumer<decltype(c)::value, false><<<p.leafCount, 512, 0, stream>>>(p);
    });
}

KernelRef accessorConsumerKernel(bool box, int channels)
{
    return withChannels(channels, [&](auto c) {
        constexpr int C = decltype(c)::value;
        return KernelRef{box ? reinterpret_cast<const void*>(&accessorConsumer<C, true>)
                             : reinterpret_cast<const void*>(&accessorConsumer<C, false>),
                         512};
    });
}

void launchDenseConsumer(bool box, const DenseProblem& p, cudaStream_t stream)
{
    const int zChunk = denseZChunk(p);
    const dim3 block(DenseBlockX, DenseBlockY);
    const dim3 grid((p.nx + DenseBlockX - 1) / DenseBlockX, (p.ny + DenseBlockY - 1) / DenseBlockY,
                    (p.nz + zChunk - 1) / zChunk);
    withChannels(p.channels, [&](auto c) {
        if (box)
            denseConsumer<decltype(c)::value, true><<<grid, block, 0, stream>>>(p, zChunk);
        else
            denseConsumer<decltype(c)::value, false><<<grid, block, 0, stream>>>(p, zChunk);
    });
}

KernelRef denseConsumerKernel(bool box, int channels)
{
    return withChannels(channels, [&](auto c) {
        constexpr int C = decltype(c)::value;
        return KernelRef{box ? reinterpret_cast<const void*>(&denseConsumer<C, true>)
                             : reinterpret_cast<const void*>(&denseConsumer<C, false>),
                         DenseBlockX * DenseBlockY};
    });
}

void launchDecode(bool nanovdb, const SparseProblem& p, uint32_t* leafIndex, uint16_t* voxelOffset, cudaStream_t stream)
{
    vbm::withBlockWidth(p.log2Width, [&](auto l) {
        constexpr int L = decltype(l)::value;
        if (nanovdb)
            nanovdbDecode<L><<<unsigned(p.blockCount), 1u << L, 0, stream>>>(p, leafIndex, voxelOffset);
        else
            ourDecode<L><<<unsigned(p.blockCount), 1u << L, 0, stream>>>(p, leafIndex, voxelOffset);
    });
}

KernelRef decodeKernel(bool nanovdb, int log2Width)
{
    return vbm::withBlockWidth(log2Width, [&](auto l) {
        constexpr int L = decltype(l)::value;
        return KernelRef{nanovdb ? reinterpret_cast<const void*>(&nanovdbDecode<L>)
                                 : reinterpret_cast<const void*>(&ourDecode<L>),
                         1 << L};
    });
}

} // namespace bench
