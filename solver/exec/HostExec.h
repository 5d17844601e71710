// SPDX-License-Identifier: Apache-2.0
// The CPU backend's executor: stencil bodies over VBM blocks through the host block executor
// (stage once per block, then every slot), element bodies over value indices, and
// deterministic reductions. All cores. Mirrors CudaExec's interface (skipped launches, sums
// handed to a finish functor, replay), so SolverCore runs unchanged on both.
#pragma once

#include "ResolverRules.h"
#include "kernels/AbsOrInf.h"
#include "kernels/StoredTaps.h"
#include "vbm/CpuBlockSkeleton.h"
#include "vbm/VbmView.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace vbm::solver {

class HostExec {
public:
    static constexpr bool OnDevice = false;
    /// Chunk of value indices per reduction partial: fixed, so sums do not depend on the core count.
    static constexpr uint64_t ReductionChunk = 1 << 16;
    /// Value indices per partial of a stencil sum: the smallest block width, so the sums do not
    /// depend on the width.
    static constexpr uint64_t SumGroup = 128;

    template <typename T>
    using Array = std::vector<T>;

    template <typename T>
    static Array<T> allocate(uint64_t n)
    {
        try {
            return Array<T>(n);
        } catch (const std::bad_alloc&) {
            throw std::runtime_error("host allocation of " + std::to_string(n * sizeof(T)) +
                                     " bytes failed: out of memory (use a smaller scene)");
        }
    }
    template <typename T>
    static void upload(Array<T>& dst, const std::vector<T>& src)
    {
        dst = src;
    }
    template <typename T>
    static std::vector<T> download(const Array<T>& src)
    {
        return src;
    }

    /// Runs a stencil body for every active voxel through resolver R at width 2^L.
    template <int L, Resolver R, typename Body>
    void stencil(const VbmView& v, const Body& body)
    {
        if (skipped()) return;
        forEachSlot<L, R>(v, [&](uint64_t i, auto&& taps) { body(i, taps); });
    }
    /// finish(sum over voxels of body(i, taps)): per SumGroup value indices in index order, then
    /// the groups in order.
    template <int L, Resolver R, typename Body, typename Finish>
    void stencilSum(const VbmView& v, const Body& body, const Finish& finish)
    {
        if (skipped()) return;
        std::vector<double> partial((v.blockCount << L) / SumGroup, 0.0);
        forEachSlot<L, R>(v,
                          [&](uint64_t i, auto&& taps) { partial[(i - v.firstOffset) / SumGroup] += body(i, taps); });
        finish(sumInOrder(partial));
    }

    /// A cross stencil body over value indices [1, n), its taps from the voxel tap table
    /// (kernels/StoredTaps.h).
    template <typename Body>
    void storedStencil(uint64_t n, const uint32_t* table, const Body& body)
    {
        elements(n, WithStoredTaps<Body>{table, body});
    }
    /// stencilSum's finish(sum) with the taps from the table: the same groups summed in the same
    /// order (SumGroup value indices from 1, each in index order, then the groups in order).
    template <typename Body, typename Finish>
    void storedStencilSum(uint64_t n, const uint32_t* table, const Body& body, const Finish& finish)
    {
        if (skipped()) return;
        const uint64_t groups = (n - 1 + SumGroup - 1) / SumGroup;
        std::vector<double> partial(groups, 0.0);
        const WithStoredTaps<Body> stored{table, body};
        forEachBlockOnHost(0, groups, [&](uint64_t g) {
            const uint64_t end = std::min(n, 1 + (g + 1) * SumGroup);
            for (uint64_t i = 1 + g * SumGroup; i < end; ++i)
                partial[g] += stored.sum(i);
        });
        finish(sumInOrder(partial));
    }

    /// Runs a voxel body, body(index, leafIndex, voxelOffset), for every active voxel (decode only).
    template <int L, typename Body>
    void voxels(const VbmView& v, const Body& body)
    {
        if (skipped()) return;
        // decode only: a plain resolver stages nothing, and its taps are never asked for
        forEachSlotOnHost<L, Resolver::computeCrossStencil>(
            v, 0, v.blockCount, [&](const SlotOf& s, auto&&) { body(s.index, s.leafIndex, s.voxelOffset); });
    }

    /// Runs an element body for every value index in [1, n).
    template <typename Body>
    void elements(uint64_t n, const Body& body)
    {
        if (skipped()) return;
        const uint64_t chunks = (n + ReductionChunk - 1) / ReductionChunk;
        forEachBlockOnHost(0, chunks, [&](uint64_t c) {
            const uint64_t end = std::min(n, (c + 1) * ReductionChunk);
            for (uint64_t i = std::max<uint64_t>(1, c * ReductionChunk); i < end; ++i)
                body(i);
        });
    }

    /// finish(sum over [1, n) of body(i)), in double: chunks of ReductionChunk summed in index
    /// order, then the chunk sums in chunk order.
    template <typename Body, typename Finish>
    void elementsSum(uint64_t n, const Body& body, const Finish& finish)
    {
        if (skipped()) return;
        finish(reduce(n, body, false));
    }
    /// body(step, i, scratch) for every step in [0, count), all i in [1, n) finished before the
    /// next step; scratch holds scratchFloats floats.
    template <typename Body>
    void steps(uint64_t n, int count, uint64_t scratchFloats, const Body& body)
    {
        if (skipped()) return;
        std::vector<float> scratch(scratchFloats);
        for (int s = 0; s < count; ++s)
            for (uint64_t i = 1; i < n; ++i)
                body(s, i, scratch.data());
    }
    template <typename Body>
    void single(const Body& body)
    {
        body();
    }
    /// CudaExec captures record() into a graph; here it just runs.
    template <typename F>
    void replay(const std::vector<uint64_t>&, F&& record)
    {
        record();
    }
    void forgetReplays() {}
    const double* read(const Array<double>& a, int) { return a.data(); }
    void reserve(uint64_t) {}
    /// Host allocations report their own failure (allocate()); nothing to check before.
    void ensureRoom(uint64_t, const char*) {}
    /// While *flag != 0, launches do nothing (null: they always run).
    void skipWhen(const double* flag) { mSkip = flag; }
    /// Bytes the executor keeps between calls: none (a sum's partials live for the call).
    uint64_t scratchBytes() const { return 0; }

    /// max over [1, n) of |a[i]|, |b[i]|, |c[i]|; infinity where one is NaN (absOrInf).
    double maxAbs(const float* a, const float* b, const float* c, uint64_t n)
    {
        return reduce(
            n,
            [&](uint64_t i) {
                return std::max({absOrInf(a[i]), absOrInf(b[i]), absOrInf(c[i])});
            },
            true);
    }

    /// Phase timer: a steady clock (the CPU work is synchronous).
    struct Timer {
        std::chrono::steady_clock::time_point t0;
    };
    using Span = std::chrono::steady_clock::duration;
    Timer startTimer() { return {std::chrono::steady_clock::now()}; }
    Span stopTimer(const Timer& t) { return std::chrono::steady_clock::now() - t.t0; }
    double elapsedMs(const Span& s) { return std::chrono::duration<double, std::milli>(s).count(); }
    void synchronize() {}

private:
    bool skipped() const { return mSkip && *mSkip != 0.0; }

    /// f(index, taps) for every active voxel, blocks spread over the cores (the host block skeleton).
    template <int L, Resolver R, typename F>
    void forEachSlot(const VbmView& v, F&& f)
    {
        if constexpr (R == Resolver::NanoVDB13)
            throw std::invalid_argument(resolverUnavailableReason(R, Backend::Cpu, StepKind::Laplacian));
        else
            forEachSlotOnHost<L, R>(v, 0, v.blockCount, [&](const SlotOf& s, auto&& taps) { f(s.index, taps); });
    }

    /// The partials summed in index order (the stencil sums' last stage).
    static double sumInOrder(const std::vector<double>& partial)
    {
        double total = 0.0;
        for (double p : partial)
            total += p;
        return total;
    }

    template <typename F>
    double reduce(uint64_t n, F&& f, bool isMax)
    {
        const uint64_t chunks = (n + ReductionChunk - 1) / ReductionChunk;
        std::vector<double> partial(chunks, 0.0);
        forEachBlockOnHost(0, chunks, [&](uint64_t c) {
            double s = 0.0;
            const uint64_t end = std::min(n, (c + 1) * ReductionChunk);
            for (uint64_t i = std::max<uint64_t>(1, c * ReductionChunk); i < end; ++i)
                s = isMax ? std::max(s, f(i)) : s + f(i);
            partial[c] = s;
        });
        double total = 0.0;
        for (double p : partial)
            total = isMax ? std::max(total, p) : total + p;
        return total;
    }

    const double* mSkip = nullptr;
};

} // namespace vbm::solver
