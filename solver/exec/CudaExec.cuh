// SPDX-License-Identifier: Apache-2.0
// The CUDA backend's executor: launches the kernels of CudaKernels.cuh for the solver's bodies,
// all on one non-blocking stream, as programmatic dependent launches where the GPU has them;
// fixed sequences of launches can be recorded and replayed as CUDA graphs. Mirrors HostExec's
// interface, so the steps run unchanged on both.
#pragma once

#include "CudaCheck.h"
#include "exec/CudaKernels.cuh"
#include "DeviceArray.h"
#include "vbm/BuildVoxelBlockManager.cuh"
#include "vbm/LeafNeighbourTable.cuh"

#include <algorithm>
#include <map>
#include <vector>

namespace vbm::solver {

class CudaExec {
public:
    static constexpr bool OnDevice = true;
    template <typename T>
    using Array = cuda::DeviceArray<T>;

    /// Programmatic dependent launch needs compute capability 9.0.
    static bool dependentLaunchAvailable()
    {
        int device = 0, major = 0;
        if (cudaGetDevice(&device) != cudaSuccess) return false;
        if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess) return false;
        return major >= 9;
    }

    CudaExec() : mPartial(ReduceBlocks), mHostPartial(ReduceBlocks)
    {
        cuda::checkCuda(cudaStreamCreateWithFlags(&mStream, cudaStreamNonBlocking), "cudaStreamCreate");
        cuda::checkCuda(cudaMallocHost(&mPinned, PinnedDoubles * sizeof(double)), "cudaMallocHost");
    }
    ~CudaExec()
    {
        for (auto& [key, g] : mGraphs)
            cudaGraphExecDestroy(g);
        for (auto e : mEvents)
            cudaEventDestroy(e);
        cudaFreeHost(mPinned);
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
    /// The first count doubles of a, once the work queued before has finished (through pinned memory).
    const double* read(const Array<double>& a, int count)
    {
        cuda::checkCuda(cudaMemcpyAsync(mPinned, a.data(), count * sizeof(double), cudaMemcpyDeviceToHost, mStream),
                        "reading solver scalars");
        synchronize();
        return mPinned;
    }
    /// Room for the partial sums of reductions over up to n value indices (before any capture).
    /// Throws a one-line std::runtime_error, naming `what` and the sizes, when the device has
    /// less than `bytes` free.
    void ensureRoom(uint64_t bytes, const char* what)
    {
        size_t freeBytes = 0, total = 0;
        cuda::checkCuda(cudaMemGetInfo(&freeBytes, &total), "cudaMemGetInfo");
        if (bytes > freeBytes)
            throw std::runtime_error(std::string(what) + " needs " + std::to_string(bytes >> 20) +
                                     " MiB of device memory, " + std::to_string(freeBytes >> 20) +
                                     " MiB are free (of " + std::to_string(total >> 20) +
                                     "): use a smaller scene or a larger threshold");
    }
    void reserve(uint64_t n)
    {
        const uint64_t groups = (n + SumGroup - 1) / SumGroup;
        if (groups > mPartial.size()) mPartial = Array<double>(groups);
    }
    /// While *flag != 0, launches do nothing (null: they always run).
    void skipWhen(const double* flag) { mSkip = flag; }
    /// Device bytes the executor keeps for itself (the reductions' partial sums: 1/16 B per value, and
    /// the finish's 8 KiB of chains).
    uint64_t scratchBytes() const { return (mPartial.size() + mChains.size()) * sizeof(double); }

    template <int L, Resolver R, typename Body>
    void stencil(const VbmView& v, const Body& body)
    {
        if (v.blockCount == 0) return;
        launch(solverStencilKernel<L, R, Body>, unsigned(v.blockCount), 1u << L, 0, "solver stencil kernel", v, body,
               mSkip);
    }
    /// finish(sum over voxels of body(i, taps)), the sum in a fixed order independent of the
    /// resolver and the block width.
    template <int L, Resolver R, typename Body, typename Finish>
    void stencilSum(const VbmView& v, const Body& body, const Finish& finish)
    {
        if (v.blockCount == 0) return;
        const uint64_t groups = (v.valueCount - v.firstOffset + SumGroup - 1) / SumGroup;
        reserve(groups * SumGroup);
        launch(solverStencilSumKernel<L, R, Body>, unsigned(v.blockCount), 1u << L, 0, "solver stencil kernel", v, body,
               mSkip, mPartial.data(), groups);
        finishSum(groups, finish);
    }

    /// A cross stencil body over value indices [1, n), its taps from the voxel tap table
    /// (kernels/StoredTaps.h).
    template <typename Body>
    void storedStencil(uint64_t n, const uint32_t* table, const Body& body)
    {
        elements(n, WithStoredTaps<Body>{table, body});
    }
    /// stencilSum's finish(sum) with the taps from the table: the same groups, the same bits.
    template <typename Body, typename Finish>
    void storedStencilSum(uint64_t n, const uint32_t* table, const Body& body, const Finish& finish)
    {
        const uint64_t groups = (n - 1 + SumGroup - 1) / SumGroup;
        if (groups == 0) return;
        reserve(groups * SumGroup);
        launch(solverStoredSumKernel<Body>, unsigned(groups), unsigned(SumGroup), 0, "solver stencil kernel",
               uint64_t(1), n, table, body, mSkip, mPartial.data());
        finishSum(groups, finish);
    }

    template <int L, typename Body>
    void voxels(const VbmView& v, const Body& body)
    {
        if (v.blockCount == 0) return;
        launch(solverVoxelKernel<L, Body>, unsigned(v.blockCount), 1u << L, 0, "solver voxel kernel", v, body, mSkip);
    }

    /// The VBM metadata of a grid in device memory at width 2^L (BuildVoxelBlockManager.cuh).
    template <int L>
    void buildVbm(const IndexGrid* grid, uint32_t leafCount, const VbmExtent& extent, uint32_t* firstLeafID,
                  uint64_t* jumpMap)
    {
        cuda::checkCuda(buildVoxelBlockManagerDevice<L>(grid, leafCount, extent, firstLeafID, jumpMap, mStream),
                        "building the VBM on the device");
    }

    /// A per-leaf neighbour table of a grid in device memory (LeafNeighbourTable.cuh).
    void buildLeafTable(const IndexGrid* grid, uint32_t leafCount, bool box, uint32_t* table)
    {
        cuda::checkCuda(buildLeafNeighbourTableDevice(grid, leafCount, box, table, mStream),
                        "building a leaf neighbour table on the device");
    }

    template <typename Body>
    void elements(uint64_t n, const Body& body)
    {
        // a thread per element, blocks in index order: the elements in flight at once are then
        // neighbours in index order, so a gather's neighbours and children are still in L2 (a
        // grid capped at 132 x 16 blocks striding over 1B voxels moved 1.6x the DRAM bytes in the
        // stored residual and 14x in the restriction, measured on the H200)
        const unsigned grid = unsigned(std::max<uint64_t>(1, (n + ElementThreads - 1) / ElementThreads));
        if constexpr (MinBlocksBody<Body>)
            launch(solverElementKernelMinBlocks<Body>, grid, ElementThreads, 0, "solver element kernel", n, body,
                   mSkip);
        else
            launch(solverElementKernel<Body>, grid, ElementThreads, 0, "solver element kernel", n, body, mSkip);
    }
    /// finish(sum over [1, n) of body(i)), in a fixed order.
    template <typename Body, typename Finish>
    void elementsSum(uint64_t n, const Body& body, const Finish& finish)
    {
        const uint64_t blocks = n > 1 ? (n - 1 + ReduceChunk - 1) / ReduceChunk : 1;
        reserve(blocks * SumGroup);
        launch(solverElementSumKernel<Body>, unsigned(blocks), ReduceThreads, 0, "solver reduction", n, body, mSkip,
               mPartial.data());
        finishSum(blocks, finish);
    }
    /// body(step, i, scratch) for every step in [0, count), all i in [1, n) finished before the
    /// next step; one thread block, for small n; scratch holds scratchFloats floats (at most 48 KiB).
    template <typename Body>
    void steps(uint64_t n, int count, uint64_t scratchFloats, const Body& body)
    {
        // no more threads than voxels (in whole warps): a barrier over fewer warps is cheaper
        const unsigned threads = unsigned(std::clamp<uint64_t>((n + 31) / 32 * 32, 32, StepsThreads));
        launch(solverStepsKernel<Body>, 1, threads, scratchFloats * sizeof(float), "solver steps kernel", n, count,
               body, mSkip);
    }
    /// body() once, in stream order (sets device scalars without a host copy).
    template <typename Body>
    void single(const Body& body)
    {
        launch(solverSingleKernel<Body>, 1, 1, 0, "solver kernel", body);
    }

    /// Runs record()'s launches; the first time for a key they are captured into a CUDA graph,
    /// later calls with that key replay the graph (one launch instead of dozens). The key must
    /// name everything the launches depend on (pointers, scalars, resolver, width).
    template <typename F>
    void replay(const std::vector<uint64_t>& key, F&& record)
    {
        auto it = mGraphs.find(key);
        if (it == mGraphs.end()) {
            if (mGraphs.size() >= MaxGraphs) clearGraphs();
            cuda::checkCuda(cudaStreamBeginCapture(mStream, cudaStreamCaptureModeThreadLocal), "graph capture");
            cudaGraph_t g = nullptr;
            try {
                record();
            } catch (...) {
                cudaStreamEndCapture(mStream, &g);
                if (g) cudaGraphDestroy(g);
                throw;
            }
            cuda::checkCuda(cudaStreamEndCapture(mStream, &g), "graph capture");
            cudaGraphExec_t e = nullptr;
            const cudaError_t err = cudaGraphInstantiate(&e, g, 0);
            cudaGraphDestroy(g);
            cuda::checkCuda(err, "cudaGraphInstantiate");
            it = mGraphs.emplace(key, e).first;
        }
        cuda::checkCuda(cudaGraphLaunch(it->second, mStream), "cudaGraphLaunch");
    }

    /// Drops every recorded launch sequence (their arrays and sizes are gone with a Domain rebuild).
    void forgetReplays() { clearGraphs(); }

    double maxAbs(const float* a, const float* b, const float* c, uint64_t n)
    {
        launch(solverMaxAbsKernel, ReduceBlocks, ReduceThreads, 0, "solver reduction", a, b, c, n, mPartial.data());
        cuda::checkCuda(cudaMemcpyAsync(mHostPartial.data(), mPartial.data(), ReduceBlocks * sizeof(double),
                                        cudaMemcpyDeviceToHost, mStream),
                        "reduction copy");
        synchronize();
        double total = 0.0;
        for (double p : mHostPartial)
            total = std::max(total, p);
        return total;
    }

    /// Phase timer: CUDA events on the solver's stream, read after the step (no sync per phase).
    struct Timer {
        cudaEvent_t start;
    };
    struct Span {
        cudaEvent_t start, stop;
    };
    Timer startTimer()
    {
        Timer t{event()};
        cuda::checkCuda(cudaEventRecord(t.start, mStream), "cudaEventRecord");
        return t;
    }
    Span stopTimer(const Timer& t)
    {
        Span s{t.start, event()};
        cuda::checkCuda(cudaEventRecord(s.stop, mStream), "cudaEventRecord");
        return s;
    }
    /// Milliseconds of a span once the stream has passed its end; its events are reused after.
    double elapsedMs(const Span& s)
    {
        cuda::checkCuda(cudaEventSynchronize(s.stop), "a solver phase");
        float ms = 0;
        cuda::checkCuda(cudaEventElapsedTime(&ms, s.start, s.stop), "cudaEventElapsedTime");
        mFree.push_back(s.start);
        mFree.push_back(s.stop);
        return ms;
    }
    void synchronize() { cuda::checkCuda(cudaStreamSynchronize(mStream), "the solver's stream"); }
    /// The stream all solver work runs on (others order their reads of the fields after it).
    cudaStream_t stream() const { return mStream; }

private:
    static constexpr int PinnedDoubles = 64;
    static constexpr size_t MaxGraphs = 16;

    /// Launches kernel on the solver's stream, as a programmatic dependent launch where the
    /// device has it (each kernel starts with waitForPreviousKernel).
    template <typename... Params, typename... Args>
    void launch(void (*kernel)(Params...), unsigned blocks, unsigned threads, size_t sharedBytes, const char* what,
                Args&&... args)
    {
        cudaLaunchConfig_t config{};
        config.gridDim = dim3(blocks);
        config.blockDim = dim3(threads);
        config.dynamicSmemBytes = sharedBytes;
        config.stream = mStream;
        cudaLaunchAttribute attribute[1];
        attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attribute[0].val.programmaticStreamSerializationAllowed = 1;
        config.attrs = attribute;
        config.numAttrs = mDependentLaunch ? 1 : 0;
        cuda::checkCuda(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...), what);
    }

    template <typename Finish>
    void finishSum(uint64_t count, const Finish& finish)
    {
        if (count > FinishSplitAbove) {
            launch(solverFinishChainsKernel, unsigned(FinishThreads / FinishChainThreads), FinishChainThreads, 0,
                   "solver reduction", (const double*)mPartial.data(), count, mChains.data(), mSkip);
            launch(solverFinishKernel<Finish>, 1, FinishThreads, 0, "solver reduction", (const double*)mChains.data(),
                   uint64_t(FinishThreads), finish, mSkip);
        } else {
            launch(solverFinishKernel<Finish>, 1, FinishThreads, 0, "solver reduction", (const double*)mPartial.data(),
                   count, finish, mSkip);
        }
    }
    void clearGraphs()
    {
        for (auto& [key, g] : mGraphs)
            cudaGraphExecDestroy(g);
        mGraphs.clear();
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
    Array<double> mPartial;
    Array<double> mChains{FinishThreads}; ///< the finish's chain sums when they are spread over blocks
    std::vector<double> mHostPartial;
    double* mPinned = nullptr;
    const double* mSkip = nullptr;
    bool mDependentLaunch = dependentLaunchAvailable();
    std::map<std::vector<uint64_t>, cudaGraphExec_t> mGraphs;
    std::vector<cudaEvent_t> mEvents, mFree;
};

} // namespace vbm::solver
