// SPDX-License-Identifier: Apache-2.0
// Smoke's density and temperature as the kernels read and write them: two float arrays (the
// default), or, with half storage (scene `scalar_storage half`, `--scalars half`), one array of
// 32-bit elements each holding the voxel's pair of halves, density in the low 16 bits. One
// float-sized array instead of two: 4 B per voxel less at both memory peaks (docs/solver.md).
// The packed elements live in a float array (so the fields swap with the workspace as before)
// and are only ever moved as bits, never computed with as floats.
#pragma once

#include "kernels/HalfFloat.h"

#include <cstdint>

namespace vbm::solver {

/// One voxel's density and temperature.
struct DensityTemperature {
    float density, temperature;
};

/// The packed element of a pair (each value rounded to the nearest half).
__hostdev__ inline float packPair(float density, float temperature)
{
    return floatOfBits(uint32_t(halfFromFloat(density)) | uint32_t(halfFromFloat(temperature)) << 16);
}
/// The pair a packed element holds.
__hostdev__ inline DensityTemperature unpackPair(float packed)
{
    const uint32_t b = bitsOfFloat(packed);
    return {floatFromHalf(uint16_t(b & 0xffffu)), floatFromHalf(uint16_t(b >> 16))};
}

/// The density (or, `temperature` set, the temperature) a packed element holds.
__hostdev__ inline float pairValue(float packed, bool temperature)
{
    const DensityTemperature s = unpackPair(packed);
    return temperature ? s.temperature : s.density;
}

/// Where density and temperature live: `temperature` null means half storage, the packed pairs
/// in `density`'s array. For element bodies (a uniform branch per load); the box passes of
/// advection take the choice as a template parameter instead (AdvectionBodies.h).
struct ScalarPairs {
    float* density = nullptr;
    float* temperature = nullptr;
    __hostdev__ bool half() const { return temperature == nullptr; }
    __hostdev__ DensityTemperature load(uint64_t i) const
    {
        if (half()) return unpackPair(density[i]);
        return {density[i], temperature[i]};
    }
    __hostdev__ void store(uint64_t i, DensityTemperature s) const
    {
        if (half()) {
            density[i] = packPair(s.density, s.temperature);
        } else {
            density[i] = s.density, temperature[i] = s.temperature;
        }
    }
};

/// out[i] = the density (or the temperature) of packed pair i: a float copy for readers that
/// want one value per index (the renderer, the finite check). An element body; element passes
/// start at 1, so i = 1 also copies the background's index 0.
struct UnpackScalar {
    const float* packed;
    float* out;
    bool temperature;
    __hostdev__ void operator()(uint64_t i) const
    {
        if (i == 1) out[0] = pairValue(packed[0], temperature);
        out[i] = pairValue(packed[i], temperature);
    }
};

/// densityOut[i] = the pair (density[i], temperature[i]) packed; densityOut may be density (each
/// element reads its own index before it writes it). An element body.
struct PackScalars {
    const float* density;
    const float* temperature;
    float* densityOut;
    __hostdev__ void operator()(uint64_t i) const { densityOut[i] = packPair(density[i], temperature[i]); }
};

} // namespace vbm::solver
