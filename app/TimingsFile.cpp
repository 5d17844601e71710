// SPDX-License-Identifier: Apache-2.0
// The headless run's --timings file (see TimingsFile.h).
#include "TimingsFile.h"

#include "PhaseOrder.h"

#include <fstream>
#include <functional>
#include <stdexcept>

namespace vbm::app {

namespace {

struct Row {
    int frame;
    const std::string* config;
    const PhaseTime* time;
    uint64_t activeVoxels; ///< the configuration's, after the frame's step
    uint64_t smokeVoxels;  ///< adaptive scenes: voxels above the threshold (0 elsewhere)
    int substeps;          ///< the frame's advection substeps (0: none ran)
    /// What the iterations column holds: CG's iterations, or advection's substeps.
    int count() const { return time->phase == Phase::Advection && substeps > 0 ? substeps : time->iterations; }
};

/// Calls `row` for every row in file order: per frame, each configuration's solver phases and
/// step, then the first configuration's phases the app added (render, render gpu, frame).
void forEachRow(const TimingRecords& t, const std::function<void(const Row&)>& row)
{
    for (const auto& frame : t.frames) {
        for (size_t k = 0; k < frame.size(); ++k)
            for (const PhaseTime& p : frame[k].phases)
                if (isSolverPhase(p.phase) || p.phase == Phase::Step)
                    row({frame[k].frame, &t.configNames[k], &p, frame[k].activeVoxels, frame[k].smokeVoxels,
                         frame[k].substeps});
        if (frame.empty()) continue;
        for (const PhaseTime& p : frame[0].phases)
            if (p.phase > Phase::Step)
                row({frame[0].frame, &t.configNames[0], &p, frame[0].activeVoxels, frame[0].smokeVoxels, 0});
    }
}

void writeJson(std::ostream& f, const TimingRecords& t, size_t rows)
{
    f << "{\"scene\": \"" << t.scene << "\", \"backend\": \"" << backendName(t.backend) << "\", \"seed\": " << t.seed
      << ", \"rows\": [\n";
    size_t i = 0;
    forEachRow(t, [&](const Row& r) {
        f << "  {\"frame\": " << r.frame << ", \"resolver\": \"" << *r.config << "\", \"phase\": \""
          << phaseName(r.time->phase) << "\", \"ms\": " << r.time->ms;
        if (r.time->iterations >= 0)
            f << ", \"iterations\": " << r.time->iterations << ", \"residual\": " << r.time->residual;
        else if (r.count() >= 0)
            f << ", \"substeps\": " << r.count();
        f << ", \"active_voxels\": " << r.activeVoxels << ", \"smoke_voxels\": " << r.smokeVoxels << "}"
          << (++i < rows ? ",\n" : "\n");
    });
    f << "]}\n";
}

void writeCsv(std::ostream& f, const TimingRecords& t)
{
    f << "frame,resolver,phase,ms,iterations,residual,active_voxels,smoke_voxels\n";
    forEachRow(t, [&](const Row& r) {
        const bool cg = r.time->iterations >= 0;
        f << r.frame << "," << *r.config << "," << phaseName(r.time->phase) << "," << r.time->ms << ","
          << (r.count() >= 0 ? std::to_string(r.count()) : "") << "," << (cg ? std::to_string(r.time->residual) : "")
          << "," << r.activeVoxels << "," << r.smokeVoxels << "\n";
    });
}

} // namespace

std::vector<Phase> phasesInRowOrder(const TimingRecords& t)
{
    std::vector<Phase> order, ran;
    int frame = 0;
    forEachRow(t, [&](const Row& r) {
        if (r.frame != frame) mergeRunOrder(order, ran), ran.clear(), frame = r.frame;
        ran.push_back(r.time->phase);
    });
    mergeRunOrder(order, ran);
    return order;
}

size_t writeTimings(const std::string& path, const TimingRecords& t)
{
    std::ofstream f(path);
    if (!f) throw std::runtime_error("cannot write the timings file " + path);
    size_t rows = 0;
    forEachRow(t, [&](const Row&) { ++rows; });
    const bool json = path.size() > 5 && path.substr(path.size() - 5) == ".json";
    if (json)
        writeJson(f, t, rows);
    else
        writeCsv(f, t);
    if (!f) throw std::runtime_error("writing the timings file " + path + " failed");
    return rows;
}

} // namespace vbm::app
