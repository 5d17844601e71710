// SPDX-License-Identifier: Apache-2.0
// Smoke's sources: the emitter raises density and temperature (and fuel), fuel burns where it is
// hot enough (fire scenes: heat and smoke from it), the face velocity is averaged
// to cell centres, buoyancy (up with temperature, down with density) accelerates the centred
// velocity, and vorticity confinement (when on) puts back small swirls. With confinement off
// the emitter, the centres and buoyancy run as one pass. Accepts every resolver (its passes
// are Laplacian-type).
// The members that launch passes are defined in SmokeSourcesImpl.h, compiled per backend in a unit
// of their own (solver/CMakeLists.txt).
#pragma once

#include "domain/Domain.h"
#include "domain/Fields.h"
#include "exec/PhaseTimer.h"
#include "ResolverRules.h"
#include "exec/StencilRunner.h"

namespace vbm::solver {

template <class Exec>
class SmokeSources {
public:
    static constexpr StepKind Kind = StepKind::Laplacian;

    SmokeSources(StencilRunner<Exec>& run, Domain<Exec>& domain, Fields<Exec>& fields)
        : mRun(run), mDomain(domain), mFields(fields)
    {
    }

    /// Leaves the centred velocity in Temp::CentreU/V/W. `step`: the steps done before this one
    /// (the emitter noise's time).
    void run(const SimulationParams& p, PhaseTimer<Exec>& timer, uint64_t step);

private:
    StencilRunner<Exec>& mRun;
    Domain<Exec>& mDomain;
    Fields<Exec>& mFields;
};

} // namespace vbm::solver
