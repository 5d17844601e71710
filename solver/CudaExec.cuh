// The CUDA backend's executor: one thread block per VBM block (one thread per slot) for
// stencil bodies, grid-stride kernels for element bodies, and reductions with a fixed launch
// shape (so their summation order, and result, never change). All work on one stream.
#pragma once

#include "CudaCheck.h"
#include "DeviceArray.h"
#include "VbmView.h"
#include "vbm/DecodeInverseMap.h"
#include "vbm/NanoVdbReferencePath.cuh"
#include "vbm/ResolverDispatch.h"

#include <vector>

namespace vbm::solver {

template <int L, Resolver R, typename Body>
__global__ void __launch_bounds__(1 << L) solverStencilKernel(VbmView v, Body body)
{
    const uint64_t b = blockIdx.x;
    const uint32_t slot = threadIdx.x;
    const uint32_t firstLeaf = v.firstLeafID[b];
    const uint64_t* jm = v.jumpMap + b * BlockLayout<L>::JumpMapLength;
    const uint64_t blockFirst = v.firstOffset + (b << L);
    if constexpr (R == Resolver::NanoVDB13) {
        uint64_t taps[BoxTapCount];
        if (nanovdbReferenceBoxStencil<L>(v.grid, firstLeaf, jm, blockFirst, taps) == UnusedLeafIndex) return;
        body(blockFirst + slot, [&](auto&& f) {
            for (int t = 0; t < BoxTapCount; ++t)
                f(t, taps[t]);
        });
    } else {
        __shared__ ResolverTable<R> table;
        uint32_t leafIndex;
        uint16_t voxelOffset;
        decodeInverseMap<L>(v.grid, firstLeaf, jm, blockFirst, slot, leafIndex, voxelOffset);
        if constexpr (isCachedResolver(R)) {
            stageResolverTable<L, R>(v.grid, firstLeaf, jm, table, threadIdx.x, blockDim.x);
            __syncthreads();
        }
        if (leafIndex == UnusedLeafIndex) return;
        body(blockFirst + slot,
             [&](auto&& f) { forEachResolvedTap<L, R>(v.grid, firstLeaf, jm, leafIndex, voxelOffset, table, f); });
    }
}

template <int L, typename Body>
__global__ void __launch_bounds__(1 << L) solverVoxelKernel(VbmView v, Body body)
{
    const uint64_t b = blockIdx.x;
    const uint64_t blockFirst = v.firstOffset + (b << L);
    uint32_t leafIndex;
    uint16_t voxelOffset;
    decodeInverseMap<L>(v.grid, v.firstLeafID[b], v.jumpMap + b * BlockLayout<L>::JumpMapLength, blockFirst,
                        threadIdx.x, leafIndex, voxelOffset);
    if (leafIndex != UnusedLeafIndex) body(blockFirst + threadIdx.x, leafIndex, voxelOffset);
}

template <typename Body>
__global__ void solverElementKernel(uint64_t n, Body body)
{
    for (uint64_t i = 1 + uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
        body(i);
}

inline constexpr int ReduceBlocks = 1024, ReduceThreads = 256;

/// Per-block partials of sum a*b (c == nullptr) or of max(|a|, |b|, |c|), in a fixed order.
__global__ void __launch_bounds__(ReduceThreads)
    solverReduceKernel(const float* a, const float* b, const float* c, uint64_t n, double* partial)
{
    const bool isMax = c != nullptr;
    double s = 0.0;
    for (uint64_t i = 1 + uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
        s = isMax ? fmax(s, fmax(fabs(double(a[i])), fmax(fabs(double(b[i])), fabs(double(c[i])))))
                  : s + double(a[i]) * double(b[i]);
    __shared__ double sh[ReduceThreads];
    sh[threadIdx.x] = s;
    __syncthreads();
    for (int w = ReduceThreads / 2; w > 0; w >>= 1) {
        if (int(threadIdx.x) < w)
            sh[threadIdx.x] =
                isMax ? fmax(sh[threadIdx.x], sh[threadIdx.x + w]) : sh[threadIdx.x] + sh[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = sh[0];
}

class CudaExec {
public:
    static constexpr bool OnDevice = true;
    template <typename T>
    using Array = cuda::DeviceArray<T>;

    CudaExec() : mPartial(ReduceBlocks), mHostPartial(ReduceBlocks)
    {
        cuda::checkCuda(cudaStreamCreateWithFlags(&mStream, cudaStreamNonBlocking), "cudaStreamCreate");
    }
    ~CudaExec()
    {
        for (auto e : mEvents)
            cudaEventDestroy(e);
        cudaStreamDestroy(mStream);
    }
    CudaExec(const CudaExec&) = delete;
    CudaExec& operator=(const CudaExec&) = delete;

    template <typename T>
    static Array<T> allocate(uint64_t n)
    {
        Array<T> a(n);
        a.fill(0);
        return a;
    }
    template <typename T>
    static void upload(Array<T>& dst, const std::vector<T>& src)
    {
        dst.upload(src);
    }
    template <typename T>
    static std::vector<T> download(const Array<T>& src)
    {
        return src.download();
    }

    template <int L, Resolver R, typename Body>
    void stencil(const VbmView& v, const Body& body)
    {
        if (v.blockCount == 0) return;
        solverStencilKernel<L, R, Body><<<unsigned(v.blockCount), 1u << L, 0, mStream>>>(v, body);
        cuda::checkCuda(cudaGetLastError(), "solver stencil kernel launch");
    }

    template <int L, typename Body>
    void voxels(const VbmView& v, const Body& body)
    {
        if (v.blockCount == 0) return;
        solverVoxelKernel<L, Body><<<unsigned(v.blockCount), 1u << L, 0, mStream>>>(v, body);
        cuda::checkCuda(cudaGetLastError(), "solver voxel kernel launch");
    }

    template <typename Body>
    void elements(uint64_t n, const Body& body)
    {
        const uint64_t blocks = std::min<uint64_t>((n + 255) / 256, 132 * 16);
        solverElementKernel<Body><<<unsigned(std::max<uint64_t>(1, blocks)), 256, 0, mStream>>>(n, body);
        cuda::checkCuda(cudaGetLastError(), "solver element kernel launch");
    }

    double dot(const float* a, const float* b, uint64_t n) { return reduce(a, b, nullptr, n, false); }
    double maxAbs(const float* a, const float* b, const float* c, uint64_t n) { return reduce(a, b, c, n, true); }

    /// Phase timer: CUDA events on the solver's stream.
    struct Timer {
        cudaEvent_t start;
    };
    Timer startTimer()
    {
        Timer t{event()};
        cuda::checkCuda(cudaEventRecord(t.start, mStream), "cudaEventRecord");
        return t;
    }
    double stopTimer(const Timer& t)
    {
        cudaEvent_t stop = event();
        cuda::checkCuda(cudaEventRecord(stop, mStream), "cudaEventRecord");
        cuda::checkCuda(cudaEventSynchronize(stop), "a solver phase");
        float ms = 0;
        cuda::checkCuda(cudaEventElapsedTime(&ms, t.start, stop), "cudaEventElapsedTime");
        mFree.push_back(t.start);
        mFree.push_back(stop);
        return ms;
    }
    void synchronize() { cuda::checkCuda(cudaStreamSynchronize(mStream), "the solver's stream"); }

private:
    double reduce(const float* a, const float* b, const float* c, uint64_t n, bool isMax)
    {
        solverReduceKernel<<<ReduceBlocks, ReduceThreads, 0, mStream>>>(a, b, c, n, mPartial.data());
        cuda::checkCuda(cudaGetLastError(), "solver reduction launch");
        cuda::checkCuda(cudaMemcpyAsync(mHostPartial.data(), mPartial.data(), ReduceBlocks * sizeof(double),
                                        cudaMemcpyDeviceToHost, mStream),
                        "reduction copy");
        synchronize();
        double total = 0.0;
        for (double p : mHostPartial)
            total = isMax ? std::max(total, p) : total + p;
        return total;
    }
    cudaEvent_t event()
    {
        if (!mFree.empty()) {
            cudaEvent_t e = mFree.back();
            mFree.pop_back();
            return e;
        }
        cudaEvent_t e;
        cuda::checkCuda(cudaEventCreate(&e), "cudaEventCreate");
        mEvents.push_back(e);
        return e;
    }

    cudaStream_t mStream = nullptr;
    cuda::DeviceArray<double> mPartial;
    std::vector<double> mHostPartial;
    std::vector<cudaEvent_t> mEvents, mFree;
};

} // namespace vbm::solver
