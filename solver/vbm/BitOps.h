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

/// Set bits of w at positions <= bit (bit in [0, 63]). Thread-local.
__hostdev__ inline uint32_t popcountThrough(uint64_t w, uint32_t bit)
{
    return popcount64(w & (~uint64_t(0) >> (63u - bit)));
}

/// Position of the r-th set bit (r counted from 0) of w; w must have more than r set bits.
/// On the device through __fns on each 32-bit half; on the host a popcount-guided
/// descent (32, 16, 8 bits) and a short scan, so any compiler and CPU can run it.
/// Thread-local.
__hostdev__ inline uint32_t selectInWord(uint64_t w, uint32_t r)
{
#if defined(__CUDA_ARCH__)
    const uint32_t lo = uint32_t(w), nLo = uint32_t(__popc(lo));
    if (r < nLo) return __fns(lo, 0u, int(r + 1));
    return 32u + __fns(uint32_t(w >> 32), 0u, int(r - nLo + 1));
#else
    uint32_t pos = 0;
    for (uint32_t half = 32; half >= 8; half >>= 1) {
        const uint32_t n = popcount64(w & ((uint64_t(1) << half) - 1));
        if (r >= n) {
            r -= n;
            w >>= half;
            pos += half;
        }
    }
    for (;; ++pos, w >>= 1) {
        if (w & 1) {
            if (r == 0) return pos;
            --r;
        }
    }
#endif
}

} // namespace vbm
