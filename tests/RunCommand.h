// SPDX-License-Identifier: Apache-2.0
// Runs one of our executables from a test and captures its exit code and output.
#pragma once

#include <cstdio>
#include <string>
#include <sys/wait.h>

struct CommandResult {
    int code;        ///< exit code (128 if it did not exit normally)
    std::string out; ///< stdout and stderr together
};

inline CommandResult runCommand(const std::string& command)
{
    FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    if (!pipe) return {128, "popen failed"};
    std::string out;
    char buf[4096];
    while (size_t n = std::fread(buf, 1, sizeof buf, pipe))
        out.append(buf, n);
    const int status = ::pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, out};
}

/// The last non-empty line of a program's output.
inline std::string lastLine(const std::string& out)
{
    std::string s = out;
    while (!s.empty() && s.back() == '\n')
        s.pop_back();
    const size_t nl = s.rfind('\n');
    return nl == std::string::npos ? s : s.substr(nl + 1);
}
