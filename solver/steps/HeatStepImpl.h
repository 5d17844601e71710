// SPDX-License-Identifier: Apache-2.0
// HeatStep<Exec>'s passes (steps/HeatStep.h), compiled once per backend in a unit of their own
// (solver/CMakeLists.txt: VBM_SOLVER_UNITS).
#pragma once

#include "kernels/HeatBodies.h"
#include "steps/HeatStep.h"

namespace vbm::solver {

template <class Exec>
void HeatStep<Exec>::run(const SimulationParams& p, PhaseTimer<Exec>& timer)
{
    if (p.scheme == HeatScheme::Explicit)
        explicitStep(p, timer);
    else
        implicitStep(p, timer);
}

template <class Exec>
void HeatStep<Exec>::explicitStep(const SimulationParams& p, PhaseTimer<Exec>& timer)
{
    if (p.dt > explicitStableDt(p) * (1 + 1e-9))
        throw std::invalid_argument("explicit heat step dt = " + std::to_string(p.dt) +
                                    " exceeds the stable bound h^2/(6 alpha) = " + std::to_string(explicitStableDt(p)) +
                                    ": lower dt or use implicit");
    Fields<Exec>& f = mFields;
    timer.time(Phase::Diffusion, [&] {
        mRun.template cross<ApplyLaplacian>(mDomain.fine(), f[Channel::Temperature], f[Channel::Fixed],
                                            f[Temp::NewTemperature], 1.f, coupling(p), false);
    });
    f.swap(Channel::Temperature, Temp::NewTemperature);
}

template <class Exec>
void HeatStep<Exec>::implicitStep(const SimulationParams& p, PhaseTimer<Exec>& timer)
{
    Fields<Exec>& f = mFields;
    Exec& exec = mRun.exec();
    const uint64_t n = mDomain.valueCount();
    const float c = coupling(p);
    float* t = f[Channel::Temperature];
    const float* fixed = f[Channel::Fixed];
    float* rhs = f[Temp::NewTemperature];
    timer.time(Phase::DiffusionRhs, [&] { mRun.template cross<FixedNeighbourRhs>(mDomain.fine(), t, fixed, rhs, c); });
    // solve (I + c(-L)) T' = b, fixed voxels decoupled, from T as the initial guess
    float* x = f[Temp::HeatSolution];
    exec.elements(n, Copy{t, x});
    exec.elements(n, ZeroWhere{fixed, x});
    // z shares rhs's array (CG reads rhs only at its start)
    const CgWorkspace w{f[Temp::CgResidual], f[Temp::CgPreconditioned], f[Temp::CgDirectionOld], f[Temp::CgDirection],
                        f[Temp::CgProduct]};
    mCg.solve({Phase::DiffusionCg, x, rhs, 1.f, c, fixed, false}, w, p, timer);
    exec.elements(n, SetWhere{fixed, t, x});
    f.swap(Channel::Temperature, Temp::HeatSolution);
}
} // namespace vbm::solver
