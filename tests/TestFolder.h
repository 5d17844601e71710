// SPDX-License-Identifier: Apache-2.0
// The one temporary folder of a test process, removed when it exits (kept with VBM_KEEP_TEST_FILES).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <unistd.h>

/// This test process's folder for its files: the temporary folder's vbm-tests-PID, made on first
/// use and removed with everything in it when the process exits normally. With the environment
/// variable VBM_KEEP_TEST_FILES set (non-empty) it stays, and its path is printed once to stderr,
/// so that a failing test's files can be looked at.
inline const std::filesystem::path& testFolder()
{
    struct Folder {
        std::filesystem::path path =
            std::filesystem::temp_directory_path() / ("vbm-tests-" + std::to_string(::getpid()));
        pid_t owner = ::getpid(); ///< a forked child that exits leaves its parent's folder alone
        bool keep = [] {
            const char* v = std::getenv("VBM_KEEP_TEST_FILES");
            return v && *v;
        }();
        Folder()
        {
            std::filesystem::remove_all(path); // a folder of an earlier process with this pid
            std::filesystem::create_directories(path);
            if (keep) std::fprintf(stderr, "VBM_KEEP_TEST_FILES: this test's files stay in %s\n", path.c_str());
        }
        ~Folder()
        {
            std::error_code ec;
            if (!keep && ::getpid() == owner) std::filesystem::remove_all(path, ec);
        }
    };
    static const Folder folder;
    return folder.path;
}

/// An empty folder of its own for one test's files: `prefix`-`name` in testFolder().
inline std::filesystem::path freshFolder(const std::string& prefix, const std::string& name)
{
    const std::filesystem::path p = testFolder() / (prefix + "-" + name);
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
    return p;
}
