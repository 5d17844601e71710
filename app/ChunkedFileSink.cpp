// SPDX-License-Identifier: Apache-2.0
// Chunks of a file written at their offsets by a few threads (see ChunkedFileSink.h).
#include "ChunkedFileSink.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace vbm::app {

ChunkedFileSink::ChunkedFileSink(const std::string& path, unsigned threads, size_t chunkBytes)
    : mChunkBytes(std::max<size_t>(chunkBytes, 1)), mThreadCount(std::max(threads, 1u))
{
    mFd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (mFd < 0) mOpenError = mError = std::strerror(errno);
}

ChunkedFileSink::~ChunkedFileSink() { finish(); }

bool ChunkedFileSink::failed()
{
    std::lock_guard<std::mutex> lock(mMutex);
    return !mError.empty();
}

// At most two chunks per thread wait or are written, plus the one being filled: the memory
// stays bounded however far the writing falls behind.
void ChunkedFileSink::takeBuffer()
{
    std::unique_lock<std::mutex> lock(mMutex);
    mChanged.wait(lock, [&] { return mBuffersOut < 2 * mThreadCount + 1; });
    ++mBuffersOut;
    if (mSpare.empty()) {
        mCurrent.resize(mChunkBytes);
    } else {
        mCurrent = std::move(mSpare.back());
        mSpare.pop_back();
    }
    setp(mCurrent.data(), mCurrent.data() + mCurrent.size());
}

bool ChunkedFileSink::submitCurrent()
{
    const size_t size = size_t(pptr() - pbase());
    if (!pbase()) return true;
    Chunk chunk{std::move(mCurrent), size, mOffset};
    mOffset += (long long)size;
    mCurrent.clear();
    setp(nullptr, nullptr);
    std::lock_guard<std::mutex> lock(mMutex);
    mQueue.push_back(std::move(chunk));
    if (mThreads.empty())
        for (unsigned t = 0; t < mThreadCount; ++t)
            mThreads.emplace_back([this] { writerLoop(); });
    mChanged.notify_all();
    return mError.empty();
}

void ChunkedFileSink::writeChunk(Chunk& chunk)
{
    size_t done = 0;
    while (done < chunk.size) {
        {
            std::lock_guard<std::mutex> lock(mMutex);
            if (!mError.empty()) return; // a chunk after a failure is dropped
        }
        const ssize_t n = ::pwrite(mFd, chunk.bytes.data() + done, chunk.size - done, off_t(chunk.offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const std::string why = n < 0 ? std::strerror(errno) : "the file system took no bytes";
            std::lock_guard<std::mutex> lock(mMutex);
            if (mError.empty()) mError = why;
            return;
        }
        done += size_t(n);
    }
}

void ChunkedFileSink::writerLoop()
{
    for (;;) {
        Chunk chunk;
        {
            std::unique_lock<std::mutex> lock(mMutex);
            mChanged.wait(lock, [&] { return mClosing || !mQueue.empty(); });
            if (mQueue.empty()) return;
            chunk = std::move(mQueue.front());
            mQueue.pop_front();
        }
        writeChunk(chunk);
        std::lock_guard<std::mutex> lock(mMutex);
        mSpare.push_back(std::move(chunk.bytes));
        --mBuffersOut;
        mChanged.notify_all();
    }
}

ChunkedFileSink::int_type ChunkedFileSink::overflow(int_type c)
{
    if (mFd < 0 || !submitCurrent() || failed()) return traits_type::eof();
    takeBuffer();
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    return c;
}

std::streamsize ChunkedFileSink::xsputn(const char* s, std::streamsize n)
{
    std::streamsize copied = 0;
    while (copied < n) {
        if (pptr() == epptr() && traits_type::eq_int_type(overflow(traits_type::eof()), traits_type::eof()))
            return copied;
        const std::streamsize room = std::min<std::streamsize>(epptr() - pptr(), n - copied);
        std::memcpy(pptr(), s + copied, size_t(room));
        pbump(int(room));
        copied += room;
    }
    return copied;
}

std::string ChunkedFileSink::finish()
{
    if (mFinished) return mError;
    mFinished = true;
    if (mFd >= 0 && pbase()) {
        std::unique_lock<std::mutex> lock(mMutex);
        const bool noThreads = mThreads.empty();
        lock.unlock();
        if (noThreads) { // a file of one chunk: written here, no thread started
            Chunk last{std::move(mCurrent), size_t(pptr() - pbase()), mOffset};
            writeChunk(last);
            setp(nullptr, nullptr);
        } else {
            submitCurrent();
        }
    }
    {
        std::lock_guard<std::mutex> lock(mMutex);
        mClosing = true;
        mChanged.notify_all();
    }
    for (std::thread& t : mThreads) t.join();
    mThreads.clear();
    if (mFd >= 0 && ::close(mFd) != 0 && mError.empty()) mError = std::strerror(errno);
    mFd = -1;
    return mError;
}

} // namespace vbm::app
