// SPDX-License-Identifier: Apache-2.0
// The command-line helper the three executables (vbm-fluid, vbm-check, vbm-bench) share:
// reading flags and their values with one wording for every mistake, and one mapping of
// failures to exit codes (2 for bad usage or input, 1 for a run that failed).
#pragma once

#include "SolverTypes.h"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace vbm::cli {

/// A bad flag or value: one line, exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Walks argv flag by flag. The value readers take the argument after the current flag and
/// name that flag in their errors.
class ArgReader {
public:
    ArgReader(int argc, char** argv) : mArgs(argv + (argc > 0 ? 1 : 0), argv + argc) {}
    /// A reader of one value cut out of a larger argument ("640" of "640x480"), at `flag` with
    /// `value` next, so the part's mistakes are worded as the flag's own.
    ArgReader(std::string flag, std::string value) : mArgs{std::move(value)}, mFlag(std::move(flag)) {}

    /// The next argument (a flag, or a positional one), or nothing at the end.
    std::optional<std::string> next();
    /// The argument next() returned last.
    const std::string& flag() const { return mFlag; }

    /// The current flag's value: the next argument.
    std::string value();
    /// The value as a whole number in [lo, hi].
    long integer(long lo, long hi);
    /// The value as a finite number.
    double real();
    /// The value as a comma-separated list, each item one of `allowed`, duplicates dropped.
    std::vector<int> list(const std::vector<int>& allowed);
    /// The value as one of `choices`.
    std::string choice(const std::vector<std::string>& choices);
    /// The value as a path ending in one of `suffixes` (".png", ...).
    std::string path(const std::vector<std::string>& suffixes);
    /// A file to write (ending in one of `suffixes`, or anything when empty), checked now, before
    /// any work: its folder exists and is writable, and it is not a folder.
    std::string outputPath(const std::vector<std::string>& suffixes);
    /// The value as a resolver name (NanoVDB13, computeBoxStencil, ...).
    Resolver resolver();
    /// The value as a backend: cuda or cpu.
    Backend backend();
    /// The value as a block width among `widths` (128, 512, ...); returns its log2.
    int blockWidth(const std::vector<int>& widths);

private:
    std::vector<std::string> mArgs;
    size_t mNext = 0;
    std::string mFlag;
};

/// "a, b or c": how the errors list choices.
std::string listOf(const std::vector<std::string>& items);

/// Runs body and turns what escapes it into an exit code and one line on stderr, "PROGRAM: ...":
/// 2 for UsageError (with a pointer to --help), SceneError, InputError and std::invalid_argument;
/// 1 for running out of host memory and any other failure. No exception leaves it.
int guardedMain(const char* program, const std::function<int()>& body);

} // namespace vbm::cli
