// SPDX-License-Identifier: Apache-2.0
// The headless run (see HeadlessRun.h): set up a session with an offscreen target, print what
// runs where, run the frames, then the summary table and the files asked for.
#include "HeadlessRun.h"
#include "CommandLine.h"
#include "DeviceQueries.h"
#include "FrameExport.h"
#include "OffscreenTarget.h"
#include "PngFile.h"
#include "RunCheckpoints.h"
#include "SceneSetup.h"
#include "Session.h"
#include "SetupProgress.h"
#include "StopSignal.h"
#include "TimingSummary.h"
#include "TimingsFile.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <memory>
#include <unistd.h>

namespace vbm::app {

namespace {

/// What the frames of a run leave behind besides their timings.
struct RunOutcome {
    TimingRecords records;
    /// The render's host copies in frames without a rebuild (the field): the last one's, the largest.
    uint64_t fieldBytes = 0, maxFieldBytes = 0;
    int rebuildFrames = 0;     ///< frames whose step rebuilt the topology (the first configuration's)
    uint64_t rebuildBytes = 0; ///< the render's host copies in those frames, in all (the field and the new grid)
    uint64_t imageBytes = 0;   ///< screenshot read-backs, in all
    int earlyRebuilds = 0;     ///< rebuilds the edge watch brought forward (the first configuration's)
    bool identical = true;     ///< every configuration's fields equal after every frame
    int firstDifference = -1;
    int framesRun = 0, lastFrame = -1; ///< frames run, and the last one's number from the scene's start
    int stoppedBy = 0; ///< the signal that stopped the run early (StopSignal.h), or 0
};

/// Where the run starts: a scene from its name, or a checkpoint's state.
struct RunStart {
    CheckpointInfo info; ///< the scene's name and settings; a resumed run's frame and time
    std::string resumedFrom;
};

/// The command line's scene settings, as a checkpoint records them.
std::string settingsText(const Options& o)
{
    std::string s;
    const auto add = [&](const std::string& flag) { s += (s.empty() ? "" : " ") + flag; };
    if (o.scalars) add(std::string("--scalars ") + (*o.scalars == ScalarStorage::Half ? "half" : "float"));
    if (o.maxCfl) {
        char x[40];
        std::snprintf(x, sizeof x, "--max-cfl %.17g", *o.maxCfl);
        add(x);
    }
    if (o.seed) add("--seed " + std::to_string(*o.seed));
    return s;
}

/// The session the run steps: the scene named (or the backend's default), or the state of
/// --resume's checkpoint.
std::unique_ptr<Session> startSession(const Options& o, Backend backend, const std::vector<NamedChoice>& configs,
                                      RunStart& start)
{
    start.info.choice = configs.front().choice;
    if (o.resume.empty()) {
        start.info.scene = startingSceneName(o, backend);
        start.info.settings = settingsText(o);
        return std::make_unique<Session>(start.info.scene, backend, configs,
                                         SceneOverrides{o.scalars, o.maxCfl, o.tapTable, o.seed});
    }
    Checkpoint c = readCheckpoint(o.resume);
    start.info.scene = c.info.scene, start.info.settings = c.info.settings;
    start.info.frame = c.info.frame, start.info.time = c.info.time;
    start.resumedFrom = o.resume;
    return std::make_unique<Session>(std::move(c.scene), backend, configs, o.tapTable);
}

/// The screenshot path of a frame: "%04d" replaced by the frame number, if present.
/// Attaches an offscreen render of the first configuration's density (smoke) or temperature
/// (heat) to the session; returns the header's render line. Where Vulkan cannot run, the run
/// goes on without a render unless --render was asked for explicitly.
std::string startOffscreenRender(const Options& o, Session& session)
{
    if (o.render != "offscreen") return "none";
    try {
        render::VulkanOptions vo;
        vo.preferredDevice = preferredVulkanDevice(session.backend());
        auto vk = std::make_unique<render::VulkanContext>(vo);
        auto target = std::make_unique<render::OffscreenTarget>(*vk, o.width, o.height);
        session.attachRenderer(std::move(vk), std::move(target), o.interop);
    } catch (const render::VulkanError& e) {
        if (o.renderExplicit) throw;
        return std::string("none (") + e.what() + ")";
    }
    const render::VolumeRenderer& renderer = *session.renderer();
    session.view().look = startingLook(session.view().look, renderer.boxMin(), renderer.boxMax(), o);
    const render::VulkanContext& vk = *session.vulkan();
    std::string line = "offscreen " + std::to_string(o.width) + "x" + std::to_string(o.height) + " on " +
                       vk.deviceName() + (vk.validation() ? " (validation on)" : "") + ", " +
                       lookName(session.view().look.mode, session.scene().kind);
    if (o.sliceAxis >= 0)
        line += std::string(", slice ") + char('x' + o.sliceAxis) + " = " +
                std::to_string(int(session.view().look.slicePosition));
    return line;
}

void printHeader(const Options& o, const Session& session, const std::string& renderLine, const RunStart& start)
{
    const Solver& first = session.solver();
    const MemoryReport mem = first.memory();
    std::printf("vbm-fluid (headless)\n  device:     %s\n  backend:    %s\n  render:     %s\n",
                backendDeviceDescription(session.backend()).c_str(), backendName(session.backend()),
                renderLine.c_str());
    if (const render::VolumeRenderer* r = session.renderer()) {
        const std::string& whyNot = session.sharedPathWhyNot();
        std::printf("  interop:    %s%s\n", r->pathDescription().c_str(),
                    whyNot.empty() ? "" : ("; shared path not taken: " + whyNot).c_str());
    }
    std::printf("  scene:      %s (%s), %llu active voxels, %llu blocks of %d\n", session.scene().name.c_str(),
                session.scene().kind == SimulationKind::Heat ? "heat" : "smoke",
                (unsigned long long)first.activeVoxels(), (unsigned long long)first.blockCount(),
                1 << o.log2BlockWidth);
    std::printf("  memory:     %.1f B per voxel (grid+VBM%s %.1f, fields %.1f, temporaries %.1f) per configuration\n",
                mem.perVoxel(mem.total()), first.tapTable() ? "+taps" : "", mem.perVoxel(mem.gridAndVbm), mem.perVoxel(mem.fields),
                mem.perVoxel(mem.temporaries));
    std::printf("  tap table:  %s%s\n", session.tapTablePlan().why.c_str(),
                session.tapTablePlan().on ? "; read by every Laplacian-type pass" : "");
    std::printf("  set-up:     %.2f s, peak host memory %.2f GB\n", session.setupSeconds(),
                double(peakHostBytes()) / 1e9);
    if (session.scene().kind == SimulationKind::Smoke) {
        std::printf("  scalars:    density and temperature as %s\n", session.scene().scalars == ScalarStorage::Half
                                                                         ? "half pairs (one 32-bit element per voxel)"
                                                                         : "floats");
        const double maxCfl = session.scene().params.maxCfl;
        std::printf("  advection:  CFL at most %g per substep (%s)\n", maxCfl,
                    maxCfl > 1 ? "wide substeps, reaching up to 7 voxels" : "box taps");
    }
    for (size_t k = 0; k < session.solverCount(); ++k)
        std::printf("  resolvers:  Laplacian-type %s, advection %s\n",
                    resolverName(session.solver(k).choice().laplacian),
                    resolverName(session.solver(k).choice().advection));
    if (session.solverCount() > 1)
        std::printf("  A/B:        %zu configurations step in turns, frame by frame, from the same initial state;\n"
                    "              their fields are compared bitwise after every frame\n",
                    session.solverCount());
    if (!start.resumedFrom.empty())
        std::printf("  resumed:    %s, after frame %llu (t = %g s) of %s%s%s\n", start.resumedFrom.c_str(),
                    (unsigned long long)start.info.frame, start.info.time, start.info.scene.c_str(),
                    start.info.settings.empty() ? "" : " ", start.info.settings.c_str());
    if (o.checkpointEvery)
        std::printf("  checkpoint: every %d frames and on SIGTERM or SIGINT, to %s (the last two kept)\n",
                    o.checkpointEvery, o.checkpointDir.c_str());
    if (start.resumedFrom.empty())
        std::printf("  frames:     %d\n\n", o.frames);
    else
        std::printf("  frames:     %d more, to frame %llu\n\n", o.frames,
                    (unsigned long long)(start.info.frame + uint64_t(o.frames)));
    std::fflush(stdout);
}

/// Progress on stderr: in place on a terminal, else a line every tenth of the run; with the
/// active voxels after the frame's step. A frame that rebuilt the topology always gets a line of
/// its own, marked, so the count's jumps can be told from its drift.
void reportProgress(uint64_t frame, uint64_t frames, const std::vector<FrameTimings>& records)
{
    const FrameTimings& first = records.front();
    char line[224];
    std::snprintf(line, sizeof line, "[vbm-fluid] frame %llu/%llu, last step %.2f ms, %llu active voxels%s",
                  (unsigned long long)frame + 1, (unsigned long long)frames, records.back().stepMs(), (unsigned long long)first.activeVoxels,
                  first.rebuiltEarly ? " (rebuilt early: smoke had reached the set's edge)"
                  : first.rebuilt    ? " (rebuilt)"
                                     : "");
    if (isatty(fileno(stderr)))
        std::fprintf(stderr, "\r%s   %s", line, first.rebuilt ? "\n" : "");
    else if (first.rebuilt || (frame + 1) % std::max<uint64_t>(1, frames / 10) == 0 || frame + 1 == frames)
        std::fprintf(stderr, "%s\n", line);
}

/// Adds a frame's host copies for the render to the run's: apart for frames that rebuilt.
void countHostBytes(RunOutcome& run, const FrameTimings& first)
{
    if (first.rebuilt) {
        ++run.rebuildFrames, run.rebuildBytes += first.hostBytes;
        return;
    }
    run.fieldBytes = first.hostBytes;
    run.maxFieldBytes = std::max(run.maxFieldBytes, run.fieldBytes);
}

/// What a run writes as it goes: screenshots, exported frames, checkpoints.
struct RunOutputs {
    FrameExport* exports = nullptr;
    RunCheckpoints* checkpoints = nullptr;
    uint64_t firstFrame = 0; ///< frames done before this run (a resumed run's)
};

RunOutcome runFrames(const Options& o, Session& session, const RunOutputs& out)
{
    RunOutcome run;
    run.records = {session.scene().name, session.backend(), session.scene().params.seed, {}, {}};
    for (size_t k = 0; k < session.solverCount(); ++k)
        run.records.configNames.push_back(session.solverName(k));
    for (int frame = 0; frame < o.frames && !stopSignal(); ++frame) {
        const int number = int(out.firstFrame) + frame; // counted from the scene's start
        const bool shot =
            !o.screenshot.empty() && (frame + 1 == o.frames || o.screenshot.find("%04d") != std::string::npos);
        const std::vector<FrameTimings>& records = session.frame({true, shot});
        run.records.frames.push_back(records);
        ++run.framesRun, run.lastFrame = number;
        run.earlyRebuilds += records.front().rebuiltEarly ? 1 : 0;
        if (session.renderer()) countHostBytes(run, records.front());
        if (shot) {
            const render::CapturedImage image = session.capture();
            run.imageBytes += image.pixels.size() * 4;
            render::writePng(framePath(o.screenshot, number), image.pixels, image.width, image.height);
        }
        if (session.solverCount() > 1 && run.identical && !session.fieldsIdentical())
            run.identical = false, run.firstDifference = frame;
        if (out.exports) out.exports->afterFrame(session, number);
        if (out.checkpoints) out.checkpoints->afterFrame(session, uint64_t(number) + 1);
        reportProgress(uint64_t(number), out.firstFrame + uint64_t(o.frames), records);
    }
    if (isatty(fileno(stderr))) std::fprintf(stderr, "\n");
    run.stoppedBy = stopSignal();
    return run;
}

/// What the run found and wrote besides the table; returns whether it went clean.
bool printOutcome(const Options& o, const Session& session, const RunOutcome& run)
{
    bool clean = run.identical;
    if (session.solverCount() > 1)
        std::printf(
            "\nFields bitwise identical across all %zu resolvers after every frame: %s\n", session.solverCount(),
            run.identical ? "yes"
                          : ("NO (first difference after frame " + std::to_string(run.firstDifference) + ")").c_str());
    if (run.earlyRebuilds)
        std::printf("\nEarly rebuilds: %d: smoke above the adapt threshold reached the active set's edge between "
                    "rebuilds, so the next step rebuilt at once. A larger `adapt ... margin` or a smaller `every` "
                    "keeps it inside (docs/adaptive.md)\n",
                    run.earlyRebuilds);
    if (const render::VolumeRenderer* r = session.renderer()) {
        std::printf("\nHost copies per frame for the render: %llu bytes (%s path; largest in any frame%s: %llu)\n",
                    (unsigned long long)run.fieldBytes, r->interop() ? "shared" : "staging",
                    run.rebuildFrames ? " without a rebuild" : "", (unsigned long long)run.maxFieldBytes);
        if (run.rebuildFrames)
            std::printf("Frames that rebuilt the topology: %d, with %llu bytes of host copies for the render in all "
                        "(the field and the new grid%s)\n",
                        run.rebuildFrames, (unsigned long long)run.rebuildBytes,
                        session.backend() == Backend::Cuda ? ", which also comes off the device" : "");
        if (run.imageBytes)
            std::printf("Screenshot read-back, outside the per-frame figure: %llu bytes in all\n",
                        (unsigned long long)run.imageBytes);
        if (!o.screenshot.empty() && run.lastFrame >= 0)
            std::printf("screenshot: %s\n", framePath(o.screenshot, run.lastFrame).c_str());
    }
    if (const render::VulkanContext* vk = session.vulkan(); vk && vk->validation()) {
        std::printf("Vulkan validation errors: %d\n", vk->validationErrors());
        if (vk->validationErrors() > 0) clean = false;
    }
    return clean;
}

/// The lines after the summary table: the hash, the exports, the timings file.
void printFiles(const Options& o, const Session& session, const RunOutcome& run, const FrameExport* exports)
{
    if (o.fieldsHash)
        std::printf("fields hash: %016llx (%zu fields, %llu active voxels, after %d frames)\n",
                    (unsigned long long)session.solver().fieldsHash(), session.solver().fieldNames().size(),
                    (unsigned long long)session.solver().activeVoxels(), run.framesRun);
    if (exports)
        std::printf("export: %d files (%s, every %d frames); %d writer%s took %.2f s in all, %.1f ms per file, "
                    "beside the run, which waited %.2f s for %s\n",
                    exports->filesWritten(), o.exportPattern.c_str(), o.exportEvery, exports->writers(),
                    exports->writers() > 1 ? "s" : "", exports->writeSeconds(),
                    exports->filesWritten() ? 1e3 * exports->writeSeconds() / exports->filesWritten() : 0.0,
                    exports->waitSeconds(), exports->writers() > 1 ? "them" : "it");
    if (!o.exportPath.empty()) {
        const size_t grids = session.exportFields(o.exportPath);
        std::printf("export: %s (%zu float grids after %d frames)\n", o.exportPath.c_str(), grids, run.framesRun);
    }
    if (!o.timings.empty()) {
        const size_t rows = writeTimings(o.timings, run.records);
        std::printf("timings: %s (%zu rows)\n", o.timings.c_str(), rows);
    }
}

} // namespace

int runHeadless(const Options& o)
{
    const Backend backend = pickBackend(o.backend);
    const std::vector<NamedChoice> configs = configurations(o, backend);
    RunStart start;
    const std::unique_ptr<Session> session = startSession(o, backend, configs, start);
    const std::string renderLine = startOffscreenRender(o, *session);
    if (!o.screenshot.empty() && !session->renderer())
        throw cli::UsageError("--screenshot needs the offscreen render, which is not available here");
    printHeader(o, *session, renderLine, start);

    std::unique_ptr<FrameExport> exports;
    if (o.exportEvery) {
        const int writers = o.exportWriters ? o.exportWriters : defaultExportWriters(backend == Backend::Cuda);
        exports = std::make_unique<FrameExport>(o.exportPattern, o.exportEvery, writers, o.exportStorage);
    }
    std::unique_ptr<RunCheckpoints> checkpoints;
    if (o.checkpointEvery) {
        checkpoints = std::make_unique<RunCheckpoints>(o.checkpointDir, o.checkpointEvery, start.info);
        catchStopSignals();
    }
    const RunOutcome run = runFrames(o, *session, {exports.get(), checkpoints.get(), start.info.frame});
    if (exports) exports->finish();
    if (run.stoppedBy && checkpoints) checkpoints->finalCheckpoint(*session, start.info.frame + uint64_t(run.framesRun));
    std::fputs(summaryTable(run.records).c_str(), stdout);
    const bool clean = printOutcome(o, *session, run);
    printFiles(o, *session, run, exports.get());
    if (checkpoints && checkpoints->written())
        std::printf("checkpoint: %s (%d written, the last two kept)\n", checkpoints->lastPath().c_str(),
                    checkpoints->written());
    if (run.stoppedBy) {
        std::printf("stopped by %s after %d of %d frames%s\n", run.stoppedBy == SIGINT ? "SIGINT" : "SIGTERM",
                    run.framesRun, o.frames, checkpoints ? ": --resume the checkpoint above to go on" : "");
        return 128 + run.stoppedBy;
    }
    return clean ? 0 : 1;
}

} // namespace vbm::app
