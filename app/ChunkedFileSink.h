// SPDX-License-Identifier: Apache-2.0
// A stream buffer that writes a file in chunks, each chunk at its own offset, by a few threads
// beside the one that fills it. A serial writer (OpenVDB's stream) then only copies bytes into
// memory; the kernel's copies into the file, a large share of a big frame's time, run in
// parallel. The bytes on disk are exactly those written, in order.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

namespace vbm::app {

class ChunkedFileSink : public std::streambuf {
public:
    /// Creates (or truncates) path. threads: how many write chunks at once (at least 1); a file
    /// that fits in one chunk is written by finish() alone, with no thread started.
    ChunkedFileSink(const std::string& path, unsigned threads, size_t chunkBytes = size_t(8) << 20);
    ChunkedFileSink(const ChunkedFileSink&) = delete;
    ChunkedFileSink& operator=(const ChunkedFileSink&) = delete;
    /// Finishes if finish() was not called; its error, if any, is then lost.
    ~ChunkedFileSink() override;

    /// Empty when the file was opened, else why not (strerror of open).
    const std::string& openError() const { return mOpenError; }
    /// Writes what is left, waits for every chunk and closes the file. Empty when every byte
    /// reached the file, else the first failure (for example "File too large" or "No space left
    /// on device"). Once a write has failed, later chunks are dropped and the stream goes bad.
    std::string finish();
    /// Bytes handed to the sink so far.
    size_t bytesWritten() const { return size_t(mOffset) + size_t(pptr() - pbase()); }

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;

private:
    struct Chunk {
        std::vector<char> bytes;
        size_t size = 0;
        long long offset = 0;
    };
    bool failed();
    bool submitCurrent();
    void takeBuffer();
    void writeChunk(Chunk& chunk);
    void writerLoop();

    int mFd = -1;
    std::string mOpenError;
    size_t mChunkBytes;
    unsigned mThreadCount;
    long long mOffset = 0; // of the chunk being filled
    std::vector<char> mCurrent;

    std::mutex mMutex;
    std::condition_variable mChanged;
    std::deque<Chunk> mQueue;
    std::vector<std::vector<char>> mSpare; // written chunks' buffers, reused (no fresh pages)
    unsigned mBuffersOut = 0;              // buffers filled or queued or being written
    bool mClosing = false;
    bool mFinished = false;
    std::string mError;
    std::vector<std::thread> mThreads;
};

} // namespace vbm::app
