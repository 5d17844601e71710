// SPDX-License-Identifier: Apache-2.0
// Seeded noise on the emitter's values (scene `emit_noise A` and `seed N`, `--seed N`), so a
// plume breaks its symmetry and curls instead of rising as a perfect stack of rings. A value
// noise: pseudo-random lattice values every 4 voxels in space and every 8 steps in time, blended
// linearly between them. It is computed in integers and turned into a float once, exactly, so it
// is the same bits on every backend, resolver and block width; it depends on the voxel's
// coordinate, the step and the seed only.
#pragma once

#include <nanovdb/NanoVDB.h>

#include <cmath>
#include <cstdint>

namespace vbm::solver {

/// An integer hash with good avalanche (the "lowbias32" mix of shifts and multiplies).
__hostdev__ inline uint32_t mixBits(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

struct EmitterNoise {
    static constexpr int CellLog2 = 2;   ///< lattice spacing in space: 4 voxels
    static constexpr int PeriodLog2 = 3; ///< lattice spacing in time: 8 steps
    float amplitude = 0.f;               ///< 0: no noise; the values vary by at most this fraction
    uint32_t seed = 0;
    uint32_t step = 0; ///< the step being taken (0 for the first)

    /// The lattice value at cell (x, y, z) and time cell t: a whole number in [-2^15, 2^15).
    __hostdev__ int32_t lattice(int32_t x, int32_t y, int32_t z, uint32_t t) const
    {
        uint32_t h = mixBits(seed ^ 0x9e3779b9u);
        h = mixBits(h ^ uint32_t(x));
        h = mixBits(h ^ uint32_t(y));
        h = mixBits(h ^ uint32_t(z));
        h = mixBits(h ^ t);
        return int32_t(h >> 16) - 32768;
    }
    /// The noise at voxel c, in [-1, 1): the lattice values blended with integer weights (they
    /// sum to 2^9), so the sum is exact and so is its one conversion (|sum| <= 2^24).
    __hostdev__ float value(const nanovdb::Coord& c) const
    {
        const int32_t cx = c[0] >> CellLog2, cy = c[1] >> CellLog2, cz = c[2] >> CellLog2; // floor division
        const int32_t fx = c[0] & 3, fy = c[1] & 3, fz = c[2] & 3;
        const uint32_t t = step >> PeriodLog2;
        const int32_t ft = int32_t(step & 7u);
        int64_t sum = 0;
        for (int corner = 0; corner < 16; ++corner) {
            const int a = corner & 1, b = (corner >> 1) & 1, k = (corner >> 2) & 1, s = corner >> 3;
            const int32_t w = (a ? fx : 4 - fx) * (b ? fy : 4 - fy) * (k ? fz : 4 - fz) * (s ? ft : 8 - ft);
            sum += int64_t(w) * lattice(cx + a, cy + b, cz + k, t + uint32_t(s));
        }
        return float(sum) * (1.f / 16777216.f); // 2^9 * 2^15
    }
    /// The factor on the emitter's values at voxel c: 1 + amplitude * value(c), rounded once
    /// (fmaf on both backends, so no compiler contraction can make them differ).
    __hostdev__ float scale(const nanovdb::Coord& c) const
    {
        return amplitude != 0.f ? fmaf(amplitude, value(c), 1.f) : 1.f;
    }
};

} // namespace vbm::solver
