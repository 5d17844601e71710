// SPDX-License-Identifier: Apache-2.0
// Kernel bodies of the preconditioned CG (ConjugateGradient.h), with its scalars kept where the
// vectors are (device memory on CUDA):
// the dot products land in a CgState through small `finish` functors run by one thread after
// each reduction, and the vector updates read alpha and beta from it, so an iteration needs no
// host round trip. `done` stops the rest of the solve: the executor skips every launch while
// it is set, so however late the host looks, the result is the one of stopping at once.
#pragma once

#include "kernels/LaplacianRow.h"
#include "kernels/MultigridBodies.h"
#include "vbm/VoxelBlockManager.h"

#include <cmath>
#include <cstdint>

namespace vbm::solver {

/// The scalars of one CG solve, in executor memory (doubles, so one array type serves).
struct CgState {
    double rz;        ///< r.z of this iteration
    double rr, bb;    ///< r.r (last computed), b.b
    double rr0;       ///< r.r at the start
    double threshold; ///< stop when sqrt(r.r) <= threshold (tolerance * |b|)
    double iterations;
    double done;           ///< 0 running, 1 stopped (converged or d.A d <= 0), 2 NaN residual
    double firstDirection; ///< 1 until the first d.A d: the first direction is z itself
    double alpha, beta;    ///< r.z / d.A d and r.z / last r.z, divided once by the finish functors
};
inline constexpr int CgStateDoubles = sizeof(CgState) / sizeof(double);

/// Stores a finished reduction.
struct StoreTotal {
    double* out;
    __hostdev__ void operator()(double total) const { *out = total; }
};

/// d.q of an iteration: counts the iteration; stops when d.A d <= 0 (converged to rounding, or a
/// null-space direction), before x and r move.
struct FinishDq {
    CgState* s;
    __hostdev__ void operator()(double total) const
    {
        s->iterations += 1;
        s->firstDirection = 0;
        s->alpha = s->rz / total;
        if (!(total > 0)) s->done = 1;
    }
};

/// r.r after the update: stops at the tolerance, or on a NaN.
struct FinishRr {
    CgState* s;
    __hostdev__ void operator()(double total) const
    {
        s->rr = total;
        if (!(total - total == 0.0)) // inf or NaN
            s->done = 2;
        else if (sqrt(total) <= s->threshold)
            s->done = 1;
    }
};

/// r.z of the new iteration, and beta = new r.z / last r.z (used from the second direction on).
struct FinishRz {
    CgState* s;
    __hostdev__ void operator()(double total) const
    {
        s->beta = total / s->rz;
        s->rz = total;
    }
};

/// Sets up a solve once b.b and r.r are in: the threshold, the counters, and done at once when
/// b is 0 or the initial guess already meets the tolerance.
struct StartCg {
    CgState* s;
    double tolerance;
    __hostdev__ void operator()() const
    {
        s->threshold = tolerance * sqrt(s->bb);
        s->rr0 = s->rr;
        s->iterations = 0;
        s->done = s->bb > 0 && sqrt(s->rr) > s->threshold ? 0 : 1;
        s->firstDirection = 1;
    }
};

/// a[i] * b[i], for a dot product.
struct Product {
    const float* a;
    const float* b;
    __hostdev__ double operator()(uint64_t i) const { return double(a[i]) * double(b[i]); }
};

/// x += alpha d, r -= alpha q with alpha = r.z / d.A d; returns the new r[i]^2 (for r.r).
/// With sweep set, also sweep = r / (diagScale * diag) (0 where that is 0): the multigrid
/// preconditioner's first smoothing sweep from zero, in the same pass over r.
struct UpdateSolution {
    const CgState* s;
    const float* d;
    const float* q;
    float* x;
    float* r;
    float* sweep = nullptr;
    const uint8_t* diag = nullptr; ///< Domain::diag
    float diagScale = 0;
    /// Element i's inputs, read before any of its writes: the CUDA reduction reads a few
    /// elements' inputs at once before it writes (solverElementSumKernel), so more loads are in
    /// flight per thread (this pass waits on memory, not on arithmetic).
    struct Inputs {
        float alpha, x, d, r, q;
        uint8_t diag;
    };
    __hostdev__ Inputs load(uint64_t i) const
    {
        return {float(s->alpha), x[i], d[i], r[i], q[i], sweep ? diag[i] : uint8_t(0)};
    }
    __hostdev__ double store(uint64_t i, const Inputs& in) const
    {
        x[i] = in.x + in.alpha * in.d;
        const float ri = in.r + -in.alpha * in.q;
        r[i] = ri;
        if (sweep) sweep[i] = firstSweep(ri, float(in.diag), diagScale);
        return double(ri) * double(ri);
    }
    __hostdev__ double operator()(uint64_t i) const { return store(i, load(i)); }
};

/// The new direction d = z + beta dOld (beta = r.z / last r.z; d = z the first time) and q = A d
/// in one stencil pass, each tap's d formed where it is read: one element pass fewer per
/// iteration. d ping-pongs between two arrays, since neighbours still read dOld while dNew is
/// written. Returns d[i] q[i] for d.A d. A = a I + b L as ApplyLaplacian.
template <bool FromBox>
struct DirectionLaplacianDot {
    const CgState* s;
    const float* z;
    const float* dOld;
    float* dNew;
    const float* fixed;
    float* q;
    float a, b;
    bool zeroFixedNeighbours;
    template <typename Taps>
    __hostdev__ double operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        const bool first = s->firstDirection != 0;
        const float beta = first ? 0.f : float(s->beta);
        const auto direction = [&](uint64_t n) { return first ? z[n] : z[n] + beta * dOld[n]; };
        const float di = direction(i);
        // the stores after every load: dNew may alias z or dOld for all the compiler knows, so
        // a store before the neighbours' loads would hold them back until it is done
        const float qi = laplacianRow(c, i, di, direction, fixed, a, b, zeroFixedNeighbours);
        dNew[i] = di;
        q[i] = qi;
        return double(di) * double(qi);
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

/// z = r / diag (Jacobi), 0 where diag is 0
struct JacobiApply {
    const float* r;
    const uint8_t* diag; ///< Domain::diag
    float* z;
    float shift; ///< added to diag (1 for the heat matrix I + c*(-L) scaled; 0 for Poisson)
    float scale; ///< diag multiplier
    __hostdev__ void operator()(uint64_t i) const
    {
        const float d = shift + scale * float(diag[i]);
        z[i] = d != 0.f ? r[i] / d : 0.f;
    }
};

} // namespace vbm::solver
