// The window's timing record (see GuiTimings.h).
#include "GuiTimings.h"

#include <algorithm>
#include <cstdio>

namespace vbm::app {

std::string choiceLabel(const StencilChoice& c)
{
    return std::string(resolverName(c.laplacian)) + " / " + resolverName(c.advection) + ", " +
           std::to_string(1 << c.log2BlockWidth);
}

double FrameHistory::Frame::total() const
{
    double s = 0;
    for (double m : ms)
        s += m;
    return s;
}

size_t FrameHistory::phaseIndex(const std::string& name)
{
    const auto it = std::find(mPhases.begin(), mPhases.end(), name);
    if (it != mPhases.end()) return size_t(it - mPhases.begin());
    mPhases.push_back(name);
    for (Config& c : mConfigs)
        c.samples.resize(mPhases.size());
    return mPhases.size() - 1;
}

void FrameHistory::add(const StencilChoice& choice, const FrameTimings* step, double renderMs)
{
    Frame f;
    const auto put = [&](const std::string& name, double ms) {
        const size_t i = phaseIndex(name);
        if (f.ms.size() <= i) f.ms.resize(i + 1, 0.0);
        f.ms[i] += ms;
    };
    if (step) {
        for (const PhaseTime& p : step->phases)
            put(phaseName(p.phase), p.ms);
        auto it = std::find_if(mConfigs.begin(), mConfigs.end(), [&](const Config& c) {
            return c.choice.laplacian == choice.laplacian && c.choice.advection == choice.advection &&
                   c.choice.log2BlockWidth == choice.log2BlockWidth;
        });
        if (it == mConfigs.end()) {
            mConfigs.push_back({choice, choiceLabel(choice), 0, {}, -1, -1});
            it = mConfigs.end() - 1;
        }
        it->samples.resize(mPhases.size());
        for (const PhaseTime& p : step->phases) {
            it->samples[phaseIndex(phaseName(p.phase))].push_back(p.ms);
            if (p.iterations >= 0) it->lastIterations = p.iterations, it->lastResidual = p.residual;
        }
        ++it->steps;
    }
    put("render", renderMs);
    f.ms.resize(mPhases.size(), 0.0);
    // the plot stacks phases; "step" is their sum, so it does not stack
    if (const int s = stepPhase(); s >= 0 && size_t(s) < f.ms.size()) f.ms[size_t(s)] = 0;
    mFrames.push_back(std::move(f));
    while (mFrames.size() > Capacity)
        mFrames.pop_front();
}

void FrameHistory::clear()
{
    mPhases.clear();
    mFrames.clear();
    mConfigs.clear();
}

double FrameHistory::median(std::vector<double> v)
{
    if (v.empty()) return 0;
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + long(mid), v.end());
    if (v.size() % 2) return v[mid];
    const double hi = v[mid];
    return 0.5 * (hi + *std::max_element(v.begin(), v.begin() + long(mid)));
}

int FrameHistory::stepPhase() const
{
    const auto it = std::find(mPhases.begin(), mPhases.end(), "step");
    return it == mPhases.end() ? -1 : int(it - mPhases.begin());
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
    for (const std::string& p : mPhases) {
        if (p == "render") continue;
        out += " " + p + " ms |";
        rule += "---|";
    }
    out += " step vs computeBoxStencil |\n" + rule + "---|\n";
    const int s = stepPhase();
    for (const Config& c : mConfigs) {
        out += std::string("| ") + resolverName(c.choice.laplacian) + " | " + resolverName(c.choice.advection) + " | " +
               std::to_string(1 << c.choice.log2BlockWidth) + " | " + std::to_string(c.steps) + " |";
        char buf[64];
        for (size_t p = 0; p < mPhases.size(); ++p) {
            if (mPhases[p] == "render") continue;
            std::snprintf(buf, sizeof buf, " %.3f |", p < c.samples.size() ? median(c.samples[p]) : 0.0);
            out += buf;
        }
        const int b = baseline(c.choice);
        if (b >= 0 && s >= 0 && median(c.samples[size_t(s)]) > 0) {
            std::snprintf(buf, sizeof buf, " %.2fx |",
                          median(mConfigs[size_t(b)].samples[size_t(s)]) / median(c.samples[size_t(s)]));
            out += buf;
        } else {
            out += " (computeBoxStencil not run) |";
        }
        out += "\n";
    }
    return out;
}

} // namespace vbm::app
