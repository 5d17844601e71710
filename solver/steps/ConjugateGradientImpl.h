// SPDX-License-Identifier: Apache-2.0
// ConjugateGradient<Exec>'s solve (steps/ConjugateGradient.h), compiled once per backend in a unit
// of its own (solver/CMakeLists.txt: VBM_SOLVER_UNITS).
#pragma once

#include "steps/ConjugateGradient.h"

namespace vbm::solver {

template <class Exec>
void ConjugateGradient<Exec>::solve(const CgProblem& p, CgWorkspace w, const SimulationParams& params,
                                    PhaseTimer<Exec>& timer)
{
    const auto t = timer.start();
    Solve s{p, w, p.multigrid && mDomain.hasMultigrid(), state(), {}};
    start(s, params.cgTolerance);
    CgState h{};
    {
        SkipWhenDone skip{mExec, &s.state->done};
        precondition(s);
        // the first checkpoint where the last solve finished (warm starts take about as many)
        double before = -1;
        int itBefore = 0;
        for (int launched = 0, batch = std::clamp(mLastIterations, 1, 16); launched < params.cgMaxIterations;) {
            batch = std::min(batch, params.cgMaxIterations - launched);
            for (int k = 0; k < batch; ++k) {
                if (k) preconditionNext(s);
                productAndUpdate(s);
            }
            launched += batch;
            h = readState();
            if (h.done != 0) break;
            preconditionNext(s);
            if (before < 0) before = std::sqrt(h.rr0);
            batch = iterationsToGo(before, itBefore, std::sqrt(h.rr), int(h.iterations), h.threshold);
            before = std::sqrt(h.rr), itBefore = int(h.iterations);
        }
    }
    if (h.done == 2) throw std::runtime_error(std::string(phaseName(p.phase)) + ": CG diverged (NaN residual)");
    const int it = int(h.iterations);
    mLastIterations = std::max(it, 1);
    const double bNorm = std::sqrt(h.bb), rNorm = std::sqrt(h.rr);
    timer.stop(p.phase, t, it, bNorm > 0 ? rNorm / bNorm : 0.0);
}

template <class Exec>
void ConjugateGradient<Exec>::start(Solve& s, double tolerance)
{
    const CgProblem& p = s.p;
    mRun.template crossSum<InitialResidualDot>(mDomain.fine(), StoreTotal{&s.state->rr}, p.x, p.fixed, p.b, s.w.r,
                                               p.shift, -p.scale, p.fixed != nullptr);
    mExec.elementsSum(mDomain.valueCount(), Product{p.b, p.b}, StoreTotal{&s.state->bb});
    mExec.single(StartCg{s.state, tolerance});
}

template <class Exec>
void ConjugateGradient<Exec>::productAndUpdate(Solve& s)
{
    const CgProblem& p = s.p;
    const CgWorkspace& w = s.w;
    mExec.replay(graphKey(s, 1), [&] {
        mRun.template crossSum<DirectionLaplacianDot>(mDomain.fine(), FinishDq{s.state}, s.state, w.z, w.dOld, w.d,
                                                      p.fixed, w.q, p.shift, -p.scale, p.fixed != nullptr);
        const uint64_t n = mDomain.valueCount();
        if (s.multigrid) // the V-cycle's first sweep rides along with the update of r
            mExec.elementsSum(n,
                              UpdateSolution{s.state, w.d, w.q, p.x, w.r, w.sweep, mDomain.diag(),
                                             Multigrid<Exec>::firstSweepDiagScale()},
                              FinishRr{s.state});
        else
            mExec.elementsSum(n, UpdateSolution{s.state, w.d, w.q, p.x, w.r}, FinishRr{s.state});
    });
    std::swap(s.w.dOld, s.w.d);
}

template <class Exec>
void ConjugateGradient<Exec>::preconditionNext(Solve& s)
{
    mExec.replay(graphKey(s, 2), [&] {
        if (s.multigrid)
            mMultigrid.precondition(s.w.z, s.w.r, s.w.sweep, s.w.residual, s.w.d, s.state, true);
        else
            precondition(s);
    });
}

template <class Exec>
void ConjugateGradient<Exec>::precondition(Solve& s)
{
    if (s.multigrid) {
        mMultigrid.precondition(s.w.z, s.w.r, s.w.sweep, s.w.residual, s.w.d, s.state, false);
    } else {
        const uint64_t n = mDomain.valueCount();
        mExec.elements(n, JacobiApply{s.w.r, mDomain.diag(), s.w.z, s.p.shift, s.p.scale});
        mExec.elementsSum(n, Product{s.w.r, s.w.z}, FinishRz{s.state});
    }
}

template <class Exec>
CgState ConjugateGradient<Exec>::readState()
{
    CgState h;
    std::memcpy(&h, mExec.read(mState, CgStateDoubles), sizeof h);
    return h;
}
} // namespace vbm::solver
