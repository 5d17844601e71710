// SPDX-License-Identifier: Apache-2.0
// The command-line helper the three executables (vbm-fluid, vbm-check, vbm-bench) share:
// reading flags and their values with one wording for every mistake, one grammar, the old
// spellings the programs still read, and one mapping of failures to exit codes (2 for bad
// usage or input, 1 for a run that failed).
//
// The grammar, the same in the three programs:
// - One word per thing: `--backend cpu|cuda` (where to run), `--block-width W` (the VBM's
//   block width), `--json FILE` (machine-readable output), `--steps N` (solver steps to run;
//   `--frames N` is its documented alias: in vbm-fluid a frame is one step).
// - A flag takes a comma list where the program runs several (vbm-bench's and vbm-check's
//   `--block-width 128,512`, vbm-check's `--backend cpu,cuda`) and one value where it runs one
//   (vbm-fluid's `--block-width 512`). A list flag given twice adds the second list to the
//   first; a one-value flag given twice keeps the last.
// - On/off settings: every yes/no setting is `--name on|off`, and the bare `--name` means on
//   (`--fields-hash` is `--fields-hash on`, `--headless` is `--headless on`). A setting with
//   a third state takes `auto|on|off` (`--tap-table`, `--interop`), the bare form again
//   meaning on. No `--no-name` forms: off is `--name off`. A bare on/off flag takes the next
//   argument as its value unless that starts with '-', so before a positional argument write
//   the value out.
// - Old spellings (OldSpellings in CommandLine.cpp, the one table) are still read, as the new
//   ones, for one release: each prints one note on stderr once the command line has been read
//   ("vbm-bench: note: --widths is now --block-width (the old spelling goes in the next
//   release)"), however often it is given; a command line with a mistake prints only the
//   mistake.
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
    /// Reads `program`'s arguments (vbm-fluid, vbm-bench or vbm-check): next() returns an old
    /// spelling of that program as its new one, and keeps its note for printNotes().
    ArgReader(std::string program, int argc, char** argv);
    /// A reader of one value cut out of a larger argument ("640" of "640x480"), at `flag` with
    /// `value` next, so the part's mistakes are worded as the flag's own.
    ArgReader(std::string flag, std::string value) : mArgs{std::move(value)}, mFlag(std::move(flag)) {}

    /// The next argument (a flag, or a positional one), or nothing at the end. An old spelling
    /// comes back as its new flag (any value it implies, as `--cpu`'s cpu, is read next).
    std::optional<std::string> next();
    /// The current flag as it was typed (an old spelling stays old here), for messages.
    const std::string& flag() const { return mFlag; }

    /// The current flag's value: the next argument.
    std::string value();
    /// The value as a whole number in [lo, hi].
    long integer(long lo, long hi);
    /// The value as a finite number.
    double real();
    /// The value as a comma-separated list, each item one of `allowed`, duplicates dropped.
    std::vector<int> list(const std::vector<int>& allowed);
    /// The value as a comma-separated list of words of `allowed`, duplicates dropped.
    std::vector<std::string> words(const std::vector<std::string>& allowed);
    /// The value as one of `choices`.
    std::string choice(const std::vector<std::string>& choices);
    /// An on/off setting: true for on or the bare flag, false for off (see the grammar above).
    bool onOff();
    /// A setting of `choices` (which hold "on"): the value, or "on" for the bare flag.
    std::string switchChoice(const std::vector<std::string>& choices);
    /// The value as a path ending in one of `suffixes` (".png", ...).
    std::string path(const std::vector<std::string>& suffixes);
    /// A file to write (ending in one of `suffixes`, or anything when empty), checked now, before
    /// any work: its folder exists and is writable, and it is not a folder.
    std::string outputPath(const std::vector<std::string>& suffixes);
    /// The value as a resolver name (NanoVDB13, computeBoxStencil, ...).
    Resolver resolver();
    /// The value as a backend: cpu or cuda.
    Backend backend();
    /// The value as a comma list of backends (cpu, cuda), in the order given.
    std::vector<Backend> backends();
    /// The value as a block width among `widths` (128, 512, ...); returns its log2.
    int blockWidth(const std::vector<int>& widths);
    /// The value as a comma list of block widths among `widths`; returns their log2s.
    std::vector<int> blockWidths(const std::vector<int>& widths);

    /// The notes of the old spellings read so far, one per spelling, in the order first met:
    /// "PROGRAM: note: OLD is now NEW (the old spelling goes in the next release)".
    const std::vector<std::string>& notes() const { return mNotes; }
    /// Prints notes() on stderr, a line each. Call it once the whole command line has been read
    /// without a mistake.
    void printNotes() const;

private:
    /// `mFlag` is the old spelling of a flag: its new words replace it (the flag is returned;
    /// the words after it are read next), with a note unless it is an alias.
    std::string respell();

    std::vector<std::string> mArgs;
    size_t mNext = 0;
    std::string mFlag;
    std::string mProgram;
    std::vector<std::string> mNotes;
    std::vector<std::string> mNoted; ///< the old spellings whose note is in mNotes
};

/// An old spelling a program still reads: the flag as it was and the words it is now. An alias
/// is a second word for a flag that stays, documented in the help, and prints no note.
struct OldSpelling {
    const char* programs; ///< the programs that read it, space-separated
    const char* old;      ///< "--widths"
    const char* now;      ///< "--block-width", or a flag with its value: "--backend cpu"
    bool alias = false;
};

/// The old spellings and aliases of `program`, in the table's order.
std::vector<OldSpelling> oldSpellingsOf(const std::string& program);

/// The one line of a program's --help that lists its deprecated spellings ("" if it has none):
/// "deprecated, read with a note until the next release: --widths (--block-width), ...".
std::string deprecatedLine(const std::string& program);

/// Appends the items of `items` not yet in `list` (a list flag given again adds to the first).
void appendNew(std::vector<int>& list, const std::vector<int>& items);

/// "a, b or c": how the errors list choices.
std::string listOf(const std::vector<std::string>& items);

/// Runs body and turns what escapes it into an exit code and one line on stderr, "PROGRAM: ...":
/// 2 for UsageError (with a pointer to --help), SceneError, InputError and std::invalid_argument;
/// 1 for running out of host memory and any other failure. No exception leaves it.
int guardedMain(const char* program, const std::function<int()>& body);

} // namespace vbm::cli
