// SPDX-License-Identifier: Apache-2.0
// vbm-bench --solver on an adaptive scene (see AdaptiveBench.h).
#include "AdaptiveBench.h"

#include "BenchReport.h"
#include "DeviceQueries.h"
#include "FrameTimings.h"
#include "JsonWriter.h"
#include "Solver.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <stdexcept>

namespace bench {

namespace {

using vbm::Phase;

constexpr double DivergenceTolerance = 1e-4;

struct Side {
    vbm::TimingSeries series;
    std::vector<double> rebuildMs; ///< per timed step: its four rebuild phases (0 without one)
    double maxDiv = 0;
    uint64_t minActive = UINT64_MAX, maxActive = 0;
    double voxelSteps = 0; ///< the active voxels summed over the timed steps
    void add(const vbm::FrameTimings& r)
    {
        voxelSteps += double(r.activeVoxels);
        series.add(r);
        double ms = 0;
        for (const vbm::PhaseTime& p : r.phases)
            if (vbm::isRebuildPhase(p.phase)) ms += p.ms;
        rebuildMs.push_back(ms);
        maxDiv = std::max(maxDiv, r.divergenceAfter);
        minActive = std::min(minActive, r.activeVoxels), maxActive = std::max(maxActive, r.activeVoxels);
    }
    double meanStep() const
    {
        const auto& s = series.samples(Phase::Step);
        return std::accumulate(s.begin(), s.end(), 0.0) / double(s.size());
    }
    /// ns per active voxel and step: the steps' time (rebuilds included) over the voxels they stepped.
    double nsPerVoxel() const
    {
        const auto& s = series.samples(Phase::Step);
        return voxelSteps > 0 ? std::accumulate(s.begin(), s.end(), 0.0) * 1e6 / voxelSteps : 0.0;
    }
    double meanRebuild() const
    {
        return std::accumulate(rebuildMs.begin(), rebuildMs.end(), 0.0) / double(rebuildMs.size());
    }
};

bool finite(const vbm::Solver& s)
{
    for (const std::string& name : s.fieldNames())
        for (float v : s.field(name))
            if (!std::isfinite(v)) return false;
    return true;
}

void grow(vbm::Solver& a, int steps)
{
    for (int k = 0; k < steps; ++k) {
        const vbm::FrameTimings& r = a.step();
        if ((k + 1) % 25 == 0 || k + 1 == steps)
            std::fprintf(stderr, "\r[vbm-bench] growing: step %d/%d, %llu active voxels   ", k + 1, steps,
                         (unsigned long long)r.activeVoxels);
    }
    std::fprintf(stderr, "\n");
}

void printTable(const Side& a, const Side& f)
{
    std::printf("| | adaptive (rebuilds) | fixed topology (snapshot) | ratio |\n|---|---|---|---|\n");
    std::printf("| **step, mean ms (rebuilds amortized)** | **%s** | **%s** | **%.3fx** |\n",
                fmt(a.meanStep(), 3).c_str(), fmt(f.meanStep(), 3).c_str(), a.meanStep() / f.meanStep());
    std::printf("| **ns per voxel and step** | **%.2f** | **%.2f** | **%.3fx** |\n", a.nsPerVoxel(), f.nsPerVoxel(),
                a.nsPerVoxel() / f.nsPerVoxel());
    const vbm::Summary sa = a.series.summary(Phase::Step), sf = f.series.summary(Phase::Step);
    std::printf("| step, median ms (min-max) | %s | %s | %.3fx |\n", fmtRange(sa, 3).c_str(), fmtRange(sf, 3).c_str(),
                sa.median / sf.median);
    for (Phase p : {Phase::PressureCg, Phase::Advection}) {
        const vbm::Summary pa = a.series.summary(p), pf = f.series.summary(p);
        std::printf("| %s, median ms | %s | %s | %.3fx |\n", vbm::phaseName(p), fmtRange(pa, 3).c_str(),
                    fmtRange(pf, 3).c_str(), pa.median / pf.median);
    }
    std::printf("| rebuild, ms per step (amortized) | %s (%.1f%% of the step) | - | |\n",
                fmt(a.meanRebuild(), 3).c_str(), 100.0 * a.meanRebuild() / a.meanStep());
    for (Phase p : {Phase::RebuildTopology, Phase::RebuildVbm, Phase::RebuildRemap, Phase::RebuildHierarchy}) {
        const vbm::Summary s = a.series.summary(p);
        if (s.count)
            std::printf("| %s, median ms where it ran | %s (%zu steps) | - | |\n", vbm::phaseName(p),
                        fmtRange(s, 3).c_str(), s.count);
    }
    std::printf("| active voxels | %llu-%llu | %llu-%llu | |\n\n", (unsigned long long)a.minActive,
                (unsigned long long)a.maxActive, (unsigned long long)f.minActive, (unsigned long long)f.maxActive);
}

} // namespace

int runAdaptiveBench(const Options& opt, const vbm::Scene& scene)
{
    vbm::Solver a(scene, vbm::Backend::Cuda);
    const int every = scene.adapt.every;
    std::printf("# vbm-bench --solver %s (adaptive: rebuilt every %d steps)\n\ndevice: %s; commit %s\n\n",
                opt.solverScene.c_str(), every, vbm::cudaDeviceDescription().c_str(), gitCommit());
    grow(a, opt.growSteps);
    // line up with the rebuilds: the next step rebuilds
    while (!a.step().rebuilt) {
    }
    for (int k = 1; k < every; ++k)
        a.step();
    const vbm::MemoryReport mem = a.memory();
    const int windows = std::max(1, opt.steps / every);
    std::printf("after %d steps: %llu active voxels, %.1f B/voxel on the device. Then %d windows of %d steps: each "
                "starts with the adaptive side's rebuild step; its new topology and state are then frozen into a "
                "fixed-topology solver (Solver::snapshot, not timed), and the two take the window's steps in turns, "
                "so both step the same voxels (the first window is warm-up)\n\n",
                opt.growSteps, (unsigned long long)a.activeVoxels(), mem.perVoxel(mem.total()), windows, every);
    Side sa, sf;
    bool fixedFinite = true;
    for (int w = 0; w <= windows; ++w) {
        const vbm::FrameTimings& first = a.step();
        if (!first.rebuilt) throw std::logic_error("the adaptive bench's window does not start with a rebuild");
        if (w > 0) sa.add(first);
        vbm::Solver f(a.snapshot(), vbm::Backend::Cuda);
        for (int k = 0; k < every; ++k) {
            const vbm::FrameTimings& rf = f.step();
            if (w > 0) sf.add(rf);
            if (k + 1 == every) break;
            const vbm::FrameTimings& ra = a.step();
            if (w > 0) sa.add(ra);
        }
        if (w == windows) fixedFinite = finite(f);
        std::fprintf(stderr, "\r[vbm-bench] window %d/%d   ", w, windows);
    }
    std::fprintf(stderr, "\n");
    printTable(sa, sf);
    const bool ok = finite(a) && fixedFinite && sa.maxDiv < DivergenceTolerance && sf.maxDiv < DivergenceTolerance;
    std::printf("max |div u| / max |u| after projection: adaptive %.1e, fixed %.1e; fields finite and within "
                "the %.0e tolerance: %s\n",
                sa.maxDiv, sf.maxDiv, DivergenceTolerance, ok ? "yes" : "NO");
    if (!opt.json.empty()) {
        std::ofstream out(opt.json);
        out << "{\"scene\":\"" << jsonEscape(opt.solverScene) << "\",\"adaptive\":true,\"growSteps\":" << opt.growSteps
            << ",\"steps\":" << opt.steps << ",\"activeVoxels\":" << a.activeVoxels()
            << ",\"adaptiveMeanStepMs\":" << sa.meanStep() << ",\"fixedMeanStepMs\":" << sf.meanStep()
            << ",\"rebuildMsPerStep\":" << sa.meanRebuild() << ",\"ok\":" << (ok ? "true" : "false") << "}\n";
        if (!out) throw std::runtime_error(opt.json + ": cannot write the JSON file");
    }
    return ok ? 0 : 1;
}

} // namespace bench
