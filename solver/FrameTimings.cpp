// SPDX-License-Identifier: Apache-2.0
// The frame timing record and its aggregation (see FrameTimings.h).
#include "FrameTimings.h"

#include <algorithm>

namespace vbm {

const char* phaseName(Phase p)
{
    switch (p) {
    case Phase::Diffusion:
        return "diffusion";
    case Phase::DiffusionRhs:
        return "rhs";
    case Phase::DiffusionCg:
        return "diffusion CG";
    case Phase::Sources:
        return "sources";
    case Phase::CentreVelocity:
        return "centre velocity";
    case Phase::SourcesCentreBuoyancy:
        return "sources+centre velocity+buoyancy";
    case Phase::VorticityConfinement:
        return "vorticity confinement";
    case Phase::Buoyancy:
        return "buoyancy";
    case Phase::Advection:
        return "advection";
    case Phase::FaceVelocityDivergence:
        return "face velocity+divergence";
    case Phase::PressureCg:
        return "pressure CG";
    case Phase::Gradient:
        return "gradient";
    case Phase::RebuildTopology:
        return "rebuild topology";
    case Phase::RebuildVbm:
        return "rebuild VBM";
    case Phase::RebuildRemap:
        return "rebuild remap";
    case Phase::RebuildHierarchy:
        return "rebuild hierarchy";
    case Phase::Step:
        return "step";
    case Phase::Render:
        return "render";
    case Phase::RenderGpu:
        return "render gpu";
    case Phase::Frame:
        return "frame";
    }
    return "?";
}

std::optional<Phase> parsePhase(const std::string& name)
{
    for (int i = 0; i < PhaseCount; ++i)
        if (name == phaseName(Phase(i))) return Phase(i);
    return std::nullopt;
}

const PhaseTime* FrameTimings::find(Phase p) const
{
    for (const PhaseTime& t : phases)
        if (t.phase == p) return &t;
    return nullptr;
}

double FrameTimings::ms(Phase p) const
{
    double s = 0;
    for (const PhaseTime& t : phases)
        if (t.phase == p) s += t.ms;
    return s;
}

Summary summarize(std::vector<double> v)
{
    Summary s;
    s.count = v.size();
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    s.min = v.front(), s.max = v.back();
    s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    const double x = 0.95 * double(n - 1);
    const size_t i = size_t(x);
    s.p95 = i + 1 < n ? v[i] + (x - double(i)) * (v[i + 1] - v[i]) : v[i];
    return s;
}

void TimingSeries::add(const FrameTimings& f)
{
    std::array<double, PhaseCount> sum{};
    std::array<bool, PhaseCount> seen{};
    for (const PhaseTime& t : f.phases) {
        sum[size_t(t.phase)] += t.ms;
        seen[size_t(t.phase)] = true;
        if (t.iterations >= 0) mLastIterations = t.iterations, mLastResidual = t.residual;
    }
    for (const PhaseTime& t : f.phases) { // in the record's order, so the first-seen order is the run's
        const size_t p = size_t(t.phase);
        if (!seen[p]) continue;
        if (std::find(mOrder.begin(), mOrder.end(), t.phase) == mOrder.end()) mOrder.push_back(t.phase);
        mSamples[p].push_back(sum[p]);
        seen[p] = false;
    }
    ++mFrames;
}

void TimingSeries::clear() { *this = TimingSeries{}; }

Summary TimingSeries::summary(Phase p, size_t begin, size_t end) const
{
    const auto& v = samples(p);
    end = std::min(end, v.size());
    begin = std::min(begin, end);
    return summarize(std::vector<double>(v.begin() + long(begin), v.begin() + long(end)));
}

} // namespace vbm
