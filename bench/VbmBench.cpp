// SPDX-License-Identifier: Apache-2.0
// vbm-bench: the resolver comparison on the GPU, side by side with NanoVDB 13.0.0's own VBM
// path, ReadAccessor-per-voxel kernels, the dense floor and the copy bandwidth, in one run,
// with every variant's output checked bytewise against the baseline's; or, with --solver,
// whole solver steps; or, with --cpu, the CPU comparison against OpenVDB (no GPU needed; the
// only mode of a build without CUDA). This file only orders the steps: options, grid files,
// the GPU, the run.
#include "BenchGridSources.h"
#include "BenchOptions.h"
#include "CommandLine.h"
#include "CpuBench.h"
#if defined(VBM_HAVE_CUDA)
#include "DeviceQueries.h"
#include "GridBench.h"
#include "SolverBench.h"
#endif

#include <cstdio>
#include <string>

namespace {

constexpr const char* Program = "vbm-bench";

int run(int argc, char** argv)
{
    const bench::Options opt = bench::parseOptions(argc, argv);
    if (opt.help) {
        std::fputs(bench::usageText(), stdout);
        return 0;
    }
    // Files first: an unreadable file is reported as such, GPU or not.
    auto fileGrids = bench::loadFileGrids(opt.grids);
    if (opt.cpu) return bench::runCpuBench(opt, fileGrids);
#if !defined(VBM_HAVE_CUDA)
    std::fprintf(stderr, "%s: this build has no CUDA backend (built without nvcc): only --backend cpu runs\n", Program);
    return 2;
#else
    if (const std::string why = vbm::cudaUnavailableReason(); !why.empty()) {
        // Exit code 2: the machine, not the run, is what is missing.
        std::fprintf(stderr, "%s: needs a CUDA GPU, and this machine has %s\n", Program, why.c_str());
        return 2;
    }
    if (!opt.solverScene.empty()) return bench::runSolverBench(opt);
    return bench::runGridBench(opt, fileGrids);
#endif
}

} // namespace

int main(int argc, char** argv)
{
    return vbm::cli::guardedMain(Program, [&] { return run(argc, argv); });
}
