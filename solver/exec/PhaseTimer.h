// SPDX-License-Identifier: Apache-2.0
// Times a step's phases on the executor (CUDA events on the solver's stream, a steady clock on
// the CPU) into the step's FrameTimings record. The times are read once, after the step: no
// wait per phase.
#pragma once

#include "FrameTimings.h"

#include <vector>

namespace vbm::solver {

template <class Exec>
class PhaseTimer {
public:
    using Timer = typename Exec::Timer;

    explicit PhaseTimer(Exec& exec) : mExec(exec) {}

    /// Starts a step: a new record, and the step's own timer.
    void beginStep()
    {
        mReport = FrameTimings{};
        mSpans.clear();
        mStep = mExec.startTimer();
    }
    /// Stops the step's timer (work queued after it, such as a diagnostic, is not the step's).
    void endStep() { mStepSpan = mExec.stopTimer(mStep); }

    Timer start() { return mExec.startTimer(); }
    /// Ends phase p, started at t; a CG solve adds its iterations and relative residual.
    void stop(Phase p, const Timer& t, int iterations = -1, double residual = -1)
    {
        mReport.add(p, 0.0, iterations, residual);
        mSpans.push_back(mExec.stopTimer(t));
    }
    /// f() as phase p.
    template <typename F>
    void time(Phase p, F&& f)
    {
        const Timer t = start();
        f();
        stop(p, t);
    }

    /// The record being filled (for what a step reports besides time).
    FrameTimings& report() { return mReport; }
    /// Waits for the step's work, then fills in every phase's time and the step's total.
    const FrameTimings& read()
    {
        mExec.synchronize();
        for (size_t i = 0; i < mSpans.size(); ++i)
            mReport.phases[i].ms = mExec.elapsedMs(mSpans[i]);
        mReport.add(Phase::Step, mExec.elapsedMs(mStepSpan));
        return mReport;
    }

private:
    Exec& mExec;
    FrameTimings mReport;
    std::vector<typename Exec::Span> mSpans; ///< one per phase of mReport, in order
    Timer mStep{};
    typename Exec::Span mStepSpan{};
};

} // namespace vbm::solver
