// SPDX-License-Identifier: Apache-2.0
// Advection<Exec>'s passes (steps/Advection.h), compiled once per backend in a unit of their own
// (solver/CMakeLists.txt: VBM_SOLVER_UNITS).
#pragma once

#include "kernels/AdvectionBodies.h"
#include "kernels/WideAdvectionBodies.h"
#include "steps/Advection.h"

namespace vbm::solver {

template <class Exec>
int Advection<Exec>::run(const SimulationParams& p, PhaseTimer<Exec>& timer)
{
    Fields<Exec>& f = mFields;
    const auto t = timer.start();
    const double vmax = mRun.exec().maxAbs(f[Temp::CentreU], f[Temp::CentreV], f[Temp::CentreW], mDomain.valueCount());
    const double cfl = vmax * p.dt / p.voxelSize;
    const double maxCfl = std::min(double(WideReach), p.maxCfl);
    // Checked before the conversion to int: an infinite or huge CFL does not fit one.
    if (!std::isfinite(cfl) || cfl / maxCfl > 10000)
        throw NonFiniteError("the velocity blew up (CFL " + std::to_string(cfl) + ")");
    const SubstepPlan plan = planSubsteps(cfl, maxCfl);
    for (int s = 0; s < plan.substeps; ++s)
        substep(float(p.dt / plan.substeps / p.voxelSize), p.advection == AdvectionScheme::MacCormack, plan.wide);
    timer.stop(Phase::Advection, t);
    return plan.substeps;
}

template <class Exec>
void Advection<Exec>::substep(float dtOverH, bool macCormack, bool wide)
{
    const bool fuel = mFields.has(Channel::Fuel), half = mFields.halfScalars();
    if (fuel)
        half ? substepWith<AdvectedChannels + 1, true>(dtOverH, macCormack, wide)
             : substepWith<AdvectedChannels + 1, false>(dtOverH, macCormack, wide);
    else
        half ? substepWith<AdvectedChannels, true>(dtOverH, macCormack, wide)
             : substepWith<AdvectedChannels, false>(dtOverH, macCormack, wide);
}

template <class Exec>
template <template <int, bool> class WideBody, int N, bool Half, template <int, bool> class BoxBody, typename Corners>
void Advection<Exec>::widePass(const BoxBody<N, Half>& body, Corners* corners)
{
    const ExecGrid<Exec>& fine = mDomain.fine();
    const LeafReach reach{fine.grid(), isCachedResolver(mRun.choice().advection) ? fine.view(7).boxTable : nullptr};
    mRun.voxels(fine, WideBody<N, Half>{body, reach, corners});
}

template <class Exec>
template <int N, bool Half>
void Advection<Exec>::substepWith(float dtOverH, bool macCormack, bool wide)
{
    if (wide) return wideSubstepWith<N, Half>(dtOverH, macCormack);
    constexpr bool Fuel = N > AdvectedChannels;
    Fields<Exec>& f = mFields;
    float *cu = f[Temp::CentreU], *cv = f[Temp::CentreV], *cw = f[Temp::CentreW];
    const ScalarPairs s = f.scalars();
    Advect<N, Half> a{cu,
                      cv,
                      cw,
                      dtOverH,
                      {s.density, s.temperature, cu, cv, cw},
                      {f[Channel::U], f[Channel::V], f[Temp::AdvectedU], f[Temp::AdvectedV], f[Channel::W]}};
    if constexpr (Fuel) a.in[N - 1] = f[Channel::Fuel], a.out[N - 1] = f[Temp::AdvectedFuel];
    mRun.box(mDomain.fine(), a);
    // each voxel's correction over its own velocity, which the forward pass has replaced
    if (macCormack)
        correctScalars<Fuel, Half>(dtOverH, Temp::CentreU, Temp::CentreV, Temp::CentreW, nullptr, false);
    else
        keepForwardScalars<Fuel, Half>();
    f.swap(Temp::CentreU, Temp::AdvectedU);
    f.swap(Temp::CentreV, Temp::AdvectedV);
    f.swap(Channel::W, Temp::CentreW);
}

template <class Exec>
template <int N, bool Half>
void Advection<Exec>::wideSubstepWith(float dtOverH, bool macCormack)
{
    constexpr bool Fuel = N > AdvectedChannels;
    constexpr int S = Fuel ? 3 : 2;
    Fields<Exec>& f = mFields;
    float *cu = f[Temp::CentreU], *cv = f[Temp::CentreV], *cw = f[Temp::CentreW];
    const ScalarPairs s = f.scalars();
    Advect<S, Half> a{cu, cv, cw, dtOverH, {s.density, s.temperature}, {f[Channel::U], f[Channel::V]}};
    if constexpr (Fuel) a.in[2] = f[Channel::Fuel], a.out[2] = f[Temp::AdvectedFuel];
    // the face W is free until the velocity's pass: it keeps the departure corners for the
    // correction (which may store fuel's result there, over each voxel's own code)
    float* corners = macCormack ? f[Channel::W] : nullptr;
    widePass<WideAdvect>(a, corners);
    if (macCormack)
        correctScalars<Fuel, Half>(dtOverH, Temp::AdvectedU, Temp::AdvectedV, Channel::W, corners, true);
    else
        keepForwardScalars<Fuel, Half>();
    // the faces hold only dead arrays now: the scalars' inputs or forward results
    widePass<WideAdvect>(Advect<3>{cu, cv, cw, dtOverH, {cu, cv, cw}, {f[Channel::U], f[Channel::V], f[Channel::W]}},
                         static_cast<float*>(nullptr));
    f.swap(Channel::U, Temp::CentreU);
    f.swap(Channel::V, Temp::CentreV);
    f.swap(Channel::W, Temp::CentreW);
}

template <class Exec>
template <bool Fuel, bool Half, class D, class T, class F>
void Advection<Exec>::correctScalars(float dtOverH, D density, T temperature, F fuel, const float* corners, bool wide)
{
    Fields<Exec>& f = mFields;
    const ScalarPairs s = f.scalars();
    MacCormackCorrect<Fuel ? 3 : 2, Half> c{f[Temp::CentreU],
                                            f[Temp::CentreV],
                                            f[Temp::CentreW],
                                            dtOverH,
                                            {s.density, s.temperature},
                                            {f[Channel::U], f[Channel::V]},
                                            {f[density], Half ? nullptr : f[temperature]}};
    if constexpr (Fuel) c.phi[2] = f[Channel::Fuel], c.forward[2] = f[Temp::AdvectedFuel], c.out[2] = f[fuel];
    if (wide)
        widePass<WideMacCormackCorrect>(c, corners);
    else
        mRun.box(mDomain.fine(), c);
    f.swap(Channel::Density, density);
    if constexpr (!Half) f.swap(Channel::Temperature, temperature);
    if constexpr (Fuel) f.swap(Channel::Fuel, fuel);
}

template <class Exec>
template <bool Fuel, bool Half>
void Advection<Exec>::keepForwardScalars()
{
    Fields<Exec>& f = mFields;
    if constexpr (Half)
        mRun.exec().elements(mDomain.valueCount(), PackScalars{f[Channel::U], f[Channel::V], f[Channel::U]});
    f.swap(Channel::Density, Channel::U);
    if constexpr (!Half) f.swap(Channel::Temperature, Channel::V);
    if constexpr (Fuel) f.swap(Channel::Fuel, Temp::AdvectedFuel);
}
} // namespace vbm::solver
