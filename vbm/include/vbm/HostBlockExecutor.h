// SPDX-License-Identifier: Apache-2.0
// Runs a per-block body over all VBM blocks on the CPU, on all cores: the host
// counterpart of launching one CUDA thread block per VBM block.
#pragma once

#include "vbm/HostThreadPool.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace vbm {

/// Number of worker threads the host executor uses (all hardware threads, at least 1).
inline unsigned hostThreadCount() { return std::max(1u, std::thread::hardware_concurrency()); }

/// Calls body(b0, b1) for consecutive runs of blocks covering [blockBegin, blockEnd), the runs
/// spread over threadCount threads (0: all cores; the kept threads of HostThreadPool::shared()
/// where free) and dynamically scheduled. A run is handled
/// by one thread, so its body may stage tables and reuse them across its blocks. An exception
/// thrown by a body is rethrown here after all threads have stopped.
template <typename Body>
void forEachBlockRangeOnHost(uint64_t blockBegin, uint64_t blockEnd, Body&& body, unsigned threadCount = 0)
{
    if (blockEnd <= blockBegin) return;
    const uint64_t count = blockEnd - blockBegin;
    const unsigned threads = unsigned(std::min<uint64_t>(threadCount ? threadCount : hostThreadCount(), count));
    const uint64_t chunk = std::max<uint64_t>(1, std::min<uint64_t>(64, count / (threads * 8u)));
    std::atomic<uint64_t> next{blockBegin};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto work = [&] {
        try {
            for (;;) {
                const uint64_t b0 = next.fetch_add(chunk);
                if (b0 >= blockEnd) return;
                body(b0, std::min(blockEnd, b0 + chunk));
            }
        } catch (...) {
            std::lock_guard lock(errorMutex);
            if (!error) error = std::current_exception();
            next.store(blockEnd);
        }
    };
    if (threads == 1) {
        work();
    } else if (!HostThreadPool::shared().runOn(threads - 1, work)) {
        // the kept threads are taken (another caller, or a pass inside a pass): threads of its own
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back(work);
        for (auto& t : pool)
            t.join();
    }
    if (error) std::rethrow_exception(error);
}

/// Calls body(block) for every block in [blockBegin, blockEnd), spread over the cores as
/// forEachBlockRangeOnHost does. The body of one block runs on one thread, so it may stage a
/// per-block table and then loop over slots.
template <typename Body>
void forEachBlockOnHost(uint64_t blockBegin, uint64_t blockEnd, Body&& body, unsigned threadCount = 0)
{
    forEachBlockRangeOnHost(
        blockBegin, blockEnd,
        [&](uint64_t b0, uint64_t b1) {
            for (uint64_t b = b0; b < b1; ++b)
                body(b);
        },
        threadCount);
}

} // namespace vbm
