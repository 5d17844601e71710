// SPDX-License-Identifier: Apache-2.0
// The host executor's threads, started once and kept: a parallel pass then wakes sleeping
// threads instead of creating and joining new ones (about 100 us per pass on a 2-core virtual
// machine, where a small scene's step makes dozens of passes).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace vbm {

/// Runs one job at a time on the calling thread and up to workerCount() kept threads.
/// runOn returns false, without running anything, when it cannot take the job: another job is
/// running (a second caller, or a job's body that starts a pass of its own), or more threads
/// are asked for than it keeps. The caller then runs the job some other way.
class HostThreadPool {
public:
    explicit HostThreadPool(unsigned workers)
    {
        for (unsigned t = 0; t < workers; ++t)
            mThreads.emplace_back([this] { workerLoop(); });
    }
    ~HostThreadPool()
    {
        {
            std::lock_guard lock(mMutex);
            mStop = true;
        }
        mWake.notify_all();
        for (std::thread& t : mThreads)
            t.join();
    }
    HostThreadPool(const HostThreadPool&) = delete;
    HostThreadPool& operator=(const HostThreadPool&) = delete;

    unsigned workerCount() const { return unsigned(mThreads.size()); }

    /// work() on this thread and on `helpers` kept threads at once; returns when every call has
    /// returned. work must not throw. Helpers that have not woken by the time this thread's
    /// work() returns are not waited for: work is expected to share its items out dynamically,
    /// so the ones that started have done them all.
    template <typename Work>
    bool runOn(unsigned helpers, Work& work)
    {
        if (helpers > workerCount()) return false;
        std::unique_lock lock(mMutex);
        if (mBusy) return false;
        mBusy = true;
        mJob = [](void* w) { (*static_cast<Work*>(w))(); };
        mContext = &work;
        setOpenSlots(helpers);
        setRunning(0);
        lock.unlock();
        mWake.notify_all();
        work();
        lock.lock();
        setOpenSlots(0); // helpers still asleep stay out
        if (mRunning > 0) {
            lock.unlock();
            spinWhile([&] { return mRunningHint.load(std::memory_order_acquire) > 0; });
            lock.lock();
        }
        mDone.wait(lock, [&] { return mRunning == 0; });
        mBusy = false;
        return true;
    }

    /// The process's pool: one kept thread fewer than the cores (the caller is the last one).
    /// Never destroyed: threads asleep at exit end with the process.
    static HostThreadPool& shared()
    {
        static HostThreadPool* pool = new HostThreadPool(std::max(1u, std::thread::hardware_concurrency()) - 1);
        return *pool;
    }

private:
    /// Waits while busy() for up to SpinTime, yielding the core to any other thread: a pass's
    /// next pass usually comes within it, and a sleeping thread takes tens of microseconds to wake.
    template <typename Busy>
    static void spinWhile(Busy&& busy)
    {
        const auto until = std::chrono::steady_clock::now() + SpinTime;
        while (busy() && std::chrono::steady_clock::now() < until)
            std::this_thread::yield();
    }
    static constexpr std::chrono::microseconds SpinTime{200};

    void workerLoop()
    {
        std::unique_lock lock(mMutex);
        for (;;) {
            if (!mStop && mOpenSlots == 0) {
                lock.unlock();
                spinWhile([&] { return mOpenSlotsHint.load(std::memory_order_acquire) == 0; });
                lock.lock();
            }
            mWake.wait(lock, [&] { return mStop || mOpenSlots > 0; });
            if (mStop) return;
            setOpenSlots(mOpenSlots - 1);
            setRunning(mRunning + 1);
            void (*job)(void*) = mJob;
            void* context = mContext;
            lock.unlock();
            job(context);
            lock.lock();
            setRunning(mRunning - 1);
            if (mRunning == 0) mDone.notify_one();
        }
    }
    // the counts, changed under the mutex, and their copies read without it while spinning
    void setOpenSlots(unsigned v) { mOpenSlotsHint.store(mOpenSlots = v, std::memory_order_release); }
    void setRunning(unsigned v) { mRunningHint.store(mRunning = v, std::memory_order_release); }

    std::mutex mMutex;
    std::condition_variable mWake, mDone;
    std::vector<std::thread> mThreads;
    void (*mJob)(void*) = nullptr;
    void* mContext = nullptr;
    unsigned mOpenSlots = 0, mRunning = 0;
    std::atomic<unsigned> mOpenSlotsHint{0}, mRunningHint{0};
    bool mBusy = false, mStop = false;
};

} // namespace vbm
