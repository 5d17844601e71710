// SPDX-License-Identifier: Apache-2.0
// Kernel bodies of smoke's advection: semi-Lagrangian, trilinear from the 27 box taps, and
// MacCormack's limited correction of it, from the same taps; both need a box resolver
// (ResolverRules.h, StepKind::Advection).
#pragma once

#include "kernels/ScalarPairs.h"
#include "vbm/SlotTaps.h"
#include "vbm/TreeWalkStencils.h"

#include <cstdint>

namespace vbm::solver {

// On the GPU the bodies resolve only the octant(s) their trilinear reads lie in (taps.octant: 8
// taps instead of 27). On a CPU core they stream the 27 as before octants: a tap is one load
// there, so there is little to save, and the host code then compiles as it did (its float sums,
// FMA contractions included, stay bitwise those of every resolver; a filtered octant stream
// broke that for one resolver, and streaming the octant's 8 with run-time tap numbers made the
// CPU's advection 1.6x slower). The same taps reach each sum in the same order either way.

/// An axis's two weights over an octant's offsets, lower offset first, indexed by the corner
/// bit taps.octantCorners gives: the weights then come from registers, where indexing the 3
/// weights by a run-time tap number would put them in local memory.
struct OctantAxis {
    float w0, w1;
    __hostdev__ float at(int corner) const { return corner ? w1 : w0; }
    /// The weights w[k] of the octant's offsets towards side s (k = 0, 1, 2 for -1, 0, +1).
    __hostdev__ static OctantAxis towards(const float (&w)[3], int s)
    {
        return s < 0 ? OctantAxis{w[0], w[1]} : OctantAxis{w[1], w[2]};
    }
    /// The mirrored weights w[2 - k] over the octant towards -s.
    __hostdev__ static OctantAxis mirrored(const float (&w)[3], int s)
    {
        return s > 0 ? OctantAxis{w[2], w[1]} : OctantAxis{w[1], w[0]};
    }
};

/// The product of the three axes' weights at octant corner c, x's first (as wx * wy * wz).
__hostdev__ inline float cornerWeight(const OctantAxis& x, const OctantAxis& y, const OctantAxis& z, int c)
{
    return x.at(c >> 2) * y.at((c >> 1) & 1) * z.at(c & 1);
}

/// Channels moved by semi-Lagrangian advection: density, temperature, centred velocity.
inline constexpr int AdvectedChannels = 5;

/// The value of every channel at index j: each its own float, or (Half) channels 0 and 1 the
/// pair packed in arrays[0] (arrays[1] unused) and the floats from channel 2 on.
template <bool Half, int Channels>
__hostdev__ VBM_FORCE_INLINE void loadChannels(const float* const (&arrays)[Channels], uint64_t j, float (&v)[Channels])
{
    int first = 0;
    if constexpr (Half) {
        const DensityTemperature s = unpackPair(arrays[0][j]);
        v[0] = s.density, v[1] = s.temperature, first = 2;
    }
    for (int ch = first; ch < Channels; ++ch)
        v[ch] = arrays[ch][j];
}

/// Semi-Lagrangian advection of Channels channels by the centred velocity (cu, cv, cw) over
/// one substep: the departure point i - dt*vel/h lies within one voxel of i (the caller keeps
/// the CFL number <= 1), so trilinear interpolation takes its 8 weights from the 27 box taps.
/// Inactive taps read the voxel's own value. Needs a box resolver. HalfIn: density and
/// temperature (channels 0 and 1) come packed from in[0] (ScalarPairs.h; in[1] unused); every
/// output is a float, and each sum is the float path's on the halves' values.
template <int Channels = AdvectedChannels, bool HalfIn = false>
struct Advect {
    const float* cu;
    const float* cv;
    const float* cw;
    float dtOverH;
    const float* in[Channels];
    float* out[Channels];
    template <typename Taps>
    __hostdev__ VBM_FORCE_INLINE void operator()(uint64_t i, Taps&& taps) const
    {
        float wx[3], wy[3], wz[3];
        axisWeights(-dtOverH * cu[i], wx);
        axisWeights(-dtOverH * cv[i], wy);
        axisWeights(-dtOverH * cw[i], wz);
        float acc[Channels] = {};
#if defined(__CUDA_ARCH__)
        // Every tap of nonzero weight lies in the octant towards the departure point: only its
        // 8 taps are read, in the order the 27 would come in (the same sum).
        const int sx = towards(wx), sy = towards(wy), sz = towards(wz);
        const OctantAxis ox = OctantAxis::towards(wx, sx), oy = OctantAxis::towards(wy, sy),
                         oz = OctantAxis::towards(wz, sz);
        taps.octantCorners(sx, sy, sz, [&](int corner, uint64_t n) {
            const float weight = cornerWeight(ox, oy, oz, corner);
            if (weight == 0.f) return; // an axis's displacement is 0: skip the load
            const uint64_t src = n ? n : i;
            accumulate(src, weight, acc);
        });
#else
        taps([&](int tap, uint64_t n) {
            // (the tap numbers are constants here: the weights stay in registers)
            const float weight = wx[tap / 9] * wy[(tap / 3) % 3] * wz[tap % 3];
            if (weight == 0.f) return; // at least 19 of the 27 taps: skip their loads
            const uint64_t src = n ? n : i;
            accumulate(src, weight, acc);
        });
#endif
        for (int ch = 0; ch < Channels; ++ch)
            out[ch][i] = acc[ch];
    }
    /// acc[ch] += weight * (channel ch at src), channel by channel.
    __hostdev__ VBM_FORCE_INLINE void accumulate(uint64_t src, float weight, float (&acc)[Channels]) const
    {
        if constexpr (HalfIn) {
            float v[Channels];
            loadChannels<true>(in, src, v);
            for (int ch = 0; ch < Channels; ++ch)
                acc[ch] += weight * v[ch];
        } else {
            for (int ch = 0; ch < Channels; ++ch)
                acc[ch] += weight * in[ch][src];
        }
    }
    /// The side (-1 or +1) of the axis's nonzero weights: offsets 0 and -1 when weight[0] is
    /// nonzero, else 0 and +1.
    __hostdev__ static int towards(const float (&wt)[3]) { return wt[0] != 0.f ? -1 : 1; }
    /// Linear weights over offsets -1, 0, +1 of a point at offset d in [-1, 1].
    __hostdev__ static void axisWeights(float d, float (&wt)[3])
    {
        d = d < -1.f ? -1.f : (d > 1.f ? 1.f : d);
        if (d < 0.f) {
            wt[0] = -d, wt[1] = 1.f + d, wt[2] = 0.f;
        } else {
            wt[0] = 0.f, wt[1] = 1.f - d, wt[2] = d;
        }
    }
};

/// MacCormack's correction of a semi-Lagrangian substep (Selle et al. 2008), for Channels
/// channels: with forward = Advect's result (phi at i - dt v/h) and backward = forward carried
/// back (read here at i + dt v/h, from the same 27 taps), the result is
/// forward + (phi - backward) / 2, clamped to the min and max of phi over the taps the forward
/// interpolation reaches (a nonzero weight on each axis), so it makes no new extrema. v is the
/// velocity Advect used; inactive taps read the voxel's own value, as there. Needs a box resolver.
/// Half: phi's density and temperature (channels 0 and 1) are the pairs packed in phi[0], and
/// the corrected pair is stored packed in out[0] (phi[1], out[1] unused); forward is float.
template <int Channels = 2, bool Half = false>
struct MacCormackCorrect {
    const float* cu;
    const float* cv;
    const float* cw;
    float dtOverH;
    const float* phi[Channels];
    const float* forward[Channels];
    float* out[Channels];
    template <typename Taps>
    __hostdev__ VBM_FORCE_INLINE void operator()(uint64_t i, Taps&& taps) const
    {
        // The backward weights are the forward ones mirrored (axisWeights(d)[k] is
        // axisWeights(-d)[2 - k], bit for bit): one set of 9 weights serves both.
        float wx[3], wy[3], wz[3];
        Advect<>::axisWeights(-dtOverH * cu[i], wx);
        Advect<>::axisWeights(-dtOverH * cv[i], wy);
        Advect<>::axisWeights(-dtOverH * cw[i], wz);
        // the forward weights sum to 1, so at least one tap sets the bounds
        float back[Channels] = {}, lo[Channels], hi[Channels];
        for (int ch = 0; ch < Channels; ++ch)
            lo[ch] = 3.4028235e38f, hi[ch] = -3.4028235e38f;
#if defined(__CUDA_ARCH__)
        // The backward weights are nonzero in the mirrored octant only, the bounds' taps lie in
        // the forward one: two octants of 8 taps resolved instead of 27, each in tap order.
        // Weights by corner (OctantAxis).
        const int sx = Advect<>::towards(wx), sy = Advect<>::towards(wy), sz = Advect<>::towards(wz);
        const OctantAxis bx = OctantAxis::mirrored(wx, sx), by = OctantAxis::mirrored(wy, sy),
                         bz = OctantAxis::mirrored(wz, sz);
        taps.octantCorners(-sx, -sy, -sz, [&](int corner, uint64_t n) {
            const float wb = cornerWeight(bx, by, bz, corner);
            if (wb == 0.f) return;
            const uint64_t src = n ? n : i;
            for (int ch = 0; ch < Channels; ++ch)
                back[ch] += wb * forward[ch][src];
        });
        const OctantAxis fx = OctantAxis::towards(wx, sx), fy = OctantAxis::towards(wy, sy),
                         fz = OctantAxis::towards(wz, sz);
        taps.octantCorners(sx, sy, sz, [&](int c, uint64_t n) {
            if (fx.at(c >> 2) == 0.f || fy.at((c >> 1) & 1) == 0.f || fz.at(c & 1) == 0.f) return;
            bound(n ? n : i, lo, hi);
        });
#else
        // On a CPU core one pass over the 27, as before octants (see the top of this file): the
        // same taps reach each sum, in the same order, as the two octants on the GPU.
        taps([&](int tap, uint64_t n) {
            const uint64_t src = n ? n : i;
            const int x = tap / 9, y = (tap / 3) % 3, z = tap % 3;
            const float wb = wx[2 - x] * wy[2 - y] * wz[2 - z];
            if (wb != 0.f)
                for (int ch = 0; ch < Channels; ++ch)
                    back[ch] += wb * forward[ch][src];
            if (wx[x] != 0.f && wy[y] != 0.f && wz[z] != 0.f) bound(src, lo, hi);
        });
#endif
        correct(i, back, lo, hi);
    }
    /// Stores forward + (phi - back) / 2 at i, clamped to [lo, hi], channel by channel.
    __hostdev__ VBM_FORCE_INLINE void correct(uint64_t i, const float (&back)[Channels], const float (&lo)[Channels],
                                              const float (&hi)[Channels]) const
    {
        // every channel's loads before the first store (out may alias them for all the
        // compiler knows: a store between would hold the next channel's loads back)
        float own[Channels], corrected[Channels];
        loadChannels<Half>(phi, i, own);
        for (int ch = 0; ch < Channels; ++ch) {
            const float r = forward[ch][i] + 0.5f * (own[ch] - back[ch]);
            corrected[ch] = r < lo[ch] ? lo[ch] : (r > hi[ch] ? hi[ch] : r);
        }
        int first = 0;
        if constexpr (Half) out[0][i] = packPair(corrected[0], corrected[1]), first = 2;
        for (int ch = first; ch < Channels; ++ch)
            out[ch][i] = corrected[ch];
    }
    /// Widens [lo, hi] of each channel to phi's value at src.
    __hostdev__ VBM_FORCE_INLINE void bound(uint64_t src, float (&lo)[Channels], float (&hi)[Channels]) const
    {
        float v[Channels];
        loadChannels<Half>(phi, src, v);
        for (int ch = 0; ch < Channels; ++ch) {
            lo[ch] = v[ch] < lo[ch] ? v[ch] : lo[ch];
            hi[ch] = v[ch] > hi[ch] ? v[ch] : hi[ch];
        }
    }
};

} // namespace vbm::solver
