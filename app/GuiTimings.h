// The window's timing record: the last 300 frames phase by phase (for the stacked plot), and for
// each resolver configuration used so far every step's phase times (for the median table).
#pragma once

#include "FrameTimings.h"
#include "SolverTypes.h"

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

namespace vbm::app {

/// "computeCrossStencilCached / forEachBoxStencilCached, 128": how the table names a choice.
std::string choiceLabel(const StencilChoice& c);

class FrameHistory {
public:
    static constexpr size_t Capacity = 300;

    struct Frame {
        std::vector<double> ms; ///< per phase, in phases() order (0 where a phase did not run)
        double total() const;
    };
    struct Config {
        StencilChoice choice;
        std::string label;
        int steps = 0;
        std::vector<std::vector<double>> samples; ///< per phase, in phases() order
        int lastIterations = -1;
        double lastResidual = -1;
    };

    /// Records a frame: the step (or none when paused) with `choice`, and the render time.
    void add(const StencilChoice& choice, const FrameTimings* step, double renderMs);
    /// Forgets everything (a new scene has other phases).
    void clear();

    const std::vector<std::string>& phases() const { return mPhases; }
    const std::deque<Frame>& frames() const { return mFrames; }
    const std::vector<Config>& configs() const { return mConfigs; }
    /// Median of a phase over the steps run with a configuration (0 if none).
    static double median(std::vector<double> v);
    /// The configuration the ratio column compares with: computeBoxStencil for both step kinds at
    /// the same block width, else computeBoxStencil for the Laplacian-type steps; -1 if not used yet.
    int baseline(const StencilChoice& c) const;
    /// Index of the "step" column (whole step) in phases(), or -1 before the first step.
    int stepPhase() const;
    /// Markdown table: one row per configuration, median ms per phase, and the speed-up of the
    /// whole step against computeBoxStencil.
    std::string table() const;

private:
    size_t phaseIndex(const std::string& name);

    std::vector<std::string> mPhases;
    std::deque<Frame> mFrames;
    std::vector<Config> mConfigs;
};

} // namespace vbm::app
