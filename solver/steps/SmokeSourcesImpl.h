// SPDX-License-Identifier: Apache-2.0
// SmokeSources<Exec>'s passes (steps/SmokeSources.h), compiled once per backend in a unit of their
// own (solver/CMakeLists.txt: VBM_SOLVER_UNITS).
#pragma once

#include "kernels/SourceBodies.h"
#include "steps/SmokeSources.h"

namespace vbm::solver {

template <class Exec>
void SmokeSources<Exec>::run(const SimulationParams& p, PhaseTimer<Exec>& timer, uint64_t step)
{
    Fields<Exec>& f = mFields;
    const float dt = float(p.dt);
    float *cu = f[Temp::CentreU], *cv = f[Temp::CentreV], *cw = f[Temp::CentreW];
    float* fuel = f.has(Channel::Fuel) ? f[Channel::Fuel] : nullptr;
    const Emit emit{f.emitter(), f.scalars(), float(p.emitDensity), float(p.emitTemperature), fuel, float(p.emitFuel)};
    const Burn burn{fuel,
                    f.scalars(),
                    float(p.ignition),
                    float(dt * p.burnRate),
                    float(p.burnHeat),
                    float(p.burnSmoke),
                    float(std::max(0.0, 1.0 - dt * p.cooling)),
                    float(std::max(0.0, 1.0 - dt * p.dissipation))};
    const Buoyancy buoyancy{f.scalars(), cv, float(dt * p.buoyancy), float(dt * p.weight)};
    const float *u = f[Channel::U], *v = f[Channel::V], *w = f[Channel::W];
    // with noise the emitter needs each voxel's coordinate: its own voxel pass, first
    const bool noisy = p.emitNoise > 0;
    const auto emitWithNoise = [&] {
        const EmitterNoise noise{float(p.emitNoise), p.seed, uint32_t(step)};
        mRun.voxels(mDomain.fine(), EmitWithNoise{mDomain.fine().grid(), emit, noise});
    };
    if (p.vorticity <= 0) { // nothing between them: one pass
        timer.time(Phase::SourcesCentreBuoyancy, [&] {
            if (noisy) emitWithNoise();
            mRun.template cross<CentresFromFaces>(mDomain.fine(), u, v, w, cu, cv, cw, true, noisy ? Emit{} : emit,
                                                  buoyancy, burn, mDomain.air());
        });
        return;
    }
    Exec& exec = mRun.exec();
    timer.time(Phase::Sources, [&] {
        if (noisy)
            emitWithNoise();
        else
            exec.elements(mDomain.valueCount(), emit);
        if (fuel || p.cooling > 0 || p.dissipation > 0) exec.elements(mDomain.valueCount(), burn);
    });
    timer.time(Phase::CentreVelocity, [&] {
        mRun.template cross<CentresFromFaces>(mDomain.fine(), u, v, w, cu, cv, cw, false, Emit{}, Buoyancy{}, Burn{},
                                              mDomain.air());
    });
    // the curl's z and its magnitude in the faces U and V: dead once the centres are made
    float *wx = f[Temp::VorticityX], *wy = f[Temp::VorticityY], *wz = f[Channel::U], *mag = f[Channel::V];
    timer.time(Phase::VorticityConfinement, [&] {
        mRun.template cross<Vorticity>(mDomain.fine(), cu, cv, cw, wx, wy, wz, mag);
        mRun.template cross<ConfinementForce>(mDomain.fine(), wx, wy, wz, mag, cu, cv, cw, float(p.dt * p.vorticity));
    });
    timer.time(Phase::Buoyancy, [&] { exec.elements(mDomain.valueCount(), buoyancy); });
}
} // namespace vbm::solver
