// SPDX-License-Identifier: Apache-2.0
// Preconditioned conjugate gradients for A x = b, A = shift I + scale (-L) (restricted as
// ApplyLaplacian describes where voxels are fixed), preconditioned by Jacobi or by the
// multigrid V-cycle. Accepts every resolver (its passes are Laplacian-type).
//
// The scalars stay in executor memory (CgState, kernels/CgBodies.h): no host round trip per
// iteration. The host looks at them only at checkpoints, predicted from the residual's rate;
// that does not change the result, since a finished solve skips every launch. On CUDA each
// half iteration is a recorded launch sequence (a CUDA graph) replayed by key.
// The members that launch passes are defined in ConjugateGradientImpl.h, compiled per backend in a
// unit of their own (solver/CMakeLists.txt).
#pragma once

#include "domain/Domain.h"
#include "FrameTimings.h"
#include "steps/Multigrid.h"
#include "exec/PhaseTimer.h"
#include "SolverTypes.h"
#include "exec/StencilRunner.h"
#include "kernels/CgBodies.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace vbm::solver {

/// One solve: A = shift I + scale (-L), fixed voxels (may be null) decoupled, x the initial guess.
struct CgProblem {
    Phase phase; ///< how the solve is reported
    float* x;
    const float* b;
    float shift, scale;
    const float* fixed = nullptr;
    bool multigrid = false; ///< precondition by the V-cycle (when the Domain has levels), else Jacobi
};

/// The solve's vectors (Fields' temporaries). sweep and residual: the V-cycle's fine-level
/// arrays (null without multigrid). z may be b's array (b is read only at the start, by start(),
/// before the first z is made); sweep may be q's (UpdateSolution reads q[i] before it writes the
/// sweep there); residual may be z's or b's (the fine residual is dead once restricted, before
/// the V-cycle's last sweep writes z). No other two may share an array. The coarse levels'
/// arrays live in whichever direction array is dead during the V-cycle (d, after the swap).
struct CgWorkspace {
    float *r, *z, *dOld, *d, *q;
    float* sweep = nullptr;
    float* residual = nullptr;
};

template <class Exec>
class ConjugateGradient {
    template <typename T>
    using Array = typename Exec::template Array<T>;

public:
    ConjugateGradient(StencilRunner<Exec>& run, Domain<Exec>& domain, Multigrid<Exec>& multigrid)
        : mRun(run), mExec(run.exec()), mDomain(domain), mMultigrid(multigrid),
          mState(Exec::template allocate<double>(CgStateDoubles))
    {
    }

    /// Solves p, timed as p.phase with its iterations and relative residual.
    void solve(const CgProblem& p, CgWorkspace w, const SimulationParams& params, PhaseTimer<Exec>& timer);

private:
    /// A solve in progress.
    struct Solve {
        const CgProblem& p;
        CgWorkspace w; ///< d and dOld swap every iteration
        bool multigrid;
        CgState* state;
        std::vector<uint64_t> key;
    };

    CgState* state() { return reinterpret_cast<CgState*>(mState.data()); }

    /// r = b - A x with r.r, b.b, then the start (and whether there is anything to do) decided
    /// on the device: no host round trip.
    void start(Solve& s, double tolerance);

    /// Everything a half iteration's launches depend on, for the executor's replay: the resolver,
    /// the width, the operator, every array (the directions as they are now: the product reads
    /// them, the V-cycle keeps the coarse levels in the dead one) and which half.
    std::vector<uint64_t> graphKey(const Solve& s, int half) const
    {
        const CgProblem& p = s.p;
        return {uint64_t(mRun.choice().laplacian),
                uint64_t(mRun.choice().log2BlockWidth),
                uint64_t(s.multigrid),
                std::bit_cast<uint32_t>(p.shift),
                std::bit_cast<uint32_t>(p.scale),
                address(p.x),
                address(s.w.r),
                address(s.w.z),
                address(s.w.dOld),
                address(s.w.d),
                address(s.w.q),
                address(p.fixed),
                address(s.w.sweep),
                address(s.w.residual),
                address(s.state),
                uint64_t(half)};
    }
    static uint64_t address(const void* p) { return uint64_t(reinterpret_cast<uintptr_t>(p)); }

    // An iteration is two replays: the product A d with the updates of x and r (where the solve
    // may end), then the preconditioner for the next one. A batch's last iteration leaves the
    // second half until the checkpoint has seen the solve go on: a finished solve skips its
    // launches anyway, but a skipped launch of a resolver pass still schedules its thousands of
    // blocks.
    void productAndUpdate(Solve& s);
    void preconditionNext(Solve& s);
    /// z = M r, then r.z into the CG state.
    void precondition(Solve& s);

    CgState readState();

    /// Iterations until the next checkpoint: the residual's mean rate since the last one,
    /// extrapolated to the threshold; rounded down (a checkpoint too early costs one host round
    /// trip, one too late a few skipped launches).
    static int iterationsToGo(double r0, int it0, double r1, int it1, double threshold)
    {
        if (it1 <= it0 || !(r1 < r0) || !(r1 > 0)) return 2;
        const double perIteration = std::log(r1 / r0) / (it1 - it0);
        const double remaining = std::log(threshold / r1) / perIteration;
        return std::clamp(int(remaining), 1, 16);
    }

    /// Launches skip while the CG state says done, until this goes out of scope.
    struct SkipWhenDone {
        Exec& exec;
        SkipWhenDone(Exec& e, const double* done) : exec(e) { exec.skipWhen(done); }
        ~SkipWhenDone() { exec.skipWhen(nullptr); }
    };

    StencilRunner<Exec>& mRun;
    Exec& mExec;
    Domain<Exec>& mDomain;
    Multigrid<Exec>& mMultigrid;
    Array<double> mState;    ///< a CgState
    int mLastIterations = 2; ///< the last solve's iterations: where the next one first checks
};

} // namespace vbm::solver
