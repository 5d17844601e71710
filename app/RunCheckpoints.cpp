// SPDX-License-Identifier: Apache-2.0
// The headless run's checkpoints (see RunCheckpoints.h).
#include "RunCheckpoints.h"

#include "Session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <utility>
#include <vector>

namespace vbm::app {

namespace {

constexpr const char* Prefix = "checkpoint-";
constexpr const char* Suffix = ".vbmck";

/// The frame count of one of our checkpoint file names, or -1 for any other name.
long long frameOfName(const std::string& name)
{
    const std::string prefix = Prefix, suffix = Suffix;
    if (name.size() != prefix.size() + 8 + suffix.size() || name.rfind(prefix, 0) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        return -1;
    long long frame = 0;
    for (size_t i = prefix.size(); i < prefix.size() + 8; ++i) {
        if (name[i] < '0' || name[i] > '9') return -1;
        frame = frame * 10 + (name[i] - '0');
    }
    return frame;
}

} // namespace

std::string checkpointPath(const std::string& dir, uint64_t framesDone)
{
    char name[48];
    std::snprintf(name, sizeof name, "%s%08llu%s", Prefix, (unsigned long long)framesDone, Suffix);
    return (std::filesystem::path(dir) / name).string();
}

RunCheckpoints::RunCheckpoints(std::string dir, int every, CheckpointInfo base)
    : mDir(std::move(dir)), mEvery(every), mBase(std::move(base))
{
}

void RunCheckpoints::afterFrame(const Session& session, uint64_t framesDone)
{
    if (framesDone % uint64_t(mEvery) == 0) write(session, framesDone);
}

void RunCheckpoints::finalCheckpoint(const Session& session, uint64_t framesDone)
{
    if (mWritten == 0 || mLastFrame != framesDone) write(session, framesDone);
}

void RunCheckpoints::write(const Session& session, uint64_t framesDone)
{
    const auto t0 = std::chrono::steady_clock::now();
    CheckpointInfo info = mBase;
    info.frame = framesDone;
    info.time = double(framesDone) * session.solver().params().dt;
    const std::string path = checkpointPath(mDir, framesDone);
    writeCheckpoint(path, session.solver(), info);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::error_code ec;
    const double bytes = double(std::filesystem::file_size(path, ec));
    std::fprintf(stderr, "[vbm-fluid] checkpoint %s (%.1f MB in %.2f s)\n", path.c_str(), bytes / 1e6, seconds);
    mLastFrame = framesDone, mLastPath = path, ++mWritten;
    prune(framesDone);
}

void RunCheckpoints::prune(uint64_t newest) const
{
    std::vector<std::pair<uint64_t, std::filesystem::path>> older;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(mDir, ec)) {
        const long long frame = frameOfName(entry.path().filename().string());
        if (frame >= 0 && uint64_t(frame) < newest) older.emplace_back(uint64_t(frame), entry.path());
    }
    std::sort(older.begin(), older.end());
    if (!older.empty()) older.pop_back(); // the one before the newest stays
    for (const auto& [frame, path] : older)
        std::filesystem::remove(path, ec);
}

} // namespace vbm::app
