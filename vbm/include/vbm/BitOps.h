// SPDX-License-Identifier: Apache-2.0
// Popcount and in-word select, one implementation for host and device.
#pragma once

#include <nanovdb/NanoVDB.h>

#include <cstdint>

namespace vbm {

/// Number of set bits. Thread-local.
__hostdev__ inline uint32_t popcount64(uint64_t w)
{
#if defined(__CUDA_ARCH__)
    return uint32_t(__popcll(w));
#else
    return uint32_t(__builtin_popcountll(w));
#endif
}

/// Position of the lowest set bit of w (w != 0). Thread-local.
__hostdev__ inline uint32_t countTrailingZeros64(uint64_t w)
{
#if defined(__CUDA_ARCH__)
    return uint32_t(__ffsll(static_cast<long long>(w)) - 1);
#else
    return uint32_t(__builtin_ctzll(w));
#endif
}

/// Set bits of w at positions <= bit (bit in [0, 63]). Thread-local.
__hostdev__ inline uint32_t popcountThrough(uint64_t w, uint32_t bit)
{
    return popcount64(w & (~uint64_t(0) >> (63u - bit)));
}

/// Position of the r-th set bit (r counted from 0) of w; w must have more than r set bits.
/// A branch-free descent, one implementation for host and device: at each of six steps keep
/// the lower half of the window if it holds the bit, else move up. No branch, so the lanes of
/// a warp never split (the earlier device form, __fns on the half chosen by a branch, ran both
/// halves' code in most warps; __fns itself is a software sequence on sm_90). Thread-local.
__hostdev__ inline uint32_t selectInWord(uint64_t w, uint32_t r)
{
    const uint32_t nLo = popcount64(w & 0xffffffffu);
    const bool up = r >= nLo;
    uint32_t pos = up ? 32u : 0u;
    uint32_t x = uint32_t(up ? w >> 32 : w);
    r = up ? r - nLo : r;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (uint32_t half = 16; half > 0; half >>= 1) {
        const uint32_t low = x & ((1u << half) - 1u);
        const uint32_t n = popcount64(low);
        const bool upper = r >= n;
        r = upper ? r - n : r;
        x = upper ? x >> half : low;
        pos += upper ? half : 0u;
    }
    return pos;
}

} // namespace vbm
