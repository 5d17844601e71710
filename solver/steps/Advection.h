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
// The members that launch passes are defined in AdvectionImpl.h, compiled per backend in a unit of
// their own (solver/CMakeLists.txt).
#pragma once

#include "domain/Domain.h"
#include "domain/Fields.h"
#include "exec/PhaseTimer.h"
#include "ResolverRules.h"
#include "exec/StencilRunner.h"
#include "SolverTypes.h"

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
    maxCfl = std::min(MaxCfl, maxCfl); // MaxCfl: the wide bodies' reach (WideReach)
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
    int run(const SimulationParams& p, PhaseTimer<Exec>& timer);

private:
    void substep(float dtOverH, bool macCormack, bool wide);

    /// A box body's WideBody over the voxels of the fine level, with its departure corners'
    /// array (WideAdvectionBodies.h; null: none).
    template <template <int, bool> class WideBody, int N, bool Half, template <int, bool> class BoxBody,
              typename Corners>
    void widePass(const BoxBody<N, Half>& body, Corners* corners);

    /// One substep of density, temperature, the centred velocity and (N = 6: fire scenes) fuel.
    /// Half: density and temperature are read as half pairs (Channel::Density's array) and
    /// advected into floats in the faces U and V as with float storage; the correction (or, for
    /// semi-Lagrangian, PackScalars) makes the pairs of the result.
    template <int N, bool Half>
    void substepWith(float dtOverH, bool macCormack, bool wide);

    /// substepWith's wide form: the scalars (N - 3 of them), then the velocity (see the top).
    template <int N, bool Half>
    void wideSubstepWith(float dtOverH, bool macCormack);

    /// MacCormack's correction of density, temperature (and, Fuel, fuel) from their forward
    /// results (the faces U and V, Temp::AdvectedFuel) into the arrays named `density`,
    /// `temperature` and `fuel` (a Temp or a Channel each), which then become the channels. Half:
    /// the pair goes to `density` alone. Box taps through the advection resolver, or wide
    /// (with the forward pass's departure corners, null: traced again).
    template <bool Fuel, bool Half, class D, class T, class F>
    void correctScalars(float dtOverH, D density, T temperature, F fuel, const float* corners, bool wide);

    /// Semi-Lagrangian: the forward results (the faces U and V, Temp::AdvectedFuel) become the
    /// channels; Half packs them into a pair first.
    template <bool Fuel, bool Half>
    void keepForwardScalars();

    StencilRunner<Exec>& mRun;
    Domain<Exec>& mDomain;
    Fields<Exec>& mFields;
};

} // namespace vbm::solver
