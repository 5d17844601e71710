// SPDX-License-Identifier: Apache-2.0
// The window's timing record (see GuiTimings.h).
#include "GuiTimings.h"

#include "PhaseOrder.h"
#include "ResolverChoice.h"

#include <algorithm>
#include <cstdio>

namespace vbm::app {

double FrameHistory::plottedMs(const FrameTimings& frame, Phase p)
{
    if (p == Phase::Render && frame.find(Phase::RenderGpu)) return frame.ms(Phase::RenderGpu);
    if (isRebuildPhase(p)) {
        double sum = 0;
        for (const PhaseTime& t : frame.phases)
            if (isRebuildPhase(t.phase)) sum += t.ms;
        return sum;
    }
    return frame.ms(p);
}

double FrameHistory::plottedTotal(const FrameTimings& frame) const
{
    double sum = 0;
    for (Phase p : mPlotPhases)
        sum += plottedMs(frame, p);
    return sum;
}

void FrameHistory::add(const StencilChoice& choice, const FrameTimings& frame)
{
    std::vector<Phase> bands, columns;
    for (const PhaseTime& t : frame.phases) {
        if (isSolverPhase(t.phase) || t.phase == Phase::Render)
            bands.push_back(isRebuildPhase(t.phase) ? Phase::RebuildTopology : t.phase);
        if (isSolverPhase(t.phase) || t.phase == Phase::Step) columns.push_back(t.phase);
    }
    mergeRunOrder(mPlotPhases, bands);
    mergeRunOrder(mStepPhases, columns);
    if (frame.find(Phase::Step)) {
        auto it = std::find_if(mConfigs.begin(), mConfigs.end(), [&](const Config& c) { return c.choice == choice; });
        if (it == mConfigs.end()) it = mConfigs.insert(mConfigs.end(), Config{choice, {}});
        it->steps.add(frame);
    }
    mFrames.push_back(frame);
    while (mFrames.size() > Capacity)
        mFrames.pop_front();
}

void FrameHistory::clear()
{
    mFrames.clear();
    mConfigs.clear();
    mPlotPhases.clear();
    mStepPhases.clear();
}

int FrameHistory::baseline(const StencilChoice& c) const
{
    int fallback = -1;
    for (size_t i = 0; i < mConfigs.size(); ++i) {
        const StencilChoice& b = mConfigs[i].choice;
        if (b.laplacian != Resolver::computeBoxStencil || b.log2BlockWidth != c.log2BlockWidth) continue;
        if (b.advection == Resolver::computeBoxStencil) return int(i);
        if (fallback < 0) fallback = int(i);
    }
    return fallback;
}

std::string FrameHistory::table() const
{
    std::string out = "| Laplacian-type resolver | advection resolver | block width | steps |";
    std::string rule = "|---|---|---|---|";
    for (Phase p : mStepPhases) {
        out += std::string(" ") + phaseName(p) + " ms |";
        rule += "---|";
    }
    out += " step vs computeBoxStencil |\n" + rule + "---|\n";
    for (size_t i = 0; i < mConfigs.size(); ++i) {
        const Config& c = mConfigs[i];
        out += std::string("| ") + resolverName(c.choice.laplacian) + " | " + resolverName(c.choice.advection) + " | " +
               std::to_string(1 << c.choice.log2BlockWidth) + " | " + std::to_string(c.steps.frames()) + " |";
        char buf[64];
        for (Phase p : mStepPhases) {
            std::snprintf(buf, sizeof buf, " %.3f |", median(i, p));
            out += buf;
        }
        const int b = baseline(c.choice);
        if (b >= 0 && median(i, Phase::Step) > 0) {
            std::snprintf(buf, sizeof buf, " %.2fx |", median(size_t(b), Phase::Step) / median(i, Phase::Step));
            out += buf;
        } else {
            out += " (computeBoxStencil not run) |";
        }
        out += "\n";
    }
    if (std::any_of(mStepPhases.begin(), mStepPhases.end(), isRebuildPhase))
        out += "(rebuild phases: median over the steps that rebuilt the topology)\n";
    return out;
}

} // namespace vbm::app
