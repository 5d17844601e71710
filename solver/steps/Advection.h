// SPDX-License-Identifier: Apache-2.0
// Smoke's advection: density, temperature and the centred velocity carried semi-Lagrangian by
// the centred velocity, in as many substeps as keep the CFL number at most max_cfl; with
// `advection maccormack` (the default), density and temperature then get MacCormack's limited
// correction, a second pass. With max_cfl <= 1 a departure point stays within the 27 box taps
// and both passes run through the advection resolver (box resolvers only: StepKind::Advection).
// With max_cfl in (1, 7] (the default 7) they are voxel passes that trace the departure point by
// the midpoint rule and find its trilinear corners up to 7 voxels away through the leaf's box
// row (kernels/WideAdvectionBodies.h): from the per-leaf table when the advection resolver is a
// cached one, by tree walks otherwise; the same result.
//
// Decision: the velocity stays semi-Lagrangian. Its arrays are placed so that a substep holds
// 5 temporaries (with the face channels, dead between SmokeSources, which made the centres from
// them, and Projection, which makes them again).
// - Box substeps read the velocity only at the voxel's own: the forward density, temperature
//   and w go into the faces U, V, W, u and v into Temp::AdvectedU/V; MacCormack's corrections
//   of density, temperature (and fire's fuel) go into the centred velocity's arrays, which the
//   correction reads only at its own voxel, before it writes there (MacCormackCorrect), and
//   which the forward results have replaced.
// - Wide substeps read the velocity half way to other voxels, so it must stay whole until the
//   scalars are done: the forward scalars go into the faces U and V (fuel: Temp::AdvectedFuel)
//   and each voxel's departure corners into the face W, their corrections into
//   Temp::AdvectedU/V (fuel: the face W, over the voxel's own corners once read), and then a
//   third pass carries the velocity into the faces, which are free again.
// A separate output array per correction would cost 8 B per voxel.
#pragma once

#include "domain/Domain.h"
#include "domain/Fields.h"
#include "exec/PhaseTimer.h"
#include "ResolverRules.h"
#include "exec/StencilRunner.h"
#include "kernels/AdvectionBodies.h"
#include "kernels/WideAdvectionBodies.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace vbm::solver {

/// A step's advection: its substeps, and whether they are wide.
struct SubstepPlan {
    int substeps;
    bool wide;
};

/// What a wide substep costs in box substeps: three voxel passes with midpoint traces against a
/// box substep's two resolver passes (measured 2.15-2.27: the 4.2M and 991M plumes on an H100,
/// fire-small on 2 cores).
inline constexpr double WideSubstepCost = 2.2;

/// The substeps of a step at CFL number `cfl` (finite, >= 0) with the scene's max_cfl: box
/// substeps of CFL at most min(max_cfl, 1), or, where max_cfl is above 1 and they cost less,
/// wide ones of at most max_cfl. A slow step (CFL 2 or less at max_cfl 7) takes box substeps.
inline SubstepPlan planSubsteps(double cfl, double maxCfl)
{
    maxCfl = std::min(double(WideReach), maxCfl);
    const int box = std::max(1, int(std::ceil(cfl / std::min(maxCfl, 1.0))));
    if (maxCfl <= 1.0) return {box, false};
    const int wide = std::max(1, int(std::ceil(cfl / maxCfl)));
    return WideSubstepCost * wide < box ? SubstepPlan{wide, true} : SubstepPlan{box, false};
}

template <class Exec>
class Advection {
public:
    static constexpr StepKind Kind = StepKind::Advection;

    Advection(StencilRunner<Exec>& run, Domain<Exec>& domain, Fields<Exec>& fields)
        : mRun(run), mDomain(domain), mFields(fields)
    {
    }

    /// Advects from the centred velocity in Temp::CentreU/V/W, which it leaves advected there;
    /// returns the substeps taken.
    int run(const SimulationParams& p, PhaseTimer<Exec>& timer)
    {
        Fields<Exec>& f = mFields;
        const auto t = timer.start();
        const double vmax =
            mRun.exec().maxAbs(f[Temp::CentreU], f[Temp::CentreV], f[Temp::CentreW], mDomain.valueCount());
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

private:
    void substep(float dtOverH, bool macCormack, bool wide)
    {
        const bool fuel = mFields.has(Channel::Fuel), half = mFields.halfScalars();
        if (fuel)
            half ? substepWith<AdvectedChannels + 1, true>(dtOverH, macCormack, wide)
                 : substepWith<AdvectedChannels + 1, false>(dtOverH, macCormack, wide);
        else
            half ? substepWith<AdvectedChannels, true>(dtOverH, macCormack, wide)
                 : substepWith<AdvectedChannels, false>(dtOverH, macCormack, wide);
    }

    /// A box body's WideBody over the voxels of the fine level, with its departure corners'
    /// array (WideAdvectionBodies.h; null: none).
    template <template <int, bool> class WideBody, int N, bool Half, template <int, bool> class BoxBody,
              typename Corners>
    void widePass(const BoxBody<N, Half>& body, Corners* corners)
    {
        const ExecGrid<Exec>& fine = mDomain.fine();
        const LeafReach reach{fine.grid(), isCachedResolver(mRun.choice().advection) ? fine.view(7).boxTable : nullptr};
        mRun.voxels(fine, WideBody<N, Half>{body, reach, corners});
    }

    /// One substep of density, temperature, the centred velocity and (N = 6: fire scenes) fuel.
    /// Half: density and temperature are read as half pairs (Channel::Density's array) and
    /// advected into floats in the faces U and V as with float storage; the correction (or, for
    /// semi-Lagrangian, PackScalars) makes the pairs of the result.
    template <int N, bool Half>
    void substepWith(float dtOverH, bool macCormack, bool wide)
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

    /// substepWith's wide form: the scalars (N - 3 of them), then the velocity (see the top).
    template <int N, bool Half>
    void wideSubstepWith(float dtOverH, bool macCormack)
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
        widePass<WideAdvect>(
            Advect<3>{cu, cv, cw, dtOverH, {cu, cv, cw}, {f[Channel::U], f[Channel::V], f[Channel::W]}},
            static_cast<float*>(nullptr));
        f.swap(Channel::U, Temp::CentreU);
        f.swap(Channel::V, Temp::CentreV);
        f.swap(Channel::W, Temp::CentreW);
    }

    /// MacCormack's correction of density, temperature (and, Fuel, fuel) from their forward
    /// results (the faces U and V, Temp::AdvectedFuel) into the arrays named `density`,
    /// `temperature` and `fuel` (a Temp or a Channel each), which then become the channels. Half:
    /// the pair goes to `density` alone. Box taps through the advection resolver, or wide
    /// (with the forward pass's departure corners, null: traced again).
    template <bool Fuel, bool Half, class D, class T, class F>
    void correctScalars(float dtOverH, D density, T temperature, F fuel, const float* corners, bool wide)
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

    /// Semi-Lagrangian: the forward results (the faces U and V, Temp::AdvectedFuel) become the
    /// channels; Half packs them into a pair first.
    template <bool Fuel, bool Half>
    void keepForwardScalars()
    {
        Fields<Exec>& f = mFields;
        if constexpr (Half)
            mRun.exec().elements(mDomain.valueCount(), PackScalars{f[Channel::U], f[Channel::V], f[Channel::U]});
        f.swap(Channel::Density, Channel::U);
        if constexpr (!Half) f.swap(Channel::Temperature, Channel::V);
        if constexpr (Fuel) f.swap(Channel::Fuel, Temp::AdvectedFuel);
    }

    StencilRunner<Exec>& mRun;
    Domain<Exec>& mDomain;
    Fields<Exec>& mFields;
};

} // namespace vbm::solver
