// SPDX-License-Identifier: Apache-2.0
// Frame sequences on a background writer (see FrameExport.h).
#include "FrameExport.h"

#include "CommandLine.h"
#include "FieldExport.h"
#include "MemoryPlan.h"
#include "Session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace vbm::app {

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Host bytes a queued frame holds: its fields and its grid.
size_t heldBytes(const VdbFrame& f)
{
    size_t bytes = f.domain.bufferSize() + (f.u.size() + f.v.size() + f.w.size()) * sizeof(float);
    for (const auto& s : f.scalars)
        bytes += s.second.size() * sizeof(float);
    return bytes;
}

} // namespace

bool isVdbPath(const std::string& path) { return endsWith(path, ".vdb"); }

int defaultExportWriters(bool cuda)
{
    if (!cuda) return 1;
    const int cores = int(std::thread::hardware_concurrency());
    return std::clamp(cores / 4, 1, 4);
}

std::string framePath(const std::string& pattern, int frame)
{
    const size_t at = pattern.find("%04d");
    if (at == std::string::npos) return pattern;
    char number[16];
    std::snprintf(number, sizeof number, "%04d", frame);
    return pattern.substr(0, at) + number + pattern.substr(at + 4);
}

void checkExportPattern(const std::string& pattern, int every, int frames)
{
    if (isVdbPath(pattern)) {
        if (const std::string why = vdbExportWhyNot(); !why.empty()) throw cli::UsageError("--export-every: " + why);
    }
    if (frames / every > 1 && pattern.find("%04d") == std::string::npos)
        throw cli::UsageError("--export-every: '" + pattern + "' has no %04d, so each of the " +
                              std::to_string(frames / every) + " files would replace the last: put %04d in the name");
}

FrameExport::FrameExport(std::string pattern, int every, int writers, VdbStorage storage)
    : mPattern(std::move(pattern)), mEvery(every), mVdb(isVdbPath(mPattern)), mStorage(storage)
{
    const uint64_t freeHost = memoryOffer(Backend::Cpu).host;
    mMaxHeldBytes = freeHost ? size_t(freeHost / 4) : SIZE_MAX;
    for (int i = 0; i < std::max(writers, 1); ++i)
        mWriters.emplace_back([this] { writerLoop(); });
}

FrameExport::~FrameExport()
{
    {
        std::lock_guard<std::mutex> lock(mMutex);
        mStop = true;
    }
    mChanged.notify_all();
    for (std::thread& t : mWriters)
        t.join();
}

void placeField(VdbFrame& f, const std::string& name, std::vector<float> values, bool vdb, bool heat)
{
    const bool velocity = name == "u" || name == "v" || name == "w";
    if (vdb && velocity) {
        (name == "u" ? f.u : name == "v" ? f.v : f.w) = std::move(values);
    } else {
        f.scalars.emplace_back(vdb ? vdbGridName(name, heat) : name, std::move(values));
    }
}

namespace {

/// A frame's facts, with no field yet: `grid` (the solver's now), voxel size, time and number.
VdbFrame frameFacts(const Session& session, HostGridHandle grid, int frame)
{
    const Solver& solver = session.solver();
    VdbFrame f;
    f.domain = std::move(grid);
    f.voxelSize = solver.params().voxelSize;
    f.time = double(session.steps()) * solver.params().dt;
    f.frame = frame;
    return f;
}

/// Floats per field of `grid`: its value count (index 0, the background, included).
size_t valueCount(const HostGridHandle& grid)
{
    const auto* index = grid.grid<nanovdb::ValueOnIndex>();
    return index ? size_t(index->valueCount()) : 0;
}

/// Copies each of `names` of `solver` into `f` where placeField puts it.
void placeFields(VdbFrame& f, const Solver& solver, const std::vector<std::string>& names, bool vdb)
{
    const bool heat = solver.kind() == SimulationKind::Heat;
    for (const std::string& name : names)
        placeField(f, name, solver.field(name), vdb, heat);
}

} // namespace

VdbFrame currentFrame(const Session& session, bool vdb, int frame)
{
    const Solver& solver = session.solver();
    VdbFrame f = frameFacts(session, solver.grid(), frame);
    placeFields(f, solver, solver.fieldNames(), vdb);
    return f;
}

/// The frame to queue, its grid copied once: on CUDA, once the slots exist and the fields fit
/// them, the frame's facts now and the fields on their way (FrameCopies); else their copies now.
FrameExport::Job FrameExport::queuedFrame(const Session& session, int frame)
{
    const Solver& solver = session.solver();
    Job job{framePath(mPattern, frame), VdbFrame{}, 0};
    job.names = solver.fieldNames();
    job.heat = solver.kind() == SimulationKind::Heat;
    HostGridHandle grid = solver.grid();
    job.count = valueCount(grid);
    job.frame = frameFacts(session, std::move(grid), frame);
    if (!mCopies || !mCopies->fits(job.names.size(), job.count)) {
        placeFields(job.frame, solver, job.names, mVdb);
        job.bytes = heldBytes(job.frame);
        return job;
    }
    job.copies = true;
    job.bytes = job.frame.domain.bufferSize() + job.names.size() * job.count * sizeof(float);
    return job;
}

/// A writer's part of an asynchronous frame: waits for its copies and places its fields.
void FrameExport::placeCopies(Job& job)
{
    if (job.slot < 0) return;
    std::vector<std::vector<float>> fields = mCopies->take(job.slot);
    job.slot = -1;
    for (size_t i = 0; i < fields.size(); ++i)
        placeField(job.frame, job.names[i], std::move(fields[i]), mVdb, job.heat);
}

void FrameExport::afterFrame(const Session& session, int frame)
{
    if ((frame + 1) % mEvery != 0) return;
    if (!mTriedCopies && session.backend() == Backend::Cuda) {
        mTriedCopies = true;
        std::string whyNot = "VBM_EXPORT_SYNC=1";
        const char* sync = std::getenv("VBM_EXPORT_SYNC"); // the tests' way to compare both paths
        if (!sync || std::string(sync) != "1")
            mCopies = FrameCopies::make(session.solver(), int(mWriters.size()) + 1, mMaxHeldBytes * 4, whyNot);
        if (!mCopies) std::fprintf(stderr, "[export] the fields are copied off the GPU synchronously: %s\n", whyNot.c_str());
    }
    Job job = queuedFrame(session, frame);
    std::unique_lock<std::mutex> lock(mMutex);
    rethrowFailure();
    // Room: a writer free or about to be (one frame waiting at most), and the memory bound, which
    // always lets one frame in.
    const auto room = [&] {
        const size_t frames = mQueue.size() + size_t(mInFlight);
        return frames < mWriters.size() + 1 && (frames == 0 || mHeldBytes + job.bytes <= mMaxHeldBytes);
    };
    if (!room()) {
        if (!mSaidBehind)
            std::fprintf(stderr, "[export] the writer%s behind: the run waits for %s (this is said once)\n",
                         mWriters.size() > 1 ? "s are" : " is", mWriters.size() > 1 ? "them" : "it");
        mSaidBehind = true;
        const Clock::time_point t0 = Clock::now();
        mChanged.wait(lock, [&] { return room() || !mFailure.empty(); });
        mWaitSeconds += secondsSince(t0);
        rethrowFailure();
    }
    // Now that it has room, a frame without its fields starts their copies (into a free slot:
    // the slots are one per frame the queue may hold).
    if (job.copies) job.slot = mCopies->start(session.solver(), job.names, job.count);
    mHeldBytes += job.bytes;
    mQueue.push_back(std::move(job));
    mChanged.notify_all();
}

void FrameExport::finish()
{
    std::unique_lock<std::mutex> lock(mMutex);
    const Clock::time_point t0 = Clock::now();
    mChanged.wait(lock, [&] { return (mQueue.empty() && mInFlight == 0) || !mFailure.empty(); });
    mWaitSeconds += secondsSince(t0);
    rethrowFailure();
}

void FrameExport::rethrowFailure()
{
    if (!mFailure.empty()) throw std::runtime_error(mFailure);
}

void FrameExport::writerLoop()
{
    std::unique_lock<std::mutex> lock(mMutex);
    for (;;) {
        mChanged.wait(lock, [&] { return mStop || !mQueue.empty() || !mFailure.empty(); });
        if (mQueue.empty() || !mFailure.empty()) return; // stopped; after a failure nothing more is written
        Job job = std::move(mQueue.front());
        mQueue.pop_front();
        ++mInFlight;
        lock.unlock();
        const Clock::time_point t0 = Clock::now();
        std::string failure;
        try {
            placeCopies(job);
            if (mVdb) {
                writeVdbFrame(job.path, job.frame, mStorage);
            } else {
                exportFields(job.path, job.frame.domain, job.frame.scalars);
            }
        } catch (const std::exception& e) {
            failure = e.what();
        }
        const size_t bytes = job.bytes;
        job = Job{}; // the frame's memory goes back before the run is told there is room
        lock.lock();
        mWriteSeconds += secondsSince(t0);
        --mInFlight;
        mHeldBytes -= bytes;
        if (failure.empty()) ++mWritten;
        if (mFailure.empty()) mFailure = failure; // the first failure is the one reported
        mChanged.notify_all();
        if (!mFailure.empty()) return;
    }
}

} // namespace vbm::app
