// SPDX-License-Identifier: Apache-2.0
// The host executor's kept threads (HostThreadPool.h) and forEachBlockRangeOnHost on them: every
// block once, from the kept threads when free and from threads of its own when not.
#include "vbm/HostBlockExecutor.h"
#include "vbm/HostThreadPool.h"

#include <gtest/gtest.h>

#include <mutex>

#include <atomic>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace vbm;

namespace {

/// Runs forEachBlockRangeOnHost over [0, n) and checks every block was visited exactly once.
void expectEveryBlockOnce(uint64_t n)
{
    std::vector<std::atomic<int>> seen(n);
    forEachBlockOnHost(0, n, [&](uint64_t b) { seen[b].fetch_add(1); });
    for (uint64_t b = 0; b < n; ++b)
        ASSERT_EQ(seen[b].load(), 1) << "block " << b << " of " << n;
}

} // namespace

TEST(HostThreadPool, EveryBlockRunsOnceOverManyPasses)
{
    for (int pass = 0; pass < 2000; ++pass)
        expectEveryBlockOnce(1 + uint64_t(pass % 97) * 13);
}

TEST(HostThreadPool, RunsTheJobOnTheCallerAndTheKeptThreads)
{
    HostThreadPool pool(3);
    std::mutex m;
    std::set<std::thread::id> threads;
    std::atomic<int> calls{0}, waiting{4};
    auto job = [&] {
        calls.fetch_add(1);
        {
            std::lock_guard lock(m);
            threads.insert(std::this_thread::get_id());
        }
        // every call waits for the others: the four run at once, on four threads
        waiting.fetch_sub(1);
        while (waiting.load() > 0)
            std::this_thread::yield();
    };
    ASSERT_TRUE(pool.runOn(3, job));
    EXPECT_EQ(calls.load(), 4);
    EXPECT_EQ(threads.size(), 4u);
    EXPECT_TRUE(threads.count(std::this_thread::get_id()));
}

TEST(HostThreadPool, RefusesMoreHelpersThanItKeepsAndAJobInsideAJob)
{
    HostThreadPool pool(1);
    int runs = 0;
    auto nothing = [&] { ++runs; };
    EXPECT_FALSE(pool.runOn(2, nothing));
    EXPECT_EQ(runs, 0);
    bool inner = true;
    auto outer = [&] { inner = pool.runOn(0, nothing); };
    ASSERT_TRUE(pool.runOn(0, outer));
    EXPECT_FALSE(inner);
    EXPECT_EQ(runs, 0);
}

TEST(HostThreadPool, PassesInsidePassesAndFromSeveralCallersAllFinish)
{
    // a pass whose blocks start passes of their own (they find the kept threads taken)
    std::atomic<uint64_t> total{0};
    forEachBlockOnHost(0, 8, [&](uint64_t) { forEachBlockOnHost(0, 100, [&](uint64_t b) { total.fetch_add(b); }); });
    EXPECT_EQ(total.load(), 8u * 4950u);
    // two callers at once, as a writer thread and the solver may be
    std::vector<std::thread> callers;
    for (int c = 0; c < 2; ++c)
        callers.emplace_back([] {
            for (int pass = 0; pass < 300; ++pass)
                expectEveryBlockOnce(257);
        });
    for (auto& t : callers)
        t.join();
}

TEST(HostThreadPool, AnExceptionInABodyReachesTheCallerAndThePoolGoesOn)
{
    EXPECT_THROW(forEachBlockOnHost(0, 1000,
                                    [](uint64_t b) {
                                        if (b == 500) throw std::runtime_error("block 500");
                                    }),
                 std::runtime_error);
    expectEveryBlockOnce(1000);
}
