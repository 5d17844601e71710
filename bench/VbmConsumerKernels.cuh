// The VBM consumer kernel template, instantiated per block width in VbmConsumerW*.cu so the
// two widths compile in parallel.
#pragma once

#include "BenchKernels.h"
#include "vbm/CachedStencils.h"
#include "vbm/DecodeInverseMap.h"
#include "vbm/NanoVdbReferencePath.cuh"
#include "vbm/SidecarConsumers.h"
#include "vbm/TreeWalkStencils.h"

#include <stdexcept>

namespace bench {

/// One thread per slot of one VBM block: decode, resolve through R's public API, sum the
/// sidecar channels over the taps in tap order, write them.
// Resident threads per SM each variant asks the compiler to allow, through launch bounds
// (measured on the H200, docs/bench): the box variants 1024 (at most 64 registers: unbounded,
// the materialized ones keep their 27-entry arrays in 72-87 registers and the streamed cached
// one takes 124 at C = 8, sinking occupancy to 16 warps); the cross variants 1536 (at most 40
// registers, 48 warps), which they reach without spilling.
template <vbm::Resolver R, int L>
constexpr int minBlocksPerSM()
{
    return vbm::isBoxResolver(R) ? 1024 >> L : 1536 >> L;
}

template <int L, vbm::Resolver R, int C>
__global__ void __launch_bounds__(1 << L, minBlocksPerSM<R, L>()) vbmConsumer(SparseProblem p)
{
    using namespace vbm;
    const uint64_t b = blockIdx.x;
    const uint32_t slot = threadIdx.x;
    const uint32_t firstLeaf = p.firstLeafID[b];
    const uint64_t* jm = p.jumpMap + b * BlockLayout<L>::JumpMapLength;
    const uint64_t blockFirst = p.firstOffset + (b << L);
    BoxSumAccumulator<C> sum{p.sidecar};
    uint32_t leafIndex;
    uint16_t voxelOffset;
    if constexpr (R == Resolver::NanoVDB13) {
        uint64_t taps[BoxTapCount];
        leafIndex = nanovdbReferenceBoxStencil<L>(p.grid, firstLeaf, jm, blockFirst, taps);
        if (leafIndex == UnusedLeafIndex) return;
        for (int t = 0; t < BoxTapCount; ++t)
            sum(t, taps[t]);
    } else if constexpr (R == Resolver::computeBoxStencil || R == Resolver::computeBoxStencilCached) {
        decodeInverseMap<L>(p.grid, firstLeaf, jm, blockFirst, slot, leafIndex, voxelOffset);
        uint64_t taps[BoxTapCount];
        if constexpr (R == Resolver::computeBoxStencil) {
            computeBoxStencil(p.grid, leafIndex, voxelOffset, taps);
        } else {
            __shared__ BoxStencilTable table;
            computeBoxStencilCached<L>(p.grid, firstLeaf, jm, leafIndex, voxelOffset, table, taps);
        }
        if (leafIndex == UnusedLeafIndex) return;
        for (int t = 0; t < BoxTapCount; ++t)
            sum(t, taps[t]);
    } else if constexpr (R == Resolver::forEachBoxStencil) {
        decodeInverseMap<L>(p.grid, firstLeaf, jm, blockFirst, slot, leafIndex, voxelOffset);
        if (leafIndex == UnusedLeafIndex) return;
        forEachBoxStencil(p.grid, leafIndex, voxelOffset, sum);
    } else if constexpr (R == Resolver::forEachBoxStencilCached) {
        __shared__ BoxStencilTable table;
        decodeInverseMap<L>(p.grid, firstLeaf, jm, blockFirst, slot, leafIndex, voxelOffset);
        forEachBoxStencilCached<L>(p.grid, firstLeaf, jm, leafIndex, voxelOffset, table, sum);
        if (leafIndex == UnusedLeafIndex) return;
    } else {
        decodeInverseMap<L>(p.grid, firstLeaf, jm, blockFirst, slot, leafIndex, voxelOffset);
        uint64_t taps[CrossTapCount];
        if constexpr (R == Resolver::computeCrossStencil) {
            computeCrossStencil(p.grid, leafIndex, voxelOffset, taps);
        } else {
            __shared__ CrossStencilTable table;
            computeCrossStencilCached<L>(p.grid, firstLeaf, jm, leafIndex, voxelOffset, table, taps);
        }
        if (leafIndex == UnusedLeafIndex) return;
        for (int t = 0; t < CrossTapCount; ++t)
            sum(t, taps[t]);
    }
    float* dst = p.out + (blockFirst + slot) * C;
    for (int ch = 0; ch < C; ++ch)
        dst[ch] = sum.acc[ch];
}

template <int L>
KernelRef vbmConsumerKernelW(vbm::Resolver r, int channels)
{
    return vbm::withResolver(r, [&](auto tag) {
        return withChannels(channels, [&](auto c) {
            return KernelRef{reinterpret_cast<const void*>(&vbmConsumer<L, decltype(tag)::value, decltype(c)::value>),
                             1 << L};
        });
    });
}

template <int L>
void launchVbmConsumerW(vbm::Resolver r, const SparseProblem& p, cudaStream_t stream)
{
    vbm::withResolver(r, [&](auto tag) {
        withChannels(p.channels, [&](auto c) {
            vbmConsumer<L, decltype(tag)::value, decltype(c)::value><<<unsigned(p.blockCount), 1u << L, 0, stream>>>(p);
        });
    });
}

} // namespace bench
