// SPDX-License-Identifier: Apache-2.0
// The device's half conversions (one instruction each, kernels/HalfFloat.h) against the
// integer forms the host runs, which tests/test_half_scalars.cpp checks against the compiler's
// _Float16: every one of the 2^32 floats and the 2^16 halves, on the GPU. Then the 4.2M plume
// with half storage against float storage over 300 steps, beside float runs whose sources are
// perturbed by one half rounding (2^-11) up and down: the measure of how far rounding that size
// carries in this flow. GPU tests: they skip, saying why, where no CUDA GPU is usable.
#include "CudaCheck.h"
#include "DeviceQueries.h"
#include "Solver.h"
#include "kernels/HalfFloat.h"

#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vbm::solver {

namespace {

#define SKIP_WITHOUT_GPU()                                                                                             \
    if (const std::string why = cudaUnavailableReason(); !why.empty()) GTEST_SKIP() << "GPU test skipped: " << why

/// Counts the floats of bits [first, first + count) whose two conversions differ (NaNs: where
/// either form's result is not a NaN), and keeps the lowest such bits.
__global__ void countRoundingMismatches(uint64_t first, uint64_t count, unsigned long long* mismatches,
                                        unsigned int* lowest)
{
    for (uint64_t k = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; k < count;
         k += uint64_t(gridDim.x) * blockDim.x) {
        const uint32_t bits = uint32_t(first + k);
        const float f = floatOfBits(bits);
        const uint16_t hw = halfFromFloat(f), sw = halfFromFloatInIntegers(f);
        const bool nanIn = (bits & 0x7fffffffu) > 0x7f800000u;
        const auto isNan = [](uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; };
        if (nanIn ? !(isNan(hw) && isNan(sw)) : hw != sw) {
            atomicAdd(mismatches, 1ull);
            atomicMin(lowest, bits);
        }
    }
}

/// Counts the halves whose two widenings differ (NaNs: where either is not a NaN).
__global__ void countWideningMismatches(unsigned long long* mismatches)
{
    const uint32_t h = blockIdx.x * blockDim.x + threadIdx.x;
    if (h >= 65536) return;
    const float hw = floatFromHalf(uint16_t(h)), sw = floatFromHalfInIntegers(uint16_t(h));
    const bool same = (hw != hw) ? (sw != sw) : bitsOfFloat(hw) == bitsOfFloat(sw);
    if (!same) atomicAdd(mismatches, 1ull);
}

} // namespace

TEST(GpuHalfFloat, EveryFloatRoundsAlikeOnTheDeviceAndInIntegers)
{
    SKIP_WITHOUT_GPU();
    unsigned long long* mismatches = nullptr;
    unsigned int* lowest = nullptr;
    vbm::cuda::checkCuda(cudaMalloc(&mismatches, sizeof *mismatches), "cudaMalloc (test counters)");
    vbm::cuda::checkCuda(cudaMalloc(&lowest, sizeof *lowest), "cudaMalloc (test counters)");
    vbm::cuda::checkCuda(cudaMemset(mismatches, 0, sizeof *mismatches), "cudaMemset (test counters)");
    vbm::cuda::checkCuda(cudaMemset(lowest, 0xff, sizeof *lowest), "cudaMemset (test counters)");
    const uint64_t total = uint64_t(1) << 32, chunk = uint64_t(1) << 30;
    for (uint64_t first = 0; first < total; first += chunk)
        countRoundingMismatches<<<4096, 256>>>(first, chunk, mismatches, lowest);
    vbm::cuda::checkCuda(cudaGetLastError(), "countRoundingMismatches launch");
    unsigned long long count = 0;
    unsigned int low = 0;
    vbm::cuda::checkCuda(cudaMemcpy(&count, mismatches, sizeof count, cudaMemcpyDeviceToHost),
                         "cudaMemcpy (mismatches)");
    vbm::cuda::checkCuda(cudaMemcpy(&low, lowest, sizeof low, cudaMemcpyDeviceToHost), "cudaMemcpy (lowest)");
    EXPECT_EQ(count, 0ull) << "the lowest float bits that differ: 0x" << std::hex << low;

    vbm::cuda::checkCuda(cudaMemset(mismatches, 0, sizeof *mismatches), "cudaMemset (test counters)");
    countWideningMismatches<<<256, 256>>>(mismatches);
    vbm::cuda::checkCuda(cudaGetLastError(), "countWideningMismatches launch");
    vbm::cuda::checkCuda(cudaMemcpy(&count, mismatches, sizeof count, cudaMemcpyDeviceToHost),
                         "cudaMemcpy (mismatches)");
    EXPECT_EQ(count, 0ull) << "halves whose widening differs";
    cudaFree(mismatches), cudaFree(lowest);
}

namespace {

/// Differences of field a from field r: max |a - r| / max |r|, sum |a - r| / sum |r|, sum a / sum r.
struct Difference {
    double maxRelative = 0, l1Relative = 0, massRatio = 0;
};
Difference difference(const std::vector<float>& a, const std::vector<float>& r)
{
    double dmax = 0, rmax = 0, d1 = 0, r1 = 0, sa = 0, sr = 0;
    for (size_t i = 1; i < r.size(); ++i) {
        const double d = std::fabs(double(a[i]) - r[i]);
        dmax = std::max(dmax, d), rmax = std::max(rmax, std::fabs(double(r[i])));
        d1 += d, r1 += std::fabs(double(r[i])), sa += a[i], sr += r[i];
    }
    return {dmax / rmax, d1 / r1, sa / sr};
}

} // namespace

// The plume rises steadily for about 100 steps, then turns over and mixes: from there any
// perturbation grows (the float runs nudged by one half rounding of their sources up and down
// show how far). So: within the nudged runs' difference up to step 100, mass kept to 0.1%; after
// that the difference is printed and the mass held to 5% (docs/solver.md, "Half storage").
TEST(GpuHalfScalars, Plume4mStaysAsNearFloatAsARoundingOfTheSources)
{
    SKIP_WITHOUT_GPU();
    Scene scenes[4] = {loadScene("smoke-plume-4m"), loadScene("smoke-plume-4m"), loadScene("smoke-plume-4m"),
                       loadScene("smoke-plume-4m")};
    scenes[1].scalars = ScalarStorage::Half;
    for (int k : {2, 3}) {
        const double nudge = k == 2 ? 1.0 + 1.0 / 2048 : 1.0 - 1.0 / 2048;
        scenes[k].params.emitDensity *= nudge, scenes[k].params.emitTemperature *= nudge;
    }
    Solver f(scenes[0], Backend::Cuda), h(scenes[1], Backend::Cuda), up(scenes[2], Backend::Cuda),
        down(scenes[3], Backend::Cuda);
    EXPECT_EQ(f.memory().fields - h.memory().fields, 4 * f.field("density").size());
    for (int step = 1; step <= 300; ++step) {
        f.step(), h.step(), up.step(), down.step();
        if (step != 1 && step != 10 && step % 50 != 0) continue;
        for (const char* name : {"density", "v"}) {
            const std::vector<float> ref = f.field(name);
            const Difference dh = difference(h.field(name), ref), du = difference(up.field(name), ref),
                             dd = difference(down.field(name), ref);
            std::printf("step %3d %-7s half: max %.2e L1 %.2e sum %.5f | sources x (1 +- 2^-11): max %.2e %.2e L1 "
                        "%.2e %.2e sum %.5f %.5f\n",
                        step, name, dh.maxRelative, dh.l1Relative, dh.massRatio, du.maxRelative, dd.maxRelative,
                        du.l1Relative, dd.l1Relative, du.massRatio, dd.massRatio);
            if (std::string(name) == "v") continue;
            EXPECT_NEAR(dh.massRatio, 1.0, step <= 100 ? 1e-3 : 5e-2) << name << " at step " << step;
            if (step <= 100)
                EXPECT_LT(dh.l1Relative, std::max(du.l1Relative, dd.l1Relative)) << name << " at step " << step;
        }
    }
}

} // namespace vbm::solver
