// SPDX-License-Identifier: Apache-2.0
// The headless run's summary table (see TimingSummary.h).
#include "TimingSummary.h"

#include <cstdarg>
#include <cstdio>
#include <optional>

namespace vbm::app {

namespace {

/// The rebuild phases' time over a run divided by its frame count: their cost per step.
double rebuildMsPerStep(const TimingSeries& s)
{
    double sum = 0;
    for (Phase p : s.phases())
        if (isRebuildPhase(p))
            for (double ms : s.samples(p))
                sum += ms;
    return s.frames() ? sum / double(s.frames()) : 0;
}

void addRow(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));
void addRow(std::string& out, const char* format, ...)
{
    char line[256];
    va_list args;
    va_start(args, format);
    std::vsnprintf(line, sizeof line, format, args);
    va_end(args);
    out += line;
}

} // namespace

// Most phases run in every frame. The rebuild phases run only in the frames that rebuilt the
// topology: their median and p95 are over those frames (a median over every frame, mostly of
// zeros, would hide what a rebuild costs), and one more row spreads them over the run, the four
// phases' sum over all frames divided by the frame count (what a rebuild every K steps adds to a
// step). The rows say how many frames rebuilt; the footnote says the rest.
std::string summaryTable(const TimingRecords& t)
{
    std::vector<TimingSeries> series(t.configNames.size());
    for (const auto& frame : t.frames)
        for (size_t k = 0; k < frame.size() && k < series.size(); ++k)
            series[k].add(frame[k]);
    const std::vector<Phase> phases = phasesInRowOrder(t);
    std::optional<Phase> lastRebuild; // the amortized row comes after it
    for (Phase p : phases)
        if (isRebuildPhase(p)) lastRebuild = p;
    std::string out = "| resolver | phase | median ms | p95 ms |\n|---|---|---|---|\n";
    for (size_t k = 0; k < series.size(); ++k) {
        const char* name = t.configNames[k].c_str();
        for (Phase p : phases) {
            if (series[k].samples(p).empty()) continue;
            const Summary s = series[k].summary(p);
            if (isRebuildPhase(p))
                addRow(out, "| %s | %s (%zu of %zu frames) | %.3f | %.3f |\n", name, phaseName(p), s.count,
                       series[k].frames(), s.median, s.p95);
            else
                addRow(out, "| %s | %s | %.3f | %.3f |\n", name, phaseName(p), s.median, s.p95);
            if (p == lastRebuild)
                addRow(out, "| %s | rebuild, amortized per step | %.3f | |\n", name, rebuildMsPerStep(series[k]));
            if (p == Phase::Frame) addRow(out, "| %s | frames per second | %.1f | |\n", name, 1000.0 / s.median);
        }
    }
    if (lastRebuild)
        out += "\nRebuild phases: median and p95 over the frames that rebuilt the topology only; \"rebuild, "
               "amortized per step\": the four phases' sum over all frames / the frame count.\n";
    return out;
}

} // namespace vbm::app
