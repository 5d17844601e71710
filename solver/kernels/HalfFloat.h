// SPDX-License-Identifier: Apache-2.0
// IEEE binary16 (half) storage of floats: round to nearest, ties to even, the same bits on the
// host and the device. The device uses the hardware conversions (one instruction each); the host
// computes them in integers. tests/test_half_scalars.cpp checks the integer forms against the
// compiler's _Float16; tests/test_half_gpu.cu checks every float and every half through both
// forms on the GPU.
// NaN inputs give a NaN (its payload is not kept the same; a run stops at a NaN anyway).
#pragma once

#include <nanovdb/NanoVDB.h> // __hostdev__

#include <cstdint>
#if !defined(__CUDA_ARCH__)
#include <cstring>
#endif

namespace vbm::solver {

/// The bits of f.
__hostdev__ inline uint32_t bitsOfFloat(float f)
{
#if defined(__CUDA_ARCH__)
    return __float_as_uint(f);
#else
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
#endif
}

/// The float with bits u.
__hostdev__ inline float floatOfBits(uint32_t u)
{
#if defined(__CUDA_ARCH__)
    return __uint_as_float(u);
#else
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
#endif
}

/// f rounded to the nearest half (ties to even), in integer arithmetic; at or above 65520 in
/// magnitude: infinity. The host's form, and the reference the device's instruction is tested against.
__hostdev__ inline uint16_t halfFromFloatInIntegers(float f)
{
    const uint32_t x = bitsOfFloat(f);
    const uint32_t sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
    if (a > 0x7f800000u) return uint16_t(sign | 0x7e00u);                // NaN
    if (a >= 0x477ff000u) return uint16_t(sign | 0x7c00u);               // 65520 and up round to infinity
    if (a >= 0x38800000u) {                                              // a normal half: 2^-14 and up
        const uint32_t m = a - 0x38000000u;                              // exponent rebiased, 127 -> 15
        return uint16_t(sign | ((m + 0xfffu + ((m >> 13) & 1u)) >> 13)); // 23 -> 10 mantissa bits, ties to even
    }
    const uint32_t e = a >> 23;
    if (e < 102) return uint16_t(sign); // below 2^-25: 0
    // a subnormal half k * 2^-24: k = significand * 2^(e - 126), rounded to nearest even
    const uint32_t significand = (a & 0x7fffffu) | 0x800000u, shift = 126 - e; // 14..24
    uint32_t k = significand >> shift;
    const uint32_t rest = significand & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
    if (rest > halfway || (rest == halfway && (k & 1u))) ++k; // k = 1024 is the smallest normal, correctly
    return uint16_t(sign | k);
}

/// The float of half h (exact: every half is a float), in integer arithmetic.
__hostdev__ inline float floatFromHalfInIntegers(uint16_t h)
{
    const uint32_t sign = uint32_t(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1fu) return floatOfBits(sign | 0x7f800000u | (m << 13)); // infinity, NaN
    if (e != 0) return floatOfBits(sign | ((e + 112u) << 23) | (m << 13));
    return floatOfBits(sign | bitsOfFloat(float(m) * 5.9604644775390625e-8f)); // m * 2^-24, exact
}

/// f rounded to the nearest half (ties to even).
__hostdev__ inline uint16_t halfFromFloat(float f)
{
#if defined(__CUDA_ARCH__)
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
#else
    return halfFromFloatInIntegers(f);
#endif
}

/// The float of half h.
__hostdev__ inline float floatFromHalf(uint16_t h)
{
#if defined(__CUDA_ARCH__)
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
#else
    return floatFromHalfInIntegers(h);
#endif
}

/// f as the nearest half, back as a float: what half storage keeps of f.
__hostdev__ inline float roundedToHalf(float f) { return floatFromHalf(halfFromFloat(f)); }

} // namespace vbm::solver
