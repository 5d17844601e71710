// SPDX-License-Identifier: Apache-2.0
// The VBM consumer kernel template, instantiated per block width in VbmConsumerW*.cu so the
// two widths compile in parallel.
#pragma once

#include "BenchKernels.h"
#include "vbm/BlockSkeleton.h"
#include "vbm/SidecarConsumers.h"

#include <stdexcept>

namespace bench {

/// One thread per slot of one VBM block, through the block skeleton (decode, stage, barrier,
/// resolve through R): sum the sidecar channels over the taps in tap order, write them.
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

/// The consumer's block body: the sum of the C sidecar channels over the taps, written to the
/// voxel's C outputs. Every variant runs it.
template <int C>
struct SidecarSumBody {
    const float* sidecar;
    float* out;
    template <typename Taps>
    __device__ void operator()(const vbm::SlotOf& s, Taps&& taps) const
    {
        vbm::BoxSumAccumulator<C> sum{sidecar};
        taps(sum);
        float* dst = out + s.index * C;
        for (int ch = 0; ch < C; ++ch)
            dst[ch] = sum.acc[ch];
    }
};

/// The VbmView of a problem.
inline __host__ __device__ vbm::VbmView viewOf(const SparseProblem& p)
{
    return {p.grid, p.firstLeafID, p.jumpMap, p.firstOffset, p.blockCount, 0, p.boxTable, p.crossTable};
}

template <int L, vbm::Resolver R, int C>
__global__ void __launch_bounds__(1 << L, minBlocksPerSM<R, L>()) vbmConsumer(SparseProblem p)
{
    vbm::runThisSlot<L, R>(viewOf(p), blockIdx.x, SidecarSumBody<C>{p.sidecar, p.out});
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
