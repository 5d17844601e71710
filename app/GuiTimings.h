// SPDX-License-Identifier: Apache-2.0
// The window's timing record: the last 300 frames' FrameTimings (for the stacked plot and the
// active-voxel plot), and for each resolver configuration used so far a TimingSeries of its steps
// (for the median table). Everything is keyed by Phase; names appear only when printed.
#pragma once

#include "FrameTimings.h"
#include "SolverTypes.h"

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

namespace vbm::app {

class FrameHistory {
public:
    static constexpr size_t Capacity = 300;

    struct Config {
        StencilChoice choice;
        TimingSeries steps; ///< one record per step run with this choice
    };

    /// Records a frame drawn with `choice`: its step, when it stepped, and its render.
    void add(const StencilChoice& choice, const FrameTimings& frame);
    /// Forgets everything (a new scene has other phases).
    void clear();

    const std::deque<FrameTimings>& frames() const { return mFrames; }
    const std::vector<Config>& configs() const { return mConfigs; }
    /// The bands the plot stacks, in the order they run (PhaseOrder.h): the solver's phases, the
    /// four rebuild phases as one band (listed as RebuildTopology, named "rebuild"), the render.
    const std::vector<Phase>& plotPhases() const { return mPlotPhases; }
    /// The table's columns, in the order they run: the solver's phases, then Step. A rebuild
    /// phase's median is over the steps that rebuilt.
    const std::vector<Phase>& stepPhases() const { return mStepPhases; }
    /// A plotted band's ms in a frame: the rebuild band sums the four rebuild phases; the render
    /// is the ray march's GPU time where the queue has timestamps, else its wall clock (which
    /// includes waiting for the display).
    static double plottedMs(const FrameTimings& frame, Phase p);
    /// The legend's name of a band.
    static const char* bandName(Phase p) { return isRebuildPhase(p) ? "rebuild" : phaseName(p); }
    /// The height of a frame's stacked bar.
    double plottedTotal(const FrameTimings& frame) const;
    /// Median ms of phase p over the steps run with configuration `config` (0 if none).
    double median(size_t config, Phase p) const { return mConfigs[config].steps.summary(p).median; }
    /// The configuration the ratio column compares with: computeBoxStencil for both step kinds at
    /// the same block width, else computeBoxStencil for the Laplacian-type steps; -1 if not used yet.
    int baseline(const StencilChoice& c) const;
    /// Markdown table: one row per configuration, median ms per phase, and the speed-up of the
    /// whole step against computeBoxStencil.
    std::string table() const;

private:
    std::deque<FrameTimings> mFrames;
    std::vector<Config> mConfigs;
    std::vector<Phase> mPlotPhases, mStepPhases;
};

} // namespace vbm::app
