// SPDX-License-Identifier: Apache-2.0
// Set-up progress lines (see SetupProgress.h).
#include "SetupProgress.h"

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>

namespace vbm::app {

SetupProgress::SetupProgress() : mStart(Clock::now()), mLast(mStart)
{
    if (const char* text = std::getenv("VBM_PROGRESS_SECONDS")) {
        char* end = nullptr;
        const double s = std::strtod(text, &end);
        if (end != text && *end == '\0' && s >= 0) mInterval = s;
    }
    if (mInterval > 0) mWatcher = std::thread([this] { watch(); });
}

SetupProgress::~SetupProgress()
{
    {
        std::lock_guard<std::mutex> lock(mMutex);
        mDone = true;
    }
    mWake.notify_all();
    if (mWatcher.joinable()) mWatcher.join();
}

void SetupProgress::report(const char* what, double fraction)
{
    std::lock_guard<std::mutex> lock(mMutex);
    mWhat = what, mFraction = fraction;
    const Clock::time_point now = Clock::now();
    if (std::chrono::duration<double>(now - mLast).count() >= mInterval) printLocked(now);
}

void SetupProgress::printLocked(Clock::time_point now)
{
    mLast = now;
    const double s = std::chrono::duration<double>(now - mStart).count();
    if (mFraction >= 0)
        std::fprintf(stderr, "[setup] %s: %.0f%% (%.1f s)\n", mWhat.c_str(), 100 * mFraction, s);
    else
        std::fprintf(stderr, "[setup] %s (%.1f s)\n", mWhat.c_str(), s);
    std::fflush(stderr);
}

void SetupProgress::watch()
{
    std::unique_lock<std::mutex> lock(mMutex);
    while (!mDone) {
        mWake.wait_for(lock, std::chrono::milliseconds(250));
        const Clock::time_point now = Clock::now();
        if (!mDone && !mWhat.empty() && std::chrono::duration<double>(now - mLast).count() >= mInterval)
            printLocked(now);
    }
}

double SetupProgress::seconds() const { return std::chrono::duration<double>(Clock::now() - mStart).count(); }

uint64_t peakHostBytes()
{
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
    return uint64_t(usage.ru_maxrss) * 1024; // kilobytes on Linux
}

} // namespace vbm::app
