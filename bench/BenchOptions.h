// SPDX-License-Identifier: Apache-2.0
// vbm-bench's command line: what a run measures (grids, block widths, channels, rounds, the
// decode table, JSON, or the solver comparison or the CPU comparison instead) and the usage text
// that documents it. The grammar is the three programs' (cli/CommandLine.h).
#pragma once

#include <string>
#include <vector>

namespace bench {

/// Everything vbm-bench's flags choose; the defaults are the documented ones.
struct Options {
    std::vector<std::string> grids;   ///< built-in names or .nvdb files, in the order given
    std::vector<int> widths = {7, 9}; ///< --block-width: log2 block widths of the resolver table
    std::vector<int> channels = {1, 8};
    int rounds = 50, warmup = 15; ///< --backend cpu: 11 and 2 unless given
    bool decode = true;           ///< --decode: the decode-alone table (widths 64..512)
    std::string json;             ///< write every number here as JSON, when set
    std::string solverScene;      ///< --solver: time full solver steps of this scene instead
    int steps = 0;                ///< --solver: steps per configuration (0: the mode's default)
    int growSteps = 60;           ///< --solver on an adaptive scene: steps before the comparison
    bool cpu = false;             ///< --backend cpu: the CPU comparison (ours against OpenVDB), no GPU needed
    bool help = false;

    bool operator==(const Options&) const = default;
};

/// Reads argv. Throws vbm::cli::UsageError, naming the flag, for anything it cannot take; a
/// bad flag after --help is still an error, so a mistyped command never silently runs. Once
/// read, prints the note of each old spelling used (--widths, --cpu, --no-decode) on stderr.
Options parseOptions(int argc, char** argv);

/// The --help text: every flag, the built-in grids and the exit codes.
const char* usageText();

} // namespace bench
