// SPDX-License-Identifier: Apache-2.0
// vbm-bench's command line (see BenchOptions.h): parsed with the shared ArgReader, so every
// mistake is worded as in vbm-fluid and vbm-check.
#include "BenchOptions.h"

#include "CommandLine.h"

#include <string>

namespace bench {

namespace {

const char* const Usage = R"(usage: vbm-bench [options]

Times the VoxelBlockManager stencil resolvers on the GPU against NanoVDB 13.0.0's own VBM
path and the usual alternatives, in one run, with one consumer: resolve the taps, sum C
interleaved float sidecar channels over them (27 taps for box variants, 7 for cross), write
C outputs per voxel. Variants run in interleaved order (A B C ... A B C ...), timed with CUDA
events; every variant's output is compared bytewise with the baseline's (box with
computeBoxStencil, cross with computeCrossStencil) and any mismatch makes the run exit 1.

grids (--grid, repeatable; default: small thin thick):
  small            sphere shell, 1.29M active voxels, 9,140 leaves (141/512 per leaf)
  thin             sphere shell, 30.2M active voxels, 213K leaves (same occupancy)
  thick            sphere shell, 30.0M active voxels, 67K leaves (87% full)
  FILE.nvdb        every float, double or index grid in the file

options:
  --grid NAME|FILE     a grid (see above)
  --backend cpu|cuda   cuda (default): the comparison above, on the GPU; cpu: the same
                       consumer on the CPU, all cores, without a GPU: our six resolvers
                       through the solver's CPU executor (and the shared form, the GPU's
                       code slot by slot, of the two defaults) beside OpenVDB's peers on
                       the same grid, values and cores: openvdb-accessor-cross,
                       openvdb-accessor-box (hand-written sums through thread-local
                       ValueAccessors over a LeafManager), openvdb-tools-laplacian,
                       openvdb-filter-mean; every output checked against a ReadAccessor
                       oracle (the tools within a stated tolerance); default grids small
                       thin, 11 rounds (at least 5) after 2 warm-up rounds
  --block-width LIST   block widths of the resolver table, of 128,512 (default 128,512)
  --channels LIST      sidecar channels C, of 1,2,4,8,16 (default 1,8)
  --rounds N           timed rounds, at least 50 (default 50)
  --warmup N           warm-up rounds (default 15)
  --decode on|off      the decode-alone table, widths 64/128/256/512 (default on)
  --json FILE          write every number as JSON
  --solver SCENE       instead: time full solver steps of a scene (built-in name or
                       .scene file) on the GPU, the default resolvers against
                       computeBoxStencil everywhere (and the defaults at block width
                       512), stepping them in turns from the same state and checking
                       their fields stay bitwise identical
  --steps N            solver steps per configuration (default 300, at least 5; the
                       first 3 are warm-up; past 100, medians by window of steps too:
                       a plume's step grows as it speeds up, so the default reaches
                       its steady state); adaptive scenes: 40 by default; --frames N is
                       the same (vbm-fluid's word)
  --grow-steps N       adaptive scenes (`adapt`, `domain open`): steps before the
                       comparison (default 60: smoke-open-4m holds 5M voxels then);
                       then, in windows of the scene's K steps, each starting with a
                       rebuild, its state is frozen into a fixed-topology solver and
                       the two step in turns, --steps each
  -h, --help           this text

Lists are comma-separated; a list flag given twice adds to the first. On/off settings take
on or off, and the bare flag means on (--decode is --decode on).

exit codes: 0 done and all outputs identical, 1 an output differed or a run failed,
2 bad usage, unreadable grid file, or no CUDA GPU (without --backend cpu)
)";

} // namespace

const char* usageText()
{
    static const std::string text = Usage + vbm::cli::deprecatedLine("vbm-bench");
    return text.c_str();
}

Options parseOptions(int argc, char** argv)
{
    Options o;
    bool roundsGiven = false, warmupGiven = false, widthsGiven = false;
    vbm::cli::ArgReader args("vbm-bench", argc, argv);
    // The upper bound only keeps a typo from asking for a day of rounds.
    constexpr long MaxCount = 100000;
    while (const auto flag = args.next()) {
        const std::string& a = *flag;
        if (a == "-h" || a == "--help")
            o.help = true;
        else if (a == "--grid")
            o.grids.push_back(args.value());
        else if (a == "--block-width") {
            if (!widthsGiven) o.widths.clear();
            vbm::cli::appendNew(o.widths, args.blockWidths({128, 512}));
            widthsGiven = true;
        } else if (a == "--channels")
            o.channels = args.list({1, 2, 4, 8, 16});
        else if (a == "--rounds") {
            o.rounds = int(args.integer(5, MaxCount));
            roundsGiven = true;
        } else if (a == "--warmup") {
            o.warmup = int(args.integer(0, MaxCount));
            warmupGiven = true;
        } else if (a == "--backend")
            o.cpu = args.backend() == vbm::Backend::Cpu;
        else if (a == "--decode")
            o.decode = args.onOff();
        else if (a == "--json")
            o.json = args.outputPath({});
        else if (a == "--solver")
            o.solverScene = args.value();
        else if (a == "--steps")
            o.steps = int(args.integer(5, MaxCount));
        else if (a == "--grow-steps")
            o.growSteps = int(args.integer(0, MaxCount));
        else
            throw vbm::cli::UsageError("unknown option '" + a + "'");
    }
    if (o.cpu && !o.solverScene.empty())
        throw vbm::cli::UsageError("--backend cpu and --solver do not go together (--solver runs on the GPU)");
    // The GPU's rounds take microseconds: at least 50; the CPU's take up to a second each.
    if (!o.cpu && o.rounds < 50)
        throw vbm::cli::UsageError("--rounds must be at least 50 (at least 5 with --backend cpu), got " +
                                   std::to_string(o.rounds));
    if (o.cpu && !roundsGiven) o.rounds = 11;
    if (o.cpu && !warmupGiven) o.warmup = 2;
    if (o.grids.empty())
        o.grids =
            o.cpu ? std::vector<std::string>{"small", "thin"} : std::vector<std::string>{"small", "thin", "thick"};
    args.printNotes();
    return o;
}

} // namespace bench
