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
    const FrameTimings* record; ///< the configuration's record of the frame (frame, voxels, substeps)
    const std::string* config;
    const PhaseTime* time;
    /// What the iterations column holds: CG's iterations, or advection's substeps.
    int count() const
    {
        return time->phase == Phase::Advection && record->substeps > 0 ? record->substeps : time->iterations;
    }
};

/// The frame's rebuild: "every" (the K-th step's), "early" (the edge watch's), or "" (none).
const char* rebuildName(const FrameTimings& f) { return f.rebuiltEarly ? "early" : f.rebuilt ? "every" : ""; }

/// Calls `row` for every row in file order: per frame, each configuration's solver phases and
/// step, then the first configuration's phases the app added (render, render gpu, frame).
void forEachRow(const TimingRecords& t, const std::function<void(const Row&)>& row)
{
    for (const auto& frame : t.frames) {
        for (size_t k = 0; k < frame.size(); ++k)
            for (const PhaseTime& p : frame[k].phases)
                if (isSolverPhase(p.phase) || p.phase == Phase::Step) row({&frame[k], &t.configNames[k], &p});
        if (frame.empty()) continue;
        for (const PhaseTime& p : frame[0].phases)
            if (p.phase > Phase::Step) row({&frame[0], &t.configNames[0], &p});
    }
}

void writeJson(std::ostream& f, const TimingRecords& t, size_t rows)
{
    f << "{\"scene\": \"" << t.scene << "\", \"backend\": \"" << backendName(t.backend) << "\", \"seed\": " << t.seed
      << ", \"rows\": [\n";
    size_t i = 0;
    forEachRow(t, [&](const Row& r) {
        f << "  {\"frame\": " << r.record->frame << ", \"resolver\": \"" << *r.config << "\", \"phase\": \""
          << phaseName(r.time->phase) << "\", \"ms\": " << r.time->ms;
        if (r.time->iterations >= 0)
            f << ", \"iterations\": " << r.time->iterations << ", \"residual\": " << r.time->residual;
        else if (r.count() >= 0)
            f << ", \"substeps\": " << r.count();
        f << ", \"active_voxels\": " << r.record->activeVoxels << ", \"smoke_voxels\": " << r.record->smokeVoxels;
        if (r.record->rebuilt) f << ", \"rebuild\": \"" << rebuildName(*r.record) << "\"";
        f << "}" << (++i < rows ? ",\n" : "\n");
    });
    f << "]}\n";
}

void writeCsv(std::ostream& f, const TimingRecords& t)
{
    f << "frame,resolver,phase,ms,iterations,residual,active_voxels,smoke_voxels,rebuild\n";
    forEachRow(t, [&](const Row& r) {
        const bool cg = r.time->iterations >= 0;
        f << r.record->frame << "," << *r.config << "," << phaseName(r.time->phase) << "," << r.time->ms << ","
          << (r.count() >= 0 ? std::to_string(r.count()) : "") << "," << (cg ? std::to_string(r.time->residual) : "")
          << "," << r.record->activeVoxels << "," << r.record->smokeVoxels << "," << rebuildName(*r.record) << "\n";
    });
}

} // namespace

std::vector<Phase> phasesInRowOrder(const TimingRecords& t)
{
    std::vector<Phase> order, ran;
    int frame = 0;
    forEachRow(t, [&](const Row& r) {
        if (r.record->frame != frame) mergeRunOrder(order, ran), ran.clear(), frame = r.record->frame;
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
