// SPDX-License-Identifier: Apache-2.0
// What a block body gets, beside its slot, to resolve the slot's taps (BlockSkeleton.h,
// CpuBlockSkeleton.h): taps(f) streams f(tap, value index) for every tap of the resolver, in tap
// order; taps.octant(sx, sy, sz, f), for box resolvers, only the 8 taps of the octant towards
// (sx, sy, sz) (each -1 or +1: offsets in {0, sx} x {0, sy} x {0, sz}), in tap order, with the
// values the full stream gives them; taps.octantCorners the same 8 numbered by corner. A body
// whose reads lie in one octant (a trilinear interpolation) asks for it and so resolves a third
// of the taps, with bitwise the same result.
// Nothing is resolved until a body calls one of them. Thread-local.
#pragma once

#include "LeafTaps.h"

#include <cstdint>

/// Inlined always: a body's tap calls then see constant tap numbers through the wrapper (with
/// GCC's own choice the CPU form's neighbourhood taps went out of line, +13% instructions).
#if defined(__CUDACC__)
#define VBM_FORCE_INLINE __forceinline__
#else
#define VBM_FORCE_INLINE inline __attribute__((always_inline))
#endif

namespace vbm {

/// all(f): every tap; octantOf(sx, sy, sz, f): the octant's.
template <typename All, typename Octant>
struct SlotTaps {
    All all;
    Octant octantOf;
    template <typename F>
    __hostdev__ void operator()(F&& f) const
    {
        all(f);
    }
    template <typename F>
    __hostdev__ void octant(int sx, int sy, int sz, F&& f) const
    {
        octantOf(sx, sy, sz, f);
    }
    /// The octant's taps as f(corner, index): corner c = 0..7 is the tap at the octant's offsets
    /// (c >> 2, (c >> 1) & 1, c & 1) on x, y, z, lower offset 0 (boxOctantTap(sx, sy, sz, c)).
    /// The octant streams in tap order, so c is the call's count; with the loops unrolled it is
    /// a constant at each call, and a body indexes its weights by it in registers.
    template <typename F>
    __hostdev__ VBM_FORCE_INLINE void octantCorners(int sx, int sy, int sz, F&& f) const
    {
        int corner = 0;
        octantOf(sx, sy, sz, [&](int, uint64_t index) { f(corner++, index); });
    }
};

template <typename All, typename Octant>
__hostdev__ inline SlotTaps<All, Octant> slotTaps(All all, Octant octantOf)
{
    return {all, octantOf};
}

/// The octant by filtering every tap: for a resolver with no octant form of its own (NanoVDB13).
template <typename All>
__hostdev__ inline auto filteredOctant(All all)
{
    return [all](int sx, int sy, int sz, auto&& f) {
        all([&](int tap, uint64_t index) {
            if (inBoxOctant(tap, sx, sy, sz)) f(tap, index);
        });
    };
}

} // namespace vbm
