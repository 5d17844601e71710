// SPDX-License-Identifier: Apache-2.0
// Heat diffusion, dT/dt = alpha L T, with some voxels held at fixed temperatures: explicit
// (forward Euler, one Laplacian pass; dt at most h^2 / (6 alpha)) or implicit (backward Euler,
// (I + c(-L)) T' = T by CG, the fixed voxels' coupling moved to the right-hand side so the
// matrix stays symmetric). Accepts every resolver (its passes are Laplacian-type).
// The members that launch passes are defined in HeatStepImpl.h, compiled per backend in a unit of
// their own (solver/CMakeLists.txt).
#pragma once

#include "steps/ConjugateGradient.h"
#include "domain/Domain.h"
#include "domain/Fields.h"
#include "exec/PhaseTimer.h"
#include "ResolverRules.h"
#include "exec/StencilRunner.h"

#include <stdexcept>
#include <string>

namespace vbm::solver {

template <class Exec>
class HeatStep {
public:
    static constexpr StepKind Kind = StepKind::Laplacian;

    HeatStep(StencilRunner<Exec>& run, Domain<Exec>& domain, Fields<Exec>& fields, ConjugateGradient<Exec>& cg)
        : mRun(run), mDomain(domain), mFields(fields), mCg(cg)
    {
    }

    void run(const SimulationParams& p, PhaseTimer<Exec>& timer);

private:
    static float coupling(const SimulationParams& p) { return float(p.alpha * p.dt / (p.voxelSize * p.voxelSize)); }

    void explicitStep(const SimulationParams& p, PhaseTimer<Exec>& timer);

    void implicitStep(const SimulationParams& p, PhaseTimer<Exec>& timer);

    StencilRunner<Exec>& mRun;
    Domain<Exec>& mDomain;
    Fields<Exec>& mFields;
    ConjugateGradient<Exec>& mCg;
};

} // namespace vbm::solver
