// SPDX-License-Identifier: Apache-2.0
// Smoke's projection: the centred velocity back to the faces (with -div u in the same pass),
// the pressure solve -L p = -div u by CG (multigrid-preconditioned unless the scene asks for
// Jacobi), then u -= grad p. And the check of the result, max |div u| / max |u|, which runs
// outside the step's time. Accepts every resolver (its passes are Laplacian-type).
// The members that launch passes are defined in ProjectionImpl.h, compiled per backend in a unit of
// their own (solver/CMakeLists.txt).
#pragma once

#include "steps/ConjugateGradient.h"
#include "domain/Domain.h"
#include "domain/Fields.h"
#include "exec/PhaseTimer.h"
#include "ResolverRules.h"
#include "exec/StencilRunner.h"

namespace vbm::solver {

template <class Exec>
class Projection {
public:
    static constexpr StepKind Kind = StepKind::Laplacian;

    Projection(StencilRunner<Exec>& run, Domain<Exec>& domain, Fields<Exec>& fields, ConjugateGradient<Exec>& cg)
        : mRun(run), mDomain(domain), mFields(fields), mCg(cg)
    {
    }

    /// Makes the face velocity divergence-free, from the centred velocity in Temp::CentreU/V/W.
    void run(const SimulationParams& p, PhaseTimer<Exec>& timer);

    /// max |div u| / max |u| of the face velocity: 0 when the projection was exact.
    double divergenceAfter();

private:
    StencilRunner<Exec>& mRun;
    Domain<Exec>& mDomain;
    Fields<Exec>& mFields;
    ConjugateGradient<Exec>& mCg;
};

} // namespace vbm::solver
