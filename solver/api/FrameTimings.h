// SPDX-License-Identifier: Apache-2.0
// One timing record per frame, and the one aggregation of it. The solver fills a record with
// its step's phases; the app adds the render and the whole frame; every consumer (the headless
// table and its CSV/JSON, the window's plot and table, vbm-bench --solver) reads the records,
// keyed by Phase, never by a phase's printed name.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vbm {

/// Every timed phase. The printed names (phaseName) are the ones in tables, CSV and JSON.
enum class Phase : uint8_t {
    Diffusion,              ///< heat, explicit: one Laplacian pass
    DiffusionRhs,           ///< heat, implicit: the right-hand side
    DiffusionCg,            ///< heat, implicit: the CG solve
    Sources,                ///< smoke: emitter (vorticity on)
    CentreVelocity,         ///< smoke: face to centre velocity (vorticity on)
    SourcesCentreBuoyancy,  ///< smoke: emitter, centre velocity and buoyancy in one pass (vorticity off)
    VorticityConfinement,   ///< smoke
    Buoyancy,               ///< smoke (vorticity on)
    Advection,              ///< smoke: every substep
    FaceVelocityDivergence, ///< smoke: centre to face velocity, and -div u
    PressureCg,             ///< smoke: the pressure solve
    Gradient,               ///< smoke: u -= grad p
    RebuildTopology,        ///< adaptive scenes: the new active set (threshold, dilate, join, clip)
    RebuildVbm,             ///< adaptive scenes: the grid and its VBM at both widths, air cells, diagonal
    RebuildRemap,           ///< adaptive scenes: fields copied by coordinate onto the new topology
    RebuildHierarchy,       ///< adaptive scenes: the multigrid's coarse levels
    Step,                   ///< the whole solver step
    Render,                 ///< the app's render of the frame (wall clock)
    RenderGpu,              ///< the ray march alone, from GPU timestamps
    Frame,                  ///< the whole frame: every step of the frame plus the render
};
inline constexpr int PhaseCount = int(Phase::Frame) + 1;

/// The name tables, CSV and JSON use ("pressure CG", "render gpu", ...).
const char* phaseName(Phase p);
/// The phase of a printed name, if there is one.
std::optional<Phase> parsePhase(const std::string& name);
/// Phases the solver reports inside a step (not Step, Render, RenderGpu, Frame).
constexpr bool isSolverPhase(Phase p) { return p < Phase::Step; }
/// The four phases of a topology rebuild.
constexpr bool isRebuildPhase(Phase p) { return p >= Phase::RebuildTopology && p <= Phase::RebuildHierarchy; }

/// One timed phase of a frame.
struct PhaseTime {
    Phase phase;
    double ms = 0;
    int iterations = -1;  ///< CG solves: iterations
    double residual = -1; ///< CG solves: final relative residual
};

/// A frame's timings: the solver's phases in the order they ran and the step's total (Step),
/// then what the app adds (Render, RenderGpu, Frame); and what the step reported besides time.
struct FrameTimings {
    int frame = 0;
    std::vector<PhaseTime> phases;
    int substeps = 0;            ///< advection substeps (smoke)
    double divergenceAfter = -1; ///< max |div u| after projection, relative to max |u| / h (smoke)
    uint64_t hostBytes = 0;      ///< host<->device bytes the frame's render copied
    uint64_t activeVoxels = 0;   ///< active voxels after the step (adaptive scenes change it)
    /// Adaptive scenes: the voxels whose density exceeds the adapt threshold after the step
    /// (what the active set follows); 0 elsewhere.
    uint64_t smokeVoxels = 0;
    bool rebuilt = false;        ///< the step began with a rebuild of the topology
    /// ... before its time: the step before left smoke above the adapt threshold at the set's
    /// edge (docs/adaptive.md, "the edge watch")
    bool rebuiltEarly = false;

    void add(Phase p, double ms, int iterations = -1, double residual = -1)
    {
        phases.push_back({p, ms, iterations, residual});
    }
    /// The first entry of phase p, or null.
    const PhaseTime* find(Phase p) const;
    /// The sum of phase p's entries (0 when it did not run).
    double ms(Phase p) const;
    /// The step's total (the Step entry; 0 when none).
    double stepMs() const { return ms(Phase::Step); }
};

/// Median, extremes and 95th percentile of a sample; every table uses this one definition
/// (median: the mean of the middle two for an even count; p95 linearly interpolated).
struct Summary {
    double median = 0, min = 0, max = 0, p95 = 0;
    size_t count = 0;
};
Summary summarize(std::vector<double> samples);

/// The samples of each phase over a run of frames of one configuration, from its records.
class TimingSeries {
public:
    void add(const FrameTimings& f);
    void clear();
    /// Every sample of phase p in the order added (the per-frame sums of its entries).
    const std::vector<double>& samples(Phase p) const { return mSamples[size_t(p)]; }
    Summary summary(Phase p) const { return summarize(samples(p)); }
    /// Summary over the frames [begin, end) of the ones added (a window of a long run).
    Summary summary(Phase p, size_t begin, size_t end) const;
    /// The phases seen so far, in the order first seen.
    const std::vector<Phase>& phases() const { return mOrder; }
    size_t frames() const { return mFrames; }
    /// The last CG solve's iterations and residual, if any ran.
    int lastIterations() const { return mLastIterations; }
    double lastResidual() const { return mLastResidual; }

private:
    std::array<std::vector<double>, PhaseCount> mSamples;
    std::vector<Phase> mOrder;
    size_t mFrames = 0;
    int mLastIterations = -1;
    double mLastResidual = -1;
};

} // namespace vbm
