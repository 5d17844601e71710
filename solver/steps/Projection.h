// SPDX-License-Identifier: Apache-2.0
// Smoke's projection: the centred velocity back to the faces (with -div u in the same pass),
// the pressure solve -L p = -div u by CG (multigrid-preconditioned unless the scene asks for
// Jacobi), then u -= grad p. And the check of the result, max |div u| / max |u|, which runs
// outside the step's time. Accepts every resolver (its passes are Laplacian-type).
#pragma once

#include "steps/ConjugateGradient.h"
#include "domain/Domain.h"
#include "domain/Fields.h"
#include "exec/PhaseTimer.h"
#include "ResolverRules.h"
#include "exec/StencilRunner.h"
#include "kernels/ProjectionBodies.h"

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
    void run(const SimulationParams& p, PhaseTimer<Exec>& timer)
    {
        Fields<Exec>& f = mFields;
        float *u = f[Channel::U], *v = f[Channel::V], *w = f[Channel::W];
        float* rhs = f[Temp::PressureRhs];
        timer.time(Phase::FaceVelocityDivergence, [&] {
            mRun.template cross<FacesFromCentres>(mDomain.fine(), f[Temp::CentreU], f[Temp::CentreV], f[Temp::CentreW],
                                                  u, v, w, rhs, mDomain.air());
        });
        // z and the fine residual share rhs's array (CG reads rhs only at its start), the
        // directions and the product use the centred velocity's (dead once the faces are
        // made): slotOf
        const CgWorkspace ws{f[Temp::CgResidual],       f[Temp::CgPreconditioned], f[Temp::CgDirectionOld],
                             f[Temp::CgDirection],      f[Temp::CgProduct],        f[Temp::MultigridSweep],
                             f[Temp::MultigridResidual]};
        // air cells (adaptive scenes) are the solve's fixed voxels: pressure 0, Dirichlet
        mCg.solve({Phase::PressureCg, f[Channel::Pressure], rhs, 0.f, 1.f, mDomain.air(), true}, ws, p, timer);
        timer.time(Phase::Gradient, [&] {
            mRun.template cross<SubtractGradient>(mDomain.fine(), f[Channel::Pressure], u, v, w, mDomain.air());
        });
    }

    /// max |div u| / max |u| of the face velocity: 0 when the projection was exact.
    double divergenceAfter()
    {
        Fields<Exec>& f = mFields;
        Exec& exec = mRun.exec();
        float* div = f[Temp::DivergenceCheck];
        float *u = f[Channel::U], *v = f[Channel::V], *w = f[Channel::W];
        mRun.template cross<Divergence>(mDomain.fine(), u, v, w, div, mDomain.air());
        const double umax = exec.maxAbs(u, v, w, mDomain.valueCount());
        const double dmax = exec.maxAbs(div, div, div, mDomain.valueCount());
        return umax > 0 ? dmax / umax : 0.0;
    }

private:
    StencilRunner<Exec>& mRun;
    Domain<Exec>& mDomain;
    Fields<Exec>& mFields;
    ConjugateGradient<Exec>& mCg;
};

} // namespace vbm::solver
