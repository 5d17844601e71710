// The solver's kernel bodies, one implementation for the CPU and CUDA backends. A stencil
// body gets the value index of its voxel and a `taps(f)` that streams (tap, index) from the
// chosen resolver; an element body gets a value index. Every body does its floating-point
// work in one fixed order (cross taps: centre, -x, +x, -y, +y, -z, +z; box taps in tap order),
// so the result is bitwise the same whichever resolver produced the taps.
//
// Fields are one float array per channel (structure of arrays), indexed by value index;
// index 0 is the background and is never written. Velocity is staggered (MAC): u[i] is the
// x-velocity on the +x face of voxel i, v[i] the +y face, w[i] the +z face; a face shared
// with an inactive voxel is a solid wall and holds 0.
#pragma once

#include "vbm/TreeWalkStencils.h"
#include "vbm/VoxelBlockManager.h"

#include <cstdint>

namespace vbm::solver {

/// sum over active neighbours of (x_i - x_n): row i of (-L) x, summed in cross order.
template <bool FromBox>
__hostdev__ inline float minusLaplacian(const CrossTaps<FromBox>& c, const float* x, float xi)
{
    float ax = 0.f;
    for (int t = 1; t < CrossTapCount; ++t)
        if (c.n[t]) ax += xi - x[c.n[t]];
    return ax;
}

/// Row i of (a I + b L) applied to the values value(n), xi = value(i); identity on a fixed
/// voxel; a fixed neighbour reads 0 when zeroFixedNeighbours. One fixed order of the sum, which
/// every body applying the Laplacian shares.
template <typename Cross, typename Value>
__hostdev__ inline float laplacianRow(const Cross& c, uint64_t i, float xi, const Value& value, const float* fixed,
                                      float a, float b, bool zeroFixedNeighbours)
{
    if (fixed && fixed[i] != 0.f) return xi;
    float sum = 0.f;
    for (int t = 1; t < CrossTapCount; ++t) {
        const uint64_t n = c.n[t];
        if (!n) continue;
        const float xn = (zeroFixedNeighbours && fixed && fixed[n] != 0.f) ? 0.f : value(n);
        sum += xn - xi;
    }
    return a * xi + b * sum;
}

/// out = fixed ? x : a*x + b*sum over active neighbours of (x_n' - x), where x_n' is 0 for
/// fixed neighbours when zeroFixedNeighbours (the symmetric form for implicit solves), else x_n.
/// fixed may be null (nothing fixed). Heat explicit: a = 1, b = alpha*dt/h^2; implicit matrix:
/// a = 1, b = -alpha*dt/h^2 with zeroFixedNeighbours; Poisson (-L): a = 0, b = -1.
template <bool FromBox>
struct ApplyLaplacian {
    const float* x;
    const float* fixed;
    float* out;
    float a, b;
    bool zeroFixedNeighbours;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        out[i] = laplacianRow(
            c, i, x[i], [&](uint64_t n) { return x[n]; }, fixed, a, b, zeroFixedNeighbours);
    }
};

/// CG's start in one pass: r = b - (a I + b L) x, 0 on fixed voxels; returns r[i]^2 for r.r.
template <bool FromBox>
struct InitialResidualDot {
    const float* x;
    const float* fixed;
    const float* rhs;
    float* r;
    float a, b;
    bool zeroFixedNeighbours;
    template <typename Taps>
    __hostdev__ double operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        const float ax = laplacianRow(
            c, i, x[i], [&](uint64_t n) { return x[n]; }, fixed, a, b, zeroFixedNeighbours);
        const float ri = fixed && fixed[i] != 0.f ? 0.f : rhs[i] - ax;
        r[i] = ri;
        return double(ri) * double(ri);
    }
};

/// Number of active neighbours (the diagonal of -L), for Jacobi preconditioning.
template <bool FromBox>
struct CountNeighbours {
    float* out;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        float k = 0.f;
        for (int t = 1; t < CrossTapCount; ++t)
            k += c.n[t] ? 1.f : 0.f;
        out[i] = k;
    }
};

/// Net outflow of voxel i through its six faces: (u_i - u_-x) + (v_i - v_-y) + (w_i - w_-z),
/// faces towards inactive voxels counting 0.
template <bool FromBox>
struct Divergence {
    const float *u, *v, *w;
    float* out;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        float d = u[i] - (c.n[1] ? u[c.n[1]] : 0.f);
        d += v[i] - (c.n[3] ? v[c.n[3]] : 0.f);
        d += w[i] - (c.n[5] ? w[c.n[5]] : 0.f);
        out[i] = d;
    }
};

/// Subtracts the pressure gradient from the +x, +y, +z faces of voxel i; wall faces get 0.
template <bool FromBox>
struct SubtractGradient {
    const float* p;
    float *u, *v, *w;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        const float pi = p[i];
        u[i] = c.n[2] ? u[i] - (p[c.n[2]] - pi) : 0.f;
        v[i] = c.n[4] ? v[i] - (p[c.n[4]] - pi) : 0.f;
        w[i] = c.n[6] ? w[i] - (p[c.n[6]] - pi) : 0.f;
    }
};

struct Emit {
    const float* emitter; ///< 0 outside, 1 inside
    float* density;
    float* temperature;
    float densityValue, temperatureValue;
    __hostdev__ void operator()(uint64_t i) const
    {
        const float e = emitter[i];
        if (e != 0.f) {
            density[i] = density[i] > densityValue ? density[i] : densityValue;
            temperature[i] = temperature[i] > temperatureValue ? temperature[i] : temperatureValue;
        }
    }
};
/// Buoyancy on the centred y velocity: dt * (buoyancy*T - weight*density).
struct Buoyancy {
    const float* density;
    const float* temperature;
    float* cv;
    float dtBuoyancy, dtWeight;
    __hostdev__ void operator()(uint64_t i) const { cv[i] += dtBuoyancy * temperature[i] - dtWeight * density[i]; }
};

/// Cell-centred velocity: the mean of each axis's two faces (a wall face counts 0).
template <bool FromBox>
struct CentresFromFaces {
    const float *u, *v, *w;
    float *cu, *cv, *cw;
    /// With fused set, also the step's emitter and buoyancy (element bodies of voxel i that read
    /// and write nothing the centres do): two passes over the grid fewer. Used when nothing runs
    /// between them (vorticity confinement off).
    bool fused = false;
    Emit emit{};
    Buoyancy buoyancy{};
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        cu[i] = 0.5f * (u[i] + (c.n[1] ? u[c.n[1]] : 0.f));
        cv[i] = 0.5f * (v[i] + (c.n[3] ? v[c.n[3]] : 0.f));
        cw[i] = 0.5f * (w[i] + (c.n[5] ? w[c.n[5]] : 0.f));
        if (fused) {
            emit(i);
            buoyancy(i);
        }
    }
};

/// Face velocity: the mean of the two voxels sharing the face; 0 at walls.
template <bool FromBox>
struct FacesFromCentres {
    const float *cu, *cv, *cw;
    float *u, *v, *w;
    /// Non-null: also -div of the new faces, which the cross taps reach too (the -x face is the
    /// mean of the -x voxel's centre and this one's): Divergence's result, without its pass.
    float* negatedDivergence = nullptr;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        const float ui = c.n[2] ? 0.5f * (cu[i] + cu[c.n[2]]) : 0.f;
        const float vi = c.n[4] ? 0.5f * (cv[i] + cv[c.n[4]]) : 0.f;
        const float wi = c.n[6] ? 0.5f * (cw[i] + cw[c.n[6]]) : 0.f;
        u[i] = ui, v[i] = vi, w[i] = wi;
        if (!negatedDivergence) return;
        // the faces the -x, -y, -z voxels write, in Divergence's order
        float d = ui - (c.n[1] ? 0.5f * (cu[c.n[1]] + cu[i]) : 0.f);
        d += vi - (c.n[3] ? 0.5f * (cv[c.n[3]] + cv[i]) : 0.f);
        d += wi - (c.n[5] ? 0.5f * (cw[c.n[5]] + cw[i]) : 0.f);
        negatedDivergence[i] = -d;
    }
};

/// Channels moved by semi-Lagrangian advection: density, temperature, centred velocity.
inline constexpr int AdvectedChannels = 5;

/// Semi-Lagrangian advection of Channels channels by the centred velocity (cu, cv, cw) over
/// one substep: the departure point i - dt*vel/h lies within one voxel of i (the caller keeps
/// the CFL number <= 1), so trilinear interpolation takes its 8 weights from the 27 box taps.
/// Inactive taps read the voxel's own value. Needs a box resolver.
template <int Channels = AdvectedChannels>
struct Advect {
    const float* cu;
    const float* cv;
    const float* cw;
    float dtOverH;
    const float* in[Channels];
    float* out[Channels];
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        float wx[3], wy[3], wz[3];
        axisWeights(-dtOverH * cu[i], wx);
        axisWeights(-dtOverH * cv[i], wy);
        axisWeights(-dtOverH * cw[i], wz);
        float acc[Channels] = {};
        taps([&](int tap, uint64_t n) {
            // (indexing puts the weights in local memory; selects measured slower: 2.90 against
            // 2.40 ms per step on the 4.2M plume, H200)
            const float weight = wx[tap / 9] * wy[(tap / 3) % 3] * wz[tap % 3];
            if (weight == 0.f) return; // at least 19 of the 27 taps: skip their loads
            const uint64_t src = n ? n : i;
            for (int ch = 0; ch < Channels; ++ch)
                acc[ch] += weight * in[ch][src];
        });
        for (int ch = 0; ch < Channels; ++ch)
            out[ch][i] = acc[ch];
    }
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

// ---------------------------------------------------------- vorticity confinement
//
// On the centred velocity: w = curl u by central differences (an inactive neighbour reads
// the voxel's own value, a one-sided zero gradient), then a force eps*h*(N x w) with N the
// unit gradient of |w|, which puts back the small swirls that advection smooths away.

/// w = curl(u) and |w| at voxel i.
template <bool FromBox>
struct Vorticity {
    const float *cu, *cv, *cw;
    float *wx, *wy, *wz, *magnitude;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        const auto at = [&](const float* a, int t) { return c.n[t] ? a[c.n[t]] : a[i]; };
        // taps: 1 -x, 2 +x, 3 -y, 4 +y, 5 -z, 6 +z
        const float x = 0.5f * ((at(cw, 4) - at(cw, 3)) - (at(cv, 6) - at(cv, 5)));
        const float y = 0.5f * ((at(cu, 6) - at(cu, 5)) - (at(cw, 2) - at(cw, 1)));
        const float z = 0.5f * ((at(cv, 2) - at(cv, 1)) - (at(cu, 4) - at(cu, 3)));
        wx[i] = x, wy[i] = y, wz[i] = z;
        magnitude[i] = sqrtf(x * x + y * y + z * z);
    }
};

/// u += dt * eps * h * (N x w), N = grad|w| / |grad|w||; with w in voxel units that is scale = dt * eps.
template <bool FromBox>
struct ConfinementForce {
    const float *wx, *wy, *wz, *magnitude;
    float *cu, *cv, *cw;
    float scale;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        const auto at = [&](int t) { return c.n[t] ? magnitude[c.n[t]] : magnitude[i]; };
        const float gx = 0.5f * (at(2) - at(1)), gy = 0.5f * (at(4) - at(3)), gz = 0.5f * (at(6) - at(5));
        const float len = sqrtf(gx * gx + gy * gy + gz * gz);
        if (!(len > 1e-20f)) return;
        const float nx = gx / len, ny = gy / len, nz = gz / len;
        cu[i] += scale * (ny * wz[i] - nz * wy[i]);
        cv[i] += scale * (nz * wx[i] - nx * wz[i]);
        cw[i] += scale * (nx * wy[i] - ny * wx[i]);
    }
};

// ---------------------------------------------------------- multigrid (pressure solve)
//
// Level k+1 holds the voxels c >> 1 of level k; its operator is 4^(k+1) (-L) of its own
// topology (the Galerkin product of piecewise-constant transfer, for full 2x2x2 blocks).

/// Damped Jacobi sweep for A = scale*(-L): out = x + omega * (b - A x) / (scale * neighbours).
template <bool FromBox>
struct JacobiSmooth {
    const float* x;
    const float* b;
    const float* diag;
    float* out;
    float scale, omega;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const float xi = x[i];
        const float ax = minusLaplacian(gatherCross<FromBox>(taps), x, xi);
        const float d = scale * diag[i];
        out[i] = d != 0.f ? xi + omega * (b[i] - scale * ax) / d : 0.f;
    }
};

/// JacobiSmooth that also returns b[i] * out[i]: the V-cycle's last sweep on the fine level,
/// where b = r and out = z, gives CG's r.z in the same pass.
template <bool FromBox>
struct JacobiSmoothDot : JacobiSmooth<FromBox> {
    template <typename Taps>
    __hostdev__ double operator()(uint64_t i, Taps&& taps) const
    {
        JacobiSmooth<FromBox>::operator()(i, taps);
        return double(this->b[i]) * double(this->out[i]);
    }
};

/// out = b - scale*(-L) x
template <bool FromBox>
struct Residual {
    const float* x;
    const float* b;
    float* out;
    float scale;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const float xi = x[i];
        out[i] = b[i] - scale * minusLaplacian(gatherCross<FromBox>(taps), x, xi);
    }
};

/// The 6 cross neighbours of voxel i (0: none), in cross order, at table[6 i ...]: a coarse
/// level's taps, resolved once at start through the chosen resolver (they are the same for
/// every resolver), so its sweeps run as element passes (TableJacobi, TableResidual): a small
/// level's stencil launch would otherwise spend its time in the decode and staging latency.
template <bool FromBox>
struct StoreCrossNeighbours {
    uint32_t* table;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        for (int t = 1; t < CrossTapCount; ++t)
            table[6 * i + t - 1] = uint32_t(c.n[t]);
    }
};

/// minusLaplacian from a StoreCrossNeighbours table: the same sum in the same order.
__hostdev__ inline float tableMinusLaplacian(const uint32_t* table, uint64_t i, const float* x, float xi)
{
    float ax = 0.f;
    for (int t = 0; t < CrossTapCount - 1; ++t)
        if (const uint32_t n = table[6 * i + t]) ax += xi - x[n];
    return ax;
}

/// JacobiSmooth's value at voxel i, its taps from a table.
__hostdev__ inline float tableJacobi(const uint32_t* table, uint64_t i, const float* x, const float* b,
                                     const float* diag, float scale, float omega)
{
    const float xi = x[i];
    const float ax = tableMinusLaplacian(table, i, x, xi);
    const float d = scale * diag[i];
    return d != 0.f ? xi + omega * (b[i] - scale * ax) / d : 0.f;
}

/// JacobiSmooth on a coarse level, its taps from the level's table. An element body.
struct TableJacobi {
    const uint32_t* table;
    const float* x;
    const float* b;
    const float* diag;
    float* out;
    float scale, omega;
    __hostdev__ void operator()(uint64_t i) const { out[i] = tableJacobi(table, i, x, b, diag, scale, omega); }
};

/// Residual on a coarse level, its taps from the level's table. An element body.
struct TableResidual {
    const uint32_t* table;
    const float* x;
    const float* b;
    float* out;
    float scale;
    __hostdev__ void operator()(uint64_t i) const
    {
        const float xi = x[i];
        out[i] = b[i] - scale * tableMinusLaplacian(table, i, x, xi);
    }
};

/// The coarsest level's solve of scale*(-L) x = b from x = 0, as steps with a barrier between
/// them (Exec::steps): step 0 the first damped Jacobi sweep (omega b / (scale diag)), steps
/// 1..sweeps more sweeps (sweeps even), the last writes x. The two iterates live in the
/// executor's scratch (shared memory on CUDA: 2 n floats), so a sweep reads no global memory
/// written in the same launch. Sums in cross order, as JacobiSmooth does.
struct CoarsestJacobi {
    const uint32_t* neighbours; ///< StoreCrossNeighbours' table
    const float* b;
    const float* diag;
    float* x;
    uint64_t n;
    float scale, omega;
    int sweeps;
    __hostdev__ void operator()(int step, uint64_t i, float* scratch) const
    {
        float* even = scratch; // step 0's output, and every even step's
        float* odd = scratch + n;
        if (step == 0) {
            const float first = (scale / omega) * diag[i];
            even[i] = first != 0.f ? b[i] / first : 0.f;
        } else if (step <= sweeps) {
            const float* in = step % 2 ? even : odd;
            (step % 2 ? odd : even)[i] = tableJacobi(neighbours, i, in, b, diag, scale, omega);
        } else {
            x[i] = even[i];
        }
    }
};

/// The (up to 8) fine children of coarse voxel i, value indices at table[8 i ...] in (x, y, z)
/// order (0: none), so restriction and prolongation are element passes. A voxel body on the
/// coarse level, run once at start.
struct StoreChildren {
    const IndexGrid* fine;
    const IndexGrid* coarse;
    uint32_t* table;
    __hostdev__ void operator()(uint64_t i, uint32_t leafIndex, uint16_t voxelOffset) const
    {
        const nanovdb::Coord c = leaves(coarse)[leafIndex].offsetToGlobalCoord(voxelOffset);
        auto acc = fine->getAccessor(); // the 8 children share one leaf
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b)
                for (int k = 0; k < 2; ++k)
                    table[8 * i + 4 * a + 2 * b + k] =
                        uint32_t(acc.getValue(nanovdb::Coord(2 * c[0] + a, 2 * c[1] + b, 2 * c[2] + k)));
    }
};

/// The coarse level's first damped Jacobi sweep from zero, sweep = b / (diagScale diag) (as
/// JacobiApply), written by the restriction that makes b: one launch fewer per level.
struct FirstSweep {
    const float* diag = nullptr; ///< null: no sweep
    float* sweep = nullptr;
    float diagScale = 0;
    __hostdev__ void operator()(uint64_t i, float b) const
    {
        if (!sweep) return;
        const float d = diagScale * diag[i];
        sweep[i] = d != 0.f ? b / d : 0.f;
    }
};

// loops over the 27 offsets and 8 octants unrolled, so their index arrays stay in registers
#if defined(__CUDA_ARCH__)
#define VBM_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define VBM_UNROLL _Pragma("GCC unroll 27")
#else
#define VBM_UNROLL
#endif

/// Trilinear transfer between cell-centred levels. A fine voxel at octant (a, b, k) of its parent
/// c sits a quarter of a coarse voxel from c's centre towards the signs s = 2(a, b, k) - 1, so
/// linear interpolation takes 3/4 from c and 1/4 from c + s along each axis: weights 27/64 (c),
/// 9/64 (faces), 3/64 (edges), 1/64 (corner) over the 8 coarse voxels c + d, d in {0, s}^3.
/// c + d takes part when every voxel of the box spanned by c and c + d is active (so a wall or
/// an obstacle between them cuts the link); otherwise its weight goes to c (constant
/// extrapolation, as a Neumann wall wants; constants stay constants). That rule is symmetric in
/// c and c + d, so restriction, the exact transpose, decides the same from the other end and the
/// V-cycle stays symmetric. Against piecewise-constant transfer: 6 CG iterations instead of 10
/// on the 4.2M plume (docs/solver.md).
namespace trilinear {
/// The two neighbours of voxel i (0: none) along axis (0, 1, 2), -1 and +1, from its cross-neighbour
/// table; 0 where inactive. One 8-byte load (the pair is adjacent and 8-byte aligned): these
/// gathers are what restriction and prolongation spend their time on.
struct Hops {
    uint32_t minus = 0, plus = 0;
};
__hostdev__ inline Hops hops(const uint32_t* table, uint32_t i, int axis)
{
    if (!i) return {};
    const uint32_t* p = table + 6 * uint64_t(i) + 2 * axis;
#if defined(__CUDA_ARCH__)
    const uint2 v = *reinterpret_cast<const uint2*>(p);
    return {v.x, v.y};
#else
    return {p[0], p[1]};
#endif
}
/// Four children of coarse voxel n, octants 4 half .. 4 half + 3 (half 0: x-low), in one 16-byte load.
__hostdev__ inline void childrenHalf(const uint32_t* children, uint64_t n, int half, uint32_t* out)
{
    const uint32_t* p = children + 8 * n + 4 * half;
#if defined(__CUDA_ARCH__)
    const uint4 v = *reinterpret_cast<const uint4*>(p);
    out[0] = v.x, out[1] = v.y, out[2] = v.z, out[3] = v.w;
#else
    for (int k = 0; k < 4; ++k)
        out[k] = p[k];
#endif
}
/// Slot of offset (dx, dy, dz), components in {-1, 0, 1}, in a 27-entry array.
__hostdev__ constexpr int slot(int dx, int dy, int dz) { return 9 * (dx + 1) + 3 * (dy + 1) + (dz + 1); }

/// The 3x3x3 neighbourhood of voxel i through its cross-neighbour table: n[slot] the value index
/// of each neighbour reached by hops in x, y, z order (0 where a hop leaves the domain; 26 hops,
/// sharing prefixes), and linked, bit slot set where the box from i to that neighbour is all
/// active. A walk inside a full box never leaves it, so every box voxel is found when the box
/// is full, and a missing one clears the bit.
struct Neighbourhood {
    uint32_t n[27];
    uint32_t linked = 0;
    __hostdev__ Neighbourhood(const uint32_t* table, uint32_t i)
    {
        const Hops hx = hops(table, i, 0);
        VBM_UNROLL
        for (int a = -1; a <= 1; ++a) {
            const uint32_t na = a ? (a < 0 ? hx.minus : hx.plus) : i;
            const Hops hy = hops(table, na, 1);
            VBM_UNROLL
            for (int b = -1; b <= 1; ++b) {
                const uint32_t nb = b ? (b < 0 ? hy.minus : hy.plus) : na;
                const Hops hz = hops(table, nb, 2);
                n[slot(a, b, -1)] = hz.minus, n[slot(a, b, 0)] = nb, n[slot(a, b, 1)] = hz.plus;
            }
        }
        VBM_UNROLL
        for (int e = 0; e < 27; ++e) {
            const int d[3] = {e / 9 - 1, (e / 3) % 3 - 1, e % 3 - 1};
            bool full = true;
            VBM_UNROLL
            for (int m = 1; m < 8; ++m) { // the box's voxels other than i: sub-offsets of d
                const int x = (m >> 2) ? d[0] : 0, y = ((m >> 1) & 1) ? d[1] : 0, z = (m & 1) ? d[2] : 0;
                if (x || y || z) full = full && n[slot(x, y, z)] != 0;
            }
            if (full) linked |= 1u << e;
        }
    }
    __hostdev__ bool isLinked(int s) const { return (linked >> s) & 1u; }
};

/// The weight of an offset: 3/4 per zero component, 1/4 per other.
__hostdev__ constexpr float weight(int dx, int dy, int dz)
{
    return (dx ? 0.25f : 0.75f) * (dy ? 0.25f : 0.75f) * (dz ? 0.25f : 0.75f);
}
/// The signs of octant o (children table order): -1 or +1 per axis.
__hostdev__ constexpr int sign(int o, int axis) { return (o >> (2 - axis)) & 1 ? 1 : -1; }
/// Offset component of interpolation partner m (0..7, m = 0 the parent) of a child at octant o.
__hostdev__ constexpr int partner(int o, int m, int axis) { return (m >> (2 - axis)) & 1 ? sign(o, axis) : 0; }
} // namespace trilinear

/// Coarse voxel i adds the trilinear interpolation of xc to each of its children. Every
/// fine voxel has one parent, so no two threads write one voxel. An element body on the coarse level.
struct TrilinearProlongAdd {
    const uint32_t* neighbours; ///< the coarse level's StoreCrossNeighbours table
    const uint32_t* children;   ///< StoreChildren's table
    const float* xc;
    float* x;
    __hostdev__ void operator()(uint64_t i) const
    {
        const trilinear::Neighbourhood nb(neighbours, uint32_t(i));
        const float own = xc[i];
        uint32_t kids[8];
        trilinear::childrenHalf(children, i, 0, kids);
        trilinear::childrenHalf(children, i, 1, kids + 4);
        VBM_UNROLL
        for (int o = 0; o < 8; ++o) {
            const uint32_t child = kids[o];
            if (!child) continue;
            float v = 0.f;
            VBM_UNROLL
            for (int m = 0; m < 8; ++m) { // d in {0, s}^3, in a fixed order
                const int dx = trilinear::partner(o, m, 0), dy = trilinear::partner(o, m, 1),
                          dz = trilinear::partner(o, m, 2);
                const int e = trilinear::slot(dx, dy, dz);
                v += trilinear::weight(dx, dy, dz) * (nb.isLinked(e) ? xc[nb.n[e]] : own);
            }
            x[child] += v;
        }
    }
};

/// The transpose of TrilinearProlongAdd: coarse voxel i gathers each fine
/// voxel's r times the weight that fine voxel's interpolation gives i. An element body on the
/// coarse level.
struct TrilinearRestrict {
    const uint32_t* neighbours; ///< the coarse level's StoreCrossNeighbours table
    const uint32_t* children;   ///< StoreChildren's table
    const float* r;
    float* out;
    FirstSweep first;
    __hostdev__ void operator()(uint64_t i) const
    {
        const trilinear::Neighbourhood nb(neighbours, uint32_t(i));
        float sum = 0.f;
        uint32_t kids[8];
        trilinear::childrenHalf(children, i, 0, kids);
        trilinear::childrenHalf(children, i, 1, kids + 4);
        // own children: 27/64 plus the weights of the unlinked voxels of their interpolation
        VBM_UNROLL
        for (int o = 0; o < 8; ++o) {
            const uint32_t child = kids[o];
            if (!child) continue;
            float w = 0.f;
            VBM_UNROLL
            for (int m = 0; m < 8; ++m) {
                const int dx = trilinear::partner(o, m, 0), dy = trilinear::partner(o, m, 1),
                          dz = trilinear::partner(o, m, 2);
                if (!m || !nb.isLinked(trilinear::slot(dx, dy, dz))) w += trilinear::weight(dx, dy, dz);
            }
            sum += w * r[child];
        }
        // the children of each linked neighbour i + e that face i (octant sign -e where e is not 0)
        VBM_UNROLL
        for (int e = 0; e < 27; ++e) {
            const int ex = e / 9 - 1, ey = (e / 3) % 3 - 1, ez = e % 3 - 1;
            if (e == 13 || !nb.isLinked(e)) continue;
            const float w = trilinear::weight(ex, ey, ez);
            // the facing children: one half of the row when e leaves x, both when it does not
            uint32_t facing[8] = {};
            if (ex <= 0) trilinear::childrenHalf(children, nb.n[e], 1, facing + 4);
            if (ex >= 0) trilinear::childrenHalf(children, nb.n[e], 0, facing);
            VBM_UNROLL
            for (int o = 0; o < 8; ++o) {
                if ((ex && trilinear::sign(o, 0) != -ex) || (ey && trilinear::sign(o, 1) != -ey) ||
                    (ez && trilinear::sign(o, 2) != -ez))
                    continue;
                if (const uint32_t child = facing[o]) sum += w * r[child];
            }
        }
        out[i] = sum;
        first(i, sum);
    }
};

// ----------------------------------------------------------------- element-wise bodies

struct Copy {
    const float* x;
    float* y;
    __hostdev__ void operator()(uint64_t i) const { y[i] = x[i]; }
};
/// z = r / diag (Jacobi), 0 where diag is 0
struct JacobiApply {
    const float* r;
    const float* diag;
    float* z;
    float shift; ///< added to diag (1 for the heat matrix I + c*(-L) scaled; 0 for Poisson)
    float scale; ///< diag multiplier
    __hostdev__ void operator()(uint64_t i) const
    {
        const float d = shift + scale * diag[i];
        z[i] = d != 0.f ? r[i] / d : 0.f;
    }
};
/// Zeroes x where mask is set (fixed unknowns take no part in the solve).
struct ZeroWhere {
    const float* mask;
    float* x;
    __hostdev__ void operator()(uint64_t i) const
    {
        if (mask[i] != 0.f) x[i] = 0.f;
    }
};
/// Where mask is set, y = value[i] (fixed temperatures, emitters).
struct SetWhere {
    const float* mask;
    const float* value;
    float* y;
    __hostdev__ void operator()(uint64_t i) const
    {
        if (mask[i] != 0.f) y[i] = value[i];
    }
};
/// Emitter: density and temperature raised to the emitter's values inside it.
/// Sources' fixed temperatures into the RHS of the implicit heat solve: b_i += c * sum of fixed
/// neighbours' T (their coupling moved to the right-hand side keeps the matrix symmetric).
template <bool FromBox>
struct FixedNeighbourRhs {
    const float* t;
    const float* fixed;
    float* b;
    float c;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto cr = gatherCross<FromBox>(taps);
        if (fixed[i] != 0.f) {
            b[i] = 0.f;
            return;
        }
        float s = 0.f;
        for (int k = 1; k < CrossTapCount; ++k)
            if (cr.n[k] && fixed[cr.n[k]] != 0.f) s += t[cr.n[k]];
        b[i] = t[i] + c * s;
    }
};

} // namespace vbm::solver
