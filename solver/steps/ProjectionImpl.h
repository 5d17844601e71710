// SPDX-License-Identifier: Apache-2.0
// Projection<Exec>'s passes (steps/Projection.h), compiled once per backend in their own unit
// (solver/CMakeLists.txt: SOLVER_UNITS).
#pragma once

#include "kernels/ProjectionBodies.h"
#include "steps/Projection.h"

namespace vbm::solver {

template <class Exec>
void Projection<Exec>::run(const SimulationParams& p, PhaseTimer<Exec>& timer)
{
    Fields<Exec>& f = mFields;
    float *u = f[Channel::U], *v = f[Channel::V], *w = f[Channel::W];
    float* rhs = f[Temp::PressureRhs];
    timer.time(Phase::FaceVelocityDivergence, [&] {
        mRun.template cross<FacesFromCentres>(mDomain.fine(), f[Temp::CentreU], f[Temp::CentreV], f[Temp::CentreW], u,
                                              v, w, rhs, mDomain.air());
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

template <class Exec>
double Projection<Exec>::divergenceAfter()
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

} // namespace vbm::solver
