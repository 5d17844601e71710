// SPDX-License-Identifier: Apache-2.0
// The CUDA executor's sums against their documented order, emulated here in host doubles: an
// element sum as blocks of ReduceChunk consecutive elements (each thread every ReduceThreads-th
// in index order, then a tree), a stored stencil sum as groups of SumGroup value indices (a
// tree each), and the finish as FinishThreads chains (partials t, t + FinishThreads, ...) then a
// tree, in one block or spread over blocks above FinishSplitAbove partials. The data mixes
// magnitudes over 60 binary orders, so another order gives other bits. GPU tests: they skip,
// saying why, where no CUDA GPU is usable.
#include "exec/CudaExec.cuh"
#include "DeviceQueries.h"
#include "kernels/CgBodies.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace vbm::solver {

namespace {

#define SKIP_WITHOUT_GPU()                                                                                             \
    if (const std::string why = cudaUnavailableReason(); !why.empty()) GTEST_SKIP() << "GPU test skipped: " << why

/// values[0] unused (value index 0 is the background), the rest of mixed sign and magnitude.
std::vector<double> mixedValues(uint64_t n, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-30, 30);
    std::vector<double> v(n, 0.0);
    for (uint64_t i = 1; i < n; ++i)
        v[i] = std::ldexp(unit(rng), exponent(rng));
    return v;
}

/// blockTreeSum's order: in each round w = N/2, N/4, ..., 1, sh[t] += sh[t + w] for t < w.
double treeSum(std::vector<double> sh)
{
    for (size_t w = sh.size() / 2; w > 0; w >>= 1)
        for (size_t t = 0; t < w; ++t)
            sh[t] += sh[t + w];
    return sh[0];
}

/// solverFinishKernel's order (and solverFinishChainsKernel's, whose chains are the same).
double finishOrder(const std::vector<double>& partial)
{
    std::vector<double> chain(FinishThreads, 0.0);
    for (uint64_t t = 0; t < uint64_t(FinishThreads); ++t)
        for (uint64_t i = t; i < partial.size(); i += FinishThreads)
            chain[t] += partial[i];
    return treeSum(chain);
}

/// solverElementSumKernel's order over [1, n), then the finish.
double elementSumOrder(const std::vector<double>& v, uint64_t n)
{
    const uint64_t blocks = n > 1 ? (n - 1 + ReduceChunk - 1) / ReduceChunk : 1;
    std::vector<double> partial(blocks);
    for (uint64_t b = 0; b < blocks; ++b) {
        const uint64_t first = 1 + b * ReduceChunk, end = std::min(first + ReduceChunk, n);
        std::vector<double> sh(ReduceThreads, 0.0);
        for (uint64_t t = 0; t < uint64_t(ReduceThreads); ++t)
            for (uint64_t i = first + t; i < end; i += ReduceThreads)
                sh[t] += v[i];
        partial[b] = treeSum(sh);
    }
    return finishOrder(partial);
}

/// solverStoredSumKernel's order over [1, n): groups of SumGroup from 1, a tree each, then the finish.
double storedSumOrder(const std::vector<double>& v, uint64_t n)
{
    const uint64_t groups = (n - 1 + SumGroup - 1) / SumGroup;
    std::vector<double> partial(groups);
    for (uint64_t g = 0; g < groups; ++g) {
        std::vector<double> sh(SumGroup, 0.0);
        for (uint64_t t = 0; t < uint64_t(SumGroup); ++t)
            if (const uint64_t i = 1 + g * SumGroup + t; i < n) sh[t] = v[i];
        partial[g] = treeSum(sh);
    }
    return finishOrder(partial);
}

double inIndexOrder(const std::vector<double>& v, uint64_t n)
{
    double s = 0.0;
    for (uint64_t i = 1; i < n; ++i)
        s += v[i];
    return s;
}

struct ValueOf {
    const double* v;
    __hostdev__ double operator()(uint64_t i) const { return v[i]; }
};
/// A stored stencil body that reads its own value and never its taps (so no table is needed).
struct OwnValue {
    const double* v;
    __hostdev__ double operator()(uint64_t i, const StoredCrossTaps&) const { return v[i]; }
};

enum class SumKind { Elements, Stored };

/// The executor's sum of v over [1, n), read back.
double deviceSum(const std::vector<double>& v, uint64_t n, SumKind kind)
{
    CudaExec exec;
    exec.reserve(n);
    cuda::DeviceArray<double> values(v), total(1);
    if (kind == SumKind::Elements)
        exec.elementsSum(n, ValueOf{values.data()}, StoreTotal{total.data()});
    else
        exec.storedStencilSum(n, nullptr, OwnValue{values.data()}, StoreTotal{total.data()});
    exec.synchronize();
    return total.download()[0];
}

uint64_t bits(double x) { return std::bit_cast<uint64_t>(x); }

} // namespace

TEST(GpuReductions, ElementSumsAddInTheirDocumentedOrder)
{
    SKIP_WITHOUT_GPU();
    // one element, part of a block, blocks and a tail, and more blocks than the finish has chains
    for (uint64_t n : {uint64_t(2), uint64_t(300), ReduceChunk + 7, 1100 * ReduceChunk + 5}) {
        const auto v = mixedValues(n, n);
        const double want = elementSumOrder(v, n);
        EXPECT_EQ(bits(deviceSum(v, n, SumKind::Elements)), bits(want)) << "n = " << n;
        if (n > ReduceChunk) // the data tells orders apart, so the check above can fail
            EXPECT_NE(bits(inIndexOrder(v, n)), bits(want)) << "n = " << n;
    }
}

TEST(GpuReductions, StoredSumsAddInTheirDocumentedOrderWithTheFinishInOneBlockOrSpread)
{
    SKIP_WITHOUT_GPU();
    // partial counts below, at and above FinishSplitAbove: one block, then the chains spread
    for (uint64_t groups : {uint64_t(3000), FinishSplitAbove, FinishSplitAbove + 5}) {
        const uint64_t n = 1 + groups * SumGroup - 17;
        const auto v = mixedValues(n, groups);
        const double want = storedSumOrder(v, n);
        EXPECT_EQ(bits(deviceSum(v, n, SumKind::Stored)), bits(want)) << groups << " partials";
        EXPECT_NE(bits(inIndexOrder(v, n)), bits(want)) << groups << " partials";
    }
}

} // namespace vbm::solver
