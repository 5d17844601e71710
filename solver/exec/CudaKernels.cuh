// SPDX-License-Identifier: Apache-2.0
// The CUDA executor's kernels: a VBM block per thread block (one thread per slot, through the
// block skeleton) for stencil and voxel bodies, a thread per element for element bodies, and
// reductions whose launch shape, so summation order and result, depend on the element count
// alone (never on the resolver, the width or the device), with totals that stay on the device. Every kernel is a
// programmatic dependent launch on sm_90.
#pragma once

#include "kernels/AbsOrInf.h"
#include "kernels/StoredTaps.h"
#include "vbm/BlockSkeleton.h"
#include "vbm/VbmView.h"

#include <cstdint>

namespace vbm::solver {

/// Programmatic dependent launch (sm_90): a kernel may be launched while the one before it in
/// the stream is still finishing; it waits here, before reading anything, until that one has
/// finished and its writes are visible, then lets the next one launch in turn. So the launch
/// latency between dependent kernels overlaps the tail of the last one. A no-op without PDL.
__device__ inline void waitForPreviousKernel()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();
    cudaTriggerProgrammaticLaunchCompletion();
#endif
}

/// skip: a flag in device memory; while it is non-zero the launch does nothing (null: always runs).
__device__ inline bool skipped(const double* skip)
{
    waitForPreviousKernel();
    return skip && *skip != 0.0;
}

template <int L, Resolver R, typename Body>
__global__ void __launch_bounds__(1 << L) solverStencilKernel(VbmView v, Body body, const double* skip)
{
    if (skipped(skip)) return;
    runThisSlot<L, R>(v, blockIdx.x, [&](const SlotOf& slot, auto&& taps) { body(slot.index, taps); });
}

/// Sum of 2^log2 doubles of shared memory by a fixed tree; the total ends in sh[0]. Cooperative.
template <int N>
__device__ double blockTreeSum(double* sh, double s)
{
    sh[threadIdx.x] = s;
    __syncthreads();
    for (int w = N / 2; w > 0; w >>= 1) {
        if (int(threadIdx.x) < w) sh[threadIdx.x] += sh[threadIdx.x + w];
        __syncthreads();
    }
    return sh[0];
}

/// Sums in groups of SumGroup value indices (a fixed tree per group), the same groups whatever
/// the block width, so a fused reduction's result does not depend on the width either.
inline constexpr int SumGroup = 128;

/// The stencil body's double results, summed per SumGroup slots into partial[group]. Cooperative.
template <int L, Resolver R, typename Body>
__global__ void __launch_bounds__(1 << L)
    solverStencilSumKernel(VbmView v, Body body, const double* skip, double* partial, uint64_t groups)
{
    if (skipped(skip)) return;
    double s = 0.0;
    runThisSlot<L, R>(v, blockIdx.x, [&](const SlotOf& slot, auto&& taps) { s = body(slot.index, taps); });
    __shared__ double sh[1 << L];
    sh[threadIdx.x] = s;
    __syncthreads();
    const int t = threadIdx.x % SumGroup;
    for (int w = SumGroup / 2; w > 0; w >>= 1) {
        if (t < w) sh[threadIdx.x] += sh[threadIdx.x + w];
        __syncthreads();
    }
    const uint64_t g = (uint64_t(blockIdx.x) << L) / SumGroup + threadIdx.x / SumGroup;
    if (t == 0 && g < groups) partial[g] = sh[threadIdx.x];
}

/// solverStencilSumKernel's sums with the taps from the voxel tap table (kernels/StoredTaps.h):
/// a thread block per SumGroup value indices from `first`, summed by the same tree, so every
/// partial, and the total, is bitwise the stencil kernel's.
template <typename Body>
__global__ void __launch_bounds__(SumGroup) solverStoredSumKernel(uint64_t first, uint64_t n, const uint32_t* table,
                                                                  Body body, const double* skip, double* partial)
{
    if (skipped(skip)) return;
    const uint64_t i = first + uint64_t(blockIdx.x) * SumGroup + threadIdx.x;
    const double s = i < n ? body(i, StoredCrossTaps{table, i}) : 0.0;
    __shared__ double sh[SumGroup];
    const double total = blockTreeSum<SumGroup>(sh, s);
    if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

template <int L, typename Body>
__global__ void __launch_bounds__(1 << L) solverVoxelKernel(VbmView v, Body body, const double* skip)
{
    if (skipped(skip)) return;
    // decode only: a plain resolver stages nothing, and its taps are never asked for
    runThisSlot<L, Resolver::computeCrossStencil>(
        v, blockIdx.x, [&](const SlotOf& s, auto&&) { body(s.index, s.leafIndex, s.voxelOffset); });
}

/// body(i) for every i in [1, n), grid-striding: the element kernels' one loop (CudaExec::elements
/// launches a thread per element, so each thread runs it once; the stride keeps any grid correct).
template <typename Body>
__device__ void runElements(uint64_t n, const Body& body, const double* skip)
{
    if (skipped(skip)) return;
    for (uint64_t i = 1 + uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
        body(i);
}
template <typename Body>
__global__ void solverElementKernel(uint64_t n, Body body, const double* skip)
{
    runElements(n, body, skip);
}

inline constexpr int ElementThreads = 256;
/// An element body that asks for at least Body::MinBlocksPerSm blocks of ElementThreads on an SM
/// at once (so at most 65536 / (that x 256) registers per thread): a gather that waits on its
/// loads then has more warps to switch between.
template <typename Body>
concept MinBlocksBody = requires
{
    Body::MinBlocksPerSm;
};
template <MinBlocksBody Body>
__global__ void __launch_bounds__(ElementThreads, Body::MinBlocksPerSm)
    solverElementKernelMinBlocks(uint64_t n, Body body, const double* skip)
{
    runElements(n, body, skip);
}

inline constexpr int ReduceBlocks = 1024;
inline constexpr int ReduceThreads = 256;

/// An element body whose element splits into body.load(i) (every read) and body.store(i, in)
/// (the rest, returning the element's value): a thread can read several elements before it
/// writes any.
template <typename Body>
concept LoadStoreBody = requires(const Body& b, uint64_t i)
{
    b.store(i, b.load(i));
};

/// An element reduction's block sums ReduceChunk consecutive elements, each thread every
/// ReduceThreads-th of them in index order: the blocks in flight then stream through the arrays
/// in index order, as the element kernels do (a fixed grid of 1024 blocks striding over the 1B
/// plume read 26 bytes per voxel in UpdateSolution where 17 are needed, on the H200).
inline constexpr int ReduceElementsPerThread = 16;
inline constexpr uint64_t ReduceChunk = uint64_t(ReduceThreads) * ReduceElementsPerThread;

/// Elements a thread of a reduction reads ahead, for a LoadStoreBody: a memory-bound pass then
/// has that many elements' loads in flight per thread. Each thread still sums its elements in
/// index order, so the partials, and the total, do not change.
inline constexpr int ReduceReadAhead = 4;

/// The element body's double results over [1, n), a partial per block of ReduceChunk elements.
template <typename Body>
__global__ void __launch_bounds__(ReduceThreads)
    solverElementSumKernel(uint64_t n, Body body, const double* skip, double* partial)
{
    if (skipped(skip)) return;
    double s = 0.0;
    const uint64_t first = 1 + uint64_t(blockIdx.x) * ReduceChunk;
    const uint64_t end = first + ReduceChunk < n ? first + ReduceChunk : n;
    uint64_t i = first + threadIdx.x;
    if constexpr (LoadStoreBody<Body>) {
        constexpr int U = ReduceReadAhead;
        for (; i + (U - 1) * ReduceThreads < end; i += U * ReduceThreads) {
            decltype(body.load(i)) in[U];
#pragma unroll
            for (int u = 0; u < U; ++u)
                in[u] = body.load(i + u * ReduceThreads);
#pragma unroll
            for (int u = 0; u < U; ++u)
                s += body.store(i + u * ReduceThreads, in[u]);
        }
    }
    for (; i < end; i += ReduceThreads)
        s += body(i);
    __shared__ double sh[ReduceThreads];
    const double total = blockTreeSum<ReduceThreads>(sh, s);
    if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

/// Sums count partials in a fixed order (FinishThreads chains, chain t the partials t,
/// t + FinishThreads, ... in that order, then a tree over the chains) and hands the total to
/// finish, on the device: no host round trip.
inline constexpr int FinishThreads = 1024;
/// Partials a chain loads before it adds them (in chain order): one block's chains over the 1B
/// plume's 7.7M partials waited on one load at a time (0.88 ms per sum on the H200).
inline constexpr int FinishReadAhead = 8;
__device__ inline double finishChain(const double* partial, uint64_t count, uint64_t t)
{
    constexpr int U = FinishReadAhead;
    double s = 0.0;
    uint64_t i = t;
    for (; i + (U - 1) * FinishThreads < count; i += U * FinishThreads) {
        double v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            v[u] = partial[i + u * FinishThreads];
#pragma unroll
        for (int u = 0; u < U; ++u)
            s += v[u];
    }
    for (; i < count; i += FinishThreads)
        s += partial[i];
    return s;
}
template <typename Finish>
__global__ void __launch_bounds__(FinishThreads)
    solverFinishKernel(const double* partial, uint64_t count, Finish finish, const double* skip)
{
    if (skipped(skip)) return;
    __shared__ double sh[FinishThreads];
    const double total = blockTreeSum<FinishThreads>(sh, finishChain(partial, count, threadIdx.x));
    if (threadIdx.x == 0) finish(total);
}
/// Many partials: the chains spread over FinishThreads / FinishChainThreads blocks (so over as
/// many SMs) into chain[], whose solverFinishKernel over FinishThreads "partials" is then the
/// tree alone (each chain adds 0 + chain[t] = chain[t]): the same bits as one block.
inline constexpr int FinishChainThreads = 32;
inline constexpr uint64_t FinishSplitAbove = uint64_t(1) << 18;
static __global__ void __launch_bounds__(FinishChainThreads)
    solverFinishChainsKernel(const double* partial, uint64_t count, double* chain, const double* skip)
{
    if (skipped(skip)) return;
    const uint64_t t = uint64_t(blockIdx.x) * FinishChainThreads + threadIdx.x;
    chain[t] = finishChain(partial, count, t);
}

/// body(step, i, scratch) for steps [0, count) and i in [1, n), one thread block with a barrier
/// between steps: a small level's whole iterative solve in one launch instead of one launch per
/// sweep. scratch: the block's dynamic shared memory (on-chip, so a step reads what the last one
/// wrote without a trip to L2).
inline constexpr int StepsThreads = 1024;
template <typename Body>
__global__ void __launch_bounds__(StepsThreads) solverStepsKernel(uint64_t n, int count, Body body, const double* skip)
{
    if (skipped(skip)) return;
    extern __shared__ float scratch[];
    for (int s = 0; s < count; ++s) {
        for (uint64_t i = 1 + threadIdx.x; i < n; i += blockDim.x)
            body(s, i, scratch);
        __syncthreads();
    }
}

template <typename Body>
__global__ void solverSingleKernel(Body body)
{
    waitForPreviousKernel();
    body();
}

/// Per-block partials of max(|a|, |b|, |c|), in a fixed order.
static __global__ void __launch_bounds__(ReduceThreads)
    solverMaxAbsKernel(const float* a, const float* b, const float* c, uint64_t n, double* partial)
{
    waitForPreviousKernel();
    double s = 0.0;
    for (uint64_t i = 1 + uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
        s = fmax(s, fmax(absOrInf(a[i]), fmax(absOrInf(b[i]), absOrInf(c[i]))));
    __shared__ double sh[ReduceThreads];
    sh[threadIdx.x] = s;
    __syncthreads();
    for (int w = ReduceThreads / 2; w > 0; w >>= 1) {
        if (int(threadIdx.x) < w) sh[threadIdx.x] = fmax(sh[threadIdx.x], sh[threadIdx.x + w]);
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = sh[0];
}

} // namespace vbm::solver
