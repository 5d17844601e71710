// SPDX-License-Identifier: Apache-2.0
// The pressure solve's preconditioner: one multigrid V-cycle for -L z = r on the Domain's
// levels, symmetric, so it preconditions CG. In adaptive scenes the fine level's air cells are
// fixed at 0 (Dirichlet) in its sweeps, residual and prolongation. Level 0 (the fine grid) runs its sweeps and
// residual through the chosen resolver; the coarse levels read their taps from their tables.
#pragma once

#include "domain/Domain.h"
#include "exec/StencilRunner.h"
#include "kernels/CgBodies.h"
#include "kernels/MultigridBodies.h"
#include "kernels/TrilinearTransfer.h"

#include <cstdint>
#include <stdexcept>

namespace vbm::solver {

template <class Exec>
class Multigrid {
public:
    // damped Jacobi: 0.9 measured best on the 4.2M plume with piecewise-constant transfer (H200,
    // same run: 10 CG iterations against 11 at 0.8); below 1, so each sweep contracts every mode
    // and the cycle stays symmetric positive definite
    static constexpr float SmoothingWeight = 0.9f;
    // Level k's operator is 2^k (-L_k): with sum restriction (the transpose of an interpolation
    // whose weights sum to 1) and the graph Laplacian, 2 per level is the rediscretisation's scale
    // (8 children, spacing doubled). The coarse levels get 3 sweeps each way (cheap: 1/8 the
    // voxels and less).
    static constexpr int LevelScaleLog2 = 1;
    static constexpr int CoarseExtraPairs = 1, FineExtraPairs = 0; // extra sweep pairs each way
    // The coarsest level is solved by CoarsestSweeps damped Jacobi sweeps in one launch. On the
    // 4.2M plume (H200, same runs): at 500 voxels, 40 and 24 sweeps still took 6 CG iterations,
    // and 0.11 and 0.17 ms less per step than 80. Even, for CoarsestJacobi.
    static constexpr int CoarsestSweeps = 40;

    Multigrid(StencilRunner<Exec>& run, Domain<Exec>& domain) : mRun(run), mExec(run.exec()), mDomain(domain) {}

    /// The scale UpdateSolution gives the fine level's first sweep when it rides along with
    /// CG's update of r: sweep = r / (diag / SmoothingWeight).
    static constexpr float firstSweepDiagScale() { return 1.f / SmoothingWeight; }

    /// z = M r by one V-cycle from z = 0, and r.z into cg (from the fine level's last sweep).
    /// sweep, residual, coarse: fine-level temporaries (coarse: the coarse levels' arrays,
    /// Domain::multigridScratch). firstSweepDone: sweep already holds the first sweep (CG's
    /// update wrote it).
    void precondition(float* z, const float* r, float* sweep, float* residual, float* coarse, CgState* cg,
                      bool firstSweepDone)
    {
        mScratch = mDomain.multigridScratch(coarse);
        vcycle(0, z, r, sweep, residual, cg, firstSweepDone);
    }

private:
    static float levelScale(size_t k) { return float(1u << (LevelScaleLog2 * k)); }

    /// One V-cycle for scale_k (-L_k) x = b at level k from x = 0: a damped Jacobi sweep, the
    /// residual restricted to level k+1 (TrilinearRestrict), its correction interpolated back
    /// (TrilinearProlongAdd, the transpose), another sweep; the coarsest level only sweeps.
    void vcycle(size_t k, float* x, const float* b, float* tmp, float* res, CgState* cg, bool firstSweepDone)
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
                mRun.template cross<JacobiSmooth>(mDomain.fine(), from, b, diag, to, scale, SmoothingWeight,
                                                  mDomain.air());
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
            mRun.template crossSum<JacobiSmoothDot>(mDomain.fine(), FinishRz{cg}, tmp, b, diag, x, scale,
                                                    SmoothingWeight, mDomain.air());
        else
            smooth(tmp, x);
    }

    /// Restricts level k's residual to level k+1 (whose first sweep rides along, but on the
    /// coarsest level, which sweeps on its own), cycles there, and adds the interpolated
    /// correction to tmp. fineB: the fine level's right-hand side (used at k = 0).
    void coarseCorrection(size_t k, float* tmp, const float* res, const float* fineB)
    {
        auto& levels = mDomain.levels();
        CoarseLevel<Exec>& c = levels[k];
        const bool coarsest = k + 1 == levels.size();
        float *x = mScratch + c.x, *sweep = mScratch + c.tmp, *b = mScratch + c.b;
        const FirstSweep first = coarsest ? FirstSweep{}
                                          : FirstSweep{c.neighbours.data(), sweep, levelScale(k + 1) / SmoothingWeight,
                                                       c.fixed()};
        mExec.elements(c.n, TrilinearRestrict{c.neighbours.data(), c.children(), res, b, first});
        // the level's residual goes into x (CoarseLevel::x says why that is safe)
        vcycle(k + 1, x, b, sweep, x, nullptr, !coarsest);
        if (k == 0 && FineExtraPairs == 0) // tmp is still the first sweep of fineB: formed again, not read
            mExec.elements(c.n,
                           TrilinearProlongOntoFirstSweep{c.neighbours.data(), c.children(), x, fineB, mDomain.diag(),
                                                          firstSweepDiagScale(), tmp, mDomain.air()});
        else
            mExec.elements(
                c.n, TrilinearProlongAdd{c.neighbours.data(), c.children(), x, tmp,
                                         k == 0 ? mDomain.air() : levels[k - 1].fixed()});
    }

    StencilRunner<Exec>& mRun;
    Exec& mExec;
    Domain<Exec>& mDomain;
    float* mScratch = nullptr; ///< the coarse levels' arrays during a precondition()
};

} // namespace vbm::solver
