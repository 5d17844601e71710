// SPDX-License-Identifier: Apache-2.0
// Progress of a long set-up on stderr: what is being built and how far along, at most one line
// every few seconds (VBM_PROGRESS_SECONDS, default 5; 0 prints every report, for the tests), so a
// billion-voxel scene never sits silent and a small one prints nothing. A watcher thread repeats
// the current stage while a step without reports of its own (the NanoVDB conversion, the
// solver's construction) runs.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace vbm::app {

class SetupProgress {
public:
    SetupProgress();
    ~SetupProgress();
    SetupProgress(const SetupProgress&) = delete;
    SetupProgress& operator=(const SetupProgress&) = delete;

    /// A report: `fraction` of `what` done (below 0: a stage without a fraction).
    void report(const char* what, double fraction);
    /// Seconds since this set-up began.
    double seconds() const;

private:
    using Clock = std::chrono::steady_clock;
    void printLocked(Clock::time_point now);
    void watch();

    Clock::time_point mStart, mLast;
    double mInterval = 5;
    std::string mWhat;
    double mFraction = -1;
    bool mDone = false;
    std::mutex mMutex;
    std::condition_variable mWake;
    std::thread mWatcher;
};

/// The process's peak resident host memory so far, in bytes (0 where it cannot be read).
uint64_t peakHostBytes();

} // namespace vbm::app
