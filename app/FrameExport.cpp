// Frame sequences on a background writer (see FrameExport.h).
#include "FrameExport.h"

#include "CommandLine.h"
#include "FieldExport.h"
#include "MemoryPlan.h"
#include "Session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
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
    if (endsWith(pattern, ".vdb")) {
        if (const std::string why = vdbExportWhyNot(); !why.empty()) throw cli::UsageError("--export-every: " + why);
    }
    if (frames / every > 1 && pattern.find("%04d") == std::string::npos)
        throw cli::UsageError("--export-every: '" + pattern + "' has no %04d, so each of the " +
                              std::to_string(frames / every) + " files would replace the last: put %04d in the name");
}

FrameExport::FrameExport(std::string pattern, int every, int writers)
    : mPattern(std::move(pattern)), mEvery(every), mVdb(endsWith(mPattern, ".vdb"))
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

VdbFrame currentFrame(const Session& session, bool vdb, int frame)
{
    const Solver& solver = session.solver();
    VdbFrame f;
    f.domain = solver.grid();
    const bool heat = solver.kind() == SimulationKind::Heat;
    for (const std::string& name : solver.fieldNames()) {
        const bool velocity = name == "u" || name == "v" || name == "w";
        if (vdb && velocity) {
            (name == "u" ? f.u : name == "v" ? f.v : f.w) = solver.field(name);
        } else {
            f.scalars.emplace_back(vdb ? vdbGridName(name, heat) : name, solver.field(name));
        }
    }
    f.voxelSize = solver.params().voxelSize;
    f.time = double(session.steps()) * solver.params().dt;
    f.frame = frame;
    return f;
}

void FrameExport::afterFrame(const Session& session, int frame)
{
    if ((frame + 1) % mEvery != 0) return;
    Job job{framePath(mPattern, frame), currentFrame(session, mVdb, frame), 0};
    job.bytes = heldBytes(job.frame);
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
            if (mVdb) {
                writeVdbFrame(job.path, job.frame);
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
