// SPDX-License-Identifier: Apache-2.0
// The chunked file sink (app/ChunkedFileSink.h): the file holds exactly the bytes written, in
// order, whatever the chunk size, the threads and the sizes of the writes; a write that fails
// (a file size limit here, as a full disk would) is reported by finish(), and a path that cannot
// be opened by openError().
#include "ChunkedFileSink.h"
#include "TestFolder.h"

#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <iterator>
#include <ostream>
#include <random>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using vbm::app::ChunkedFileSink;

namespace {

std::string readAll(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Writes `total` pseudo-random bytes through an ostream on the sink, in writes of 1 byte to
/// three chunks (single characters among them), and returns what was written.
std::string writeThrough(std::ostream& os, size_t total, size_t chunk, unsigned seed)
{
    std::mt19937 rng(seed);
    std::string expected;
    while (expected.size() < total) {
        const size_t n = std::min<size_t>(total - expected.size(), 1 + rng() % (3 * chunk));
        std::string piece(n, '\0');
        for (char& c : piece) c = char(rng());
        if (n == 1)
            os.put(piece[0]);
        else
            os.write(piece.data(), std::streamsize(n));
        expected += piece;
    }
    return expected;
}

} // namespace

TEST(ChunkedFileSink, TheFileHoldsExactlyTheBytesWrittenForAnyChunkSizeAndThreadCount)
{
    const std::filesystem::path dir = freshFolder("sink", "bytes");
    unsigned seed = 1;
    for (size_t chunk : {size_t(1), size_t(7), size_t(4096), size_t(1) << 16})
        for (unsigned threads : {1u, 2u, 3u})
            for (size_t total : {size_t(0), size_t(1), chunk, 5 * chunk + 3, chunk < 4096 ? 300 * chunk + 11 : 200000}) {
                const std::filesystem::path file = dir / "out.bin";
                std::string expected;
                {
                    ChunkedFileSink sink(file.string(), threads, chunk);
                    ASSERT_EQ(sink.openError(), "");
                    std::ostream os(&sink);
                    expected = writeThrough(os, total, chunk, seed++);
                    ASSERT_TRUE(os.good());
                    EXPECT_EQ(sink.bytesWritten(), expected.size());
                    ASSERT_EQ(sink.finish(), "") << "chunk " << chunk << ", threads " << threads;
                }
                const std::string got = readAll(file);
                ASSERT_EQ(got.size(), expected.size()) << "chunk " << chunk << ", threads " << threads;
                ASSERT_TRUE(got == expected) << "chunk " << chunk << ", threads " << threads << ", " << total << " B";
            }
}

TEST(ChunkedFileSink, AnExistingFileIsReplacedNotAppendedTo)
{
    const std::filesystem::path file = freshFolder("sink", "replace") / "out.bin";
    std::ofstream(file) << std::string(100000, 'x');
    ChunkedFileSink sink(file.string(), 2, 1000);
    std::ostream os(&sink);
    os << "short";
    ASSERT_EQ(sink.finish(), "");
    EXPECT_EQ(readAll(file), "short");
}

TEST(ChunkedFileSink, APathThatCannotBeOpenedSaysWhyAndTheStreamGoesBad)
{
    const std::filesystem::path file = freshFolder("sink", "noopen") / "no-such-folder" / "out.bin";
    ChunkedFileSink sink(file.string(), 2, 64);
    EXPECT_NE(sink.openError().find("No such file"), std::string::npos) << sink.openError();
    std::ostream os(&sink);
    os << std::string(1000, 'y');
    EXPECT_FALSE(os.good());
    EXPECT_NE(sink.finish(), "");
}

// A file size limit makes pwrite fail past it (with SIGXFSZ ignored), as a full disk would. It is
// set in a child process, since it binds the whole process; the child reports through its exit code.
TEST(ChunkedFileSink, AFailedWriteIsReportedByFinishAndLaterChunksAreDropped)
{
    const std::filesystem::path file = freshFolder("sink", "limit") / "out.bin";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{100000, 100000};
        if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(10);
        ChunkedFileSink sink(file.string(), 3, 4096);
        std::ostream os(&sink);
        for (int i = 0; i < 100 && os.good(); ++i) os << std::string(10000, 'z');
        const std::string why = sink.finish();
        if (why.empty()) ::_exit(11);
        if (why.find("too large") == std::string::npos) ::_exit(12);
        if (std::filesystem::file_size(file) > 100000) ::_exit(13);
        ::_exit(0);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "10: setrlimit failed, 11: no error reported, 12: another error, 13: too long";
}
