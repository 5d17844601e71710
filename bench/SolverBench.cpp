// SPDX-License-Identifier: Apache-2.0
// vbm-bench --solver (see SolverBench.h). Every figure comes from the solver's FrameTimings
// records, aggregated by vbm::TimingSeries per configuration and keyed by Phase.
#include "SolverBench.h"

#include "AdaptiveBench.h"

#include "BenchReport.h"
#include "DeviceQueries.h"
#include "FrameTimings.h"
#include "JsonWriter.h"
#include "Solver.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <vector>

namespace bench {

namespace {

using vbm::Phase;

/// The first steps of each configuration are not timed: they pay for first launches and graphs.
constexpr int WarmupSteps = 3;
/// The configurations, in the order they step: [0] the defaults, [1] computeBoxStencil
/// everywhere, [2] the defaults at block width 512.
constexpr int Configurations = 3;

/// What the timed steps of a run leave to report.
struct SolverRun {
    std::array<vbm::TimingSeries, Configurations> series;
    std::vector<double> iterations; ///< the defaults' CG iterations, every solve of every step
    std::vector<double> substeps;   ///< advection substeps per step (the same in every configuration)
    double maxDiv = 0;              ///< max |div u| / max |u| after projection, any configuration
};

// Steps every configuration once per round, so each sees the same drift of clocks and state.
SolverRun stepInTurns(const std::array<vbm::Solver*, Configurations>& solvers, int steps)
{
    SolverRun run;
    for (int k = 0; k < steps; ++k) {
        for (int v = 0; v < Configurations; ++v) {
            const vbm::FrameTimings& r = solvers[v]->step();
            if (k < WarmupSteps) continue;
            run.series[v].add(r);
            if (v == 0)
                for (const vbm::PhaseTime& p : r.phases)
                    if (p.phase != Phase::Step && p.iterations >= 0) run.iterations.push_back(p.iterations);
            if (r.divergenceAfter > run.maxDiv) run.maxDiv = r.divergenceAfter;
            if (v == 0 && r.substeps > 0) run.substeps.push_back(r.substeps);
        }
        std::fprintf(stderr, "\r[vbm-bench] solver step %d/%d   ", k + 1, steps);
    }
    std::fprintf(stderr, "\n");
    return run;
}

// The table lists the phases by printed name, in alphabetical order, as it always has.
std::vector<Phase> tablePhases(const vbm::TimingSeries& s)
{
    std::vector<Phase> phases;
    for (Phase p : s.phases())
        if (vbm::isSolverPhase(p)) phases.push_back(p);
    std::sort(phases.begin(), phases.end(),
              [](Phase a, Phase b) { return std::strcmp(vbm::phaseName(a), vbm::phaseName(b)) < 0; });
    return phases;
}

void printPhaseTable(const SolverRun& run)
{
    std::printf("| phase | default (computeCrossStencilCached + forEachBoxStencilCached) ms | computeBoxStencil "
                "everywhere ms | ratio |\n|---|---|---|---|\n");
    for (Phase p : tablePhases(run.series[0])) {
        const vbm::Summary s0 = run.series[0].summary(p), s1 = run.series[1].summary(p);
        std::printf("| %s | %s | %s | %.2fx |\n", vbm::phaseName(p), fmtRange(s0, 3).c_str(), fmtRange(s1, 3).c_str(),
                    s1.median / s0.median);
    }
    const vbm::Summary t0 = run.series[0].summary(Phase::Step), t1 = run.series[1].summary(Phase::Step);
    std::printf("| **step** | **%s** (%s-%s) | **%s** (%s-%s) | **%.2fx** |\n\n", fmt(t0.median, 3).c_str(),
                fmt(t0.min, 3).c_str(), fmt(t0.max, 3).c_str(), fmt(t1.median, 3).c_str(), fmt(t1.min, 3).c_str(),
                fmt(t1.max, 3).c_str(), t1.median / t0.median);
    const vbm::Summary t2 = run.series[2].summary(Phase::Step), cg2 = run.series[2].summary(Phase::PressureCg);
    std::printf("The default resolvers at block width 512: step %s ms (%s-%s), pressure CG %s ms\n\n",
                fmt(t2.median, 3).c_str(), fmt(t2.min, 3).c_str(), fmt(t2.max, 3).c_str(), fmt(cg2.median, 3).c_str());
}

// The step grows as the plume speeds up: past 100 steps, medians over windows of steps too.
void printStepWindows(const SolverRun& run, int steps)
{
    if (steps <= 100) return;
    std::printf("Step medians by window (default / computeBoxStencil):");
    // Step numbers (1-based, warm-up included) where each window starts; sample k is step k + 4.
    const int bounds[] = {4, 31, 101, steps + 1};
    for (int w = 0; w < 3; ++w) {
        const size_t a = size_t(bounds[w] - 4), b = size_t(bounds[w + 1] - 4);
        std::printf("%s steps %d-%d %s / %s ms", w ? ";" : "", bounds[w], bounds[w + 1] - 1,
                    fmt(run.series[0].summary(Phase::Step, a, b).median, 3).c_str(),
                    fmt(run.series[1].summary(Phase::Step, a, b).median, 3).c_str());
    }
    std::printf("\n");
}

// Advection time per substep: the substep count varies with the flow, its cost should not.
void printSubsteps(const SolverRun& run, double maxCfl)
{
    if (run.substeps.empty()) return;
    std::vector<double> substepMs[2]; // advection ms per substep
    for (int v = 0; v < 2; ++v) {
        const std::vector<double>& advection = run.series[v].samples(Phase::Advection);
        for (size_t k = 0; k < run.substeps.size() && k < advection.size(); ++k)
            substepMs[v].push_back(advection[k] / run.substeps[k]);
    }
    const vbm::Summary n = vbm::summarize(run.substeps), a0 = vbm::summarize(substepMs[0]),
                       a1 = vbm::summarize(substepMs[1]);
    std::printf("Advection substeps per step (CFL <= %.2f each): median %.0f (%.0f-%.0f); per substep %s ms "
                "(%s-%s), computeBoxStencil %s ms, %.2fx\n",
                std::min(vbm::MaxCfl, maxCfl), n.median, n.min, n.max, fmt(a0.median, 3).c_str(),
                fmt(a0.min, 3).c_str(), fmt(a0.max, 3).c_str(), fmt(a1.median, 3).c_str(), a1.median / a0.median);
}

} // namespace

int runSolverBench(Options opt)
{
    vbm::Scene scene = vbm::loadScene(opt.solverScene);
    // Every Laplacian-type pass through the resolvers compared: the tap table would have them
    // only fill it (vbm-fluid turns it on where it fits; bench/run-all.sh times that default).
    scene.tapTable = vbm::TapTableMode::Off;
    constexpr int FixedSteps = 300, AdaptiveSteps = 40; // --steps' defaults
    if (scene.adapt.enabled()) {
        if (opt.steps == 0) opt.steps = AdaptiveSteps;
        return runAdaptiveBench(opt, scene);
    }
    if (opt.steps == 0) opt.steps = FixedSteps;
    const vbm::StencilChoice fast{}; // computeCrossStencilCached + forEachBoxStencilCached, w128
    const vbm::StencilChoice base{vbm::Resolver::computeBoxStencil, vbm::Resolver::computeBoxStencil, 7};
    const vbm::StencilChoice wide{vbm::StencilChoice{}.laplacian, vbm::StencilChoice{}.advection, 9};
    vbm::Solver a(scene, vbm::Backend::Cuda, fast), b(scene, vbm::Backend::Cuda, base),
        c(scene, vbm::Backend::Cuda, wide);
    const vbm::MemoryReport mem = a.memory();
    std::printf("# vbm-bench --solver %s\n\ndevice: %s; commit %s; %llu active voxels, %llu blocks of 128; "
                "%.1f B/voxel on the device (grid+VBM %.1f, fields %.1f, temporaries %.1f); tap table off, so "
                "every pass runs through the resolvers compared\n\n",
                opt.solverScene.c_str(), vbm::cudaDeviceDescription().c_str(), gitCommit(),
                (unsigned long long)a.activeVoxels(), (unsigned long long)a.blockCount(), mem.perVoxel(mem.total()),
                mem.perVoxel(mem.gridAndVbm), mem.perVoxel(mem.fields), mem.perVoxel(mem.temporaries));

    const SolverRun run = stepInTurns({&a, &b, &c}, opt.steps);
    const bool same = a.fieldsHash() == b.fieldsHash() && a.fieldsHash() == c.fieldsHash();
    printPhaseTable(run);
    std::printf("ns per voxel and step (median step / active voxels): %.2f\n\n",
                run.series[0].summary(Phase::Step).median * 1e6 / double(a.activeVoxels()));
    const vbm::Summary its = vbm::summarize(run.iterations);
    std::printf("%d timed steps each (after %d warm-up), in turns; pressure CG iterations per step: median %.0f "
                "(%.0f-%.0f), tolerance %.0e relative; max |div u| / max |u| after projection: %.1e\n",
                opt.steps - WarmupSteps, WarmupSteps, its.median, its.min, its.max, a.params().cgTolerance, run.maxDiv);
    printStepWindows(run, opt.steps);
    printSubsteps(run, a.params().maxCfl);
    std::printf("Fields bitwise identical between the three (both widths) after %d steps: %s\n", opt.steps,
                same ? "yes" : "NO");
    if (!opt.json.empty())
        writeSolverBenchJson(opt.json, {opt.solverScene, a.activeVoxels(), mem.perVoxel(mem.total()),
                                        run.series[0].summary(Phase::Step).median,
                                        run.series[1].summary(Phase::Step).median, its.median, same});
    return same ? 0 : 1;
}

} // namespace bench
