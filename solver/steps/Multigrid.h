// SPDX-License-Identifier: Apache-2.0
// The pressure solve's preconditioner: one multigrid V-cycle for -L z = r on the Domain's
// levels, symmetric, so it preconditions CG. In adaptive scenes the fine level's air cells are
// fixed at 0 (Dirichlet) in its sweeps, residual and prolongation. Level 0 (the fine grid) runs its sweeps and
// residual through the chosen resolver; the coarse levels read their taps from their tables.
// The members that launch passes are defined in MultigridImpl.h, compiled per backend in a unit of
// their own (solver/CMakeLists.txt).
#pragma once

#include "domain/Domain.h"
#include "exec/StencilRunner.h"
#include "kernels/CgBodies.h"

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
                      bool firstSweepDone);

private:
    static float levelScale(size_t k) { return float(1u << (LevelScaleLog2 * k)); }

    /// One V-cycle for scale_k (-L_k) x = b at level k from x = 0: a damped Jacobi sweep, the
    /// residual restricted to level k+1 (TrilinearRestrict), its correction interpolated back
    /// (TrilinearProlongAdd, the transpose), another sweep; the coarsest level only sweeps.
    void vcycle(size_t k, float* x, const float* b, float* tmp, float* res, CgState* cg, bool firstSweepDone);

    /// Restricts level k's residual to level k+1 (whose first sweep rides along, but on the
    /// coarsest level, which sweeps on its own), cycles there, and adds the interpolated
    /// correction to tmp. fineB: the fine level's right-hand side (used at k = 0).
    void coarseCorrection(size_t k, float* tmp, const float* res, const float* fineB);

    StencilRunner<Exec>& mRun;
    Exec& mExec;
    Domain<Exec>& mDomain;
    float* mScratch = nullptr; ///< the coarse levels' arrays during a precondition()
};

} // namespace vbm::solver
