// SPDX-License-Identifier: Apache-2.0
// Multigrid<Exec>'s V-cycle (steps/Multigrid.h), compiled once per backend in a unit of its own
// (solver/CMakeLists.txt: VBM_SOLVER_UNITS).
#pragma once

#include "kernels/MultigridBodies.h"
#include "kernels/TrilinearTransfer.h"
#include "steps/Multigrid.h"

namespace vbm::solver {

template <class Exec>
void Multigrid<Exec>::precondition(float* z, const float* r, float* sweep, float* residual, float* coarse, CgState* cg,
                                   bool firstSweepDone)
{
    mScratch = mDomain.multigridScratch(coarse);
    vcycle(0, z, r, sweep, residual, cg, firstSweepDone);
}

template <class Exec>
void Multigrid<Exec>::vcycle(size_t k, float* x, const float* b, float* tmp, float* res, CgState* cg,
                             bool firstSweepDone)
{
    auto& levels = mDomain.levels();
    const uint64_t n = k ? levels[k - 1].n : mDomain.valueCount();
    const uint8_t* diag = mDomain.diag(); // the fine level's; coarse levels count theirs from the table
    const uint32_t* table = k ? levels[k - 1].neighbours.data() : nullptr;
    const float* fixed = k ? levels[k - 1].fixed() : mDomain.air();
    const float scale = levelScale(k);
    if (k == levels.size()) { // k >= 1: multigrid runs only with levels
        // all its sweeps in one launch (the level is small: per-launch latency would dominate)
        mExec.steps(n, CoarsestSweeps + 2, 2 * n,
                    CoarsestJacobi{table, b, x, n, scale, SmoothingWeight, CoarsestSweeps, fixed});
        return;
    }
    const auto smooth = [&](const float* from, float* to) {
        if (k)
            mExec.elements(n, TableJacobi{table, from, b, to, scale, SmoothingWeight, fixed});
        else
            mRun.template cross<JacobiSmooth>(mDomain.fine(), from, b, diag, to, scale, SmoothingWeight, mDomain.air());
    };
    // the first sweep from x = 0 is element-wise: tmp = omega * b / (scale * diag) (on the
    // fine level only: a coarse level's rides along with the restriction that makes b)
    if (!firstSweepDone) {
        if (k) throw std::logic_error("multigrid: a coarse level's first sweep rides along with its restriction");
        mExec.elements(n, FineFirstSweep{b, diag, tmp, firstSweepDiagScale()});
    }
    const int pairs = k ? CoarseExtraPairs : FineExtraPairs;
    const auto extraPairs = [&] {
        for (int p = 0; p < pairs; ++p) {
            smooth(tmp, x);
            smooth(x, tmp);
        }
    };
    extraPairs();
    if (k)
        mExec.elements(n, TableResidual{table, tmp, b, res, scale, fixed});
    else
        mRun.template cross<Residual>(mDomain.fine(), tmp, b, res, scale, mDomain.air());
    coarseCorrection(k, tmp, res, b);
    extraPairs();
    if (cg)
        mRun.template crossSum<JacobiSmoothDot>(mDomain.fine(), FinishRz{cg}, tmp, b, diag, x, scale, SmoothingWeight,
                                                mDomain.air());
    else
        smooth(tmp, x);
}

template <class Exec>
void Multigrid<Exec>::coarseCorrection(size_t k, float* tmp, const float* res, const float* fineB)
{
    auto& levels = mDomain.levels();
    CoarseLevel<Exec>& c = levels[k];
    const bool coarsest = k + 1 == levels.size();
    float *x = mScratch + c.x, *sweep = mScratch + c.tmp, *b = mScratch + c.b;
    const FirstSweep first =
        coarsest ? FirstSweep{}
                 : FirstSweep{c.neighbours.data(), sweep, levelScale(k + 1) / SmoothingWeight, c.fixed()};
    mExec.elements(c.n, TrilinearRestrict{c.neighbours.data(), c.children(), res, b, first});
    // the level's residual goes into x (CoarseLevel::x says why that is safe)
    vcycle(k + 1, x, b, sweep, x, nullptr, !coarsest);
    if (k == 0 && FineExtraPairs == 0) // tmp is still the first sweep of fineB: formed again, not read
        mExec.elements(c.n, TrilinearProlongOntoFirstSweep{c.neighbours.data(), c.children(), x, fineB, mDomain.diag(),
                                                           firstSweepDiagScale(), tmp, mDomain.air()});
    else
        mExec.elements(c.n, TrilinearProlongAdd{c.neighbours.data(), c.children(), x, tmp,
                                                k == 0 ? mDomain.air() : levels[k - 1].fixed()});
}
} // namespace vbm::solver
