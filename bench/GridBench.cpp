// SPDX-License-Identifier: Apache-2.0
// vbm-bench's default run (see GridBench.h).
#include "GridBench.h"

#include "BenchReport.h"
#include "DecodeTable.h"
#include "DeviceQueries.h"
#include "JsonWriter.h"
#include "KernelResources.h"
#include "ResolverComparison.h"
#include "TapRuns.h"
#include "TimingRounds.h"

#include <algorithm>
#include <cstdio>

namespace bench {

namespace {

// The widths a grid's VBM is built at: the decode table's 64..512 (when on) and the resolver
// table's, the first of them the one the last value index is read from.
std::vector<int> vbmWidths(const Options& opt)
{
    std::vector<int> allWidths = opt.widths;
    if (opt.decode) allWidths = {6, 7, 8, 9};
    for (int w : opt.widths)
        if (std::find(allWidths.begin(), allWidths.end(), w) == allWidths.end()) allWidths.push_back(w);
    return allWidths;
}

// "## grid": voxels, leaves, occupancy and, per width of the resolver table, the blocks and
// those the cached forms resolve by tree walk; the same figures become the grid's JSON entry.
void printGridHeader(const Options& opt, const GridOnDevice& g, GridBenchResults& res)
{
    const BenchGrid& bg = g.source;
    std::printf("## %s\n\n%s: %llu active voxels, %u leaves, %.1f voxels per leaf (%.1f%%)", bg.name.c_str(),
                bg.origin.c_str(), (unsigned long long)g.voxels, g.leafCount, double(g.voxels) / g.leafCount,
                100.0 * g.voxels / g.leafCount / 512);
    std::vector<WidthBlocks> widths;
    for (int l : opt.widths) {
        const vbm::VbmMetadata& m = g.meta.at(l);
        const uint64_t f = vbm::countFallbackBlocks(m);
        std::printf("; w%d: %llu blocks, %llu fell back (>16 leaves)", 1 << l, (unsigned long long)m.extent.blockCount,
                    (unsigned long long)f);
        widths.push_back({1 << l, m.extent.blockCount, f});
    }
    std::printf("\n\n");
    res.gridJson.push_back(gridJsonEntry(bg, g.voxels, g.leafCount, widths));
}

void benchGrid(const Options& opt, const BenchGrid& bg, cudaStream_t stream, CopyBuffers& copy, GridBenchResults& res)
{
    const GridOnDevice g(bg, vbmWidths(opt));
    printGridHeader(opt, g, res);
    for (int C : opt.channels)
        runResolverComparison(opt, g, C, stream, copy, res);
    if (opt.decode) runDecodeTable(opt, g, stream, res);
}

} // namespace

int runGridBench(const Options& opt, std::map<std::string, std::vector<BenchGrid>>& fileGrids)
{
    const std::vector<BenchGrid> grids = collectGrids(opt.grids, fileGrids);
    const std::string device = vbm::cudaDeviceDescription();
    std::printf("# vbm-bench\n\ndevice: %s; commit %s; %d warm-up + %d timed rounds, interleaved; median ms "
                "(min-max)\n\n",
                device.c_str(), gitCommit(), opt.warmup, opt.rounds);
    const Stream stream;
    CopyBuffers copy;
    GridBenchResults res;
    for (const BenchGrid& bg : grids)
        benchGrid(opt, bg, stream.get(), copy, res);

    const std::vector<ResourceRow> kernels = collectKernelResources(opt);
    printKernelResources(device, kernels);
    const vbm::Summary copyMs = summaryOf(res.copyMs);
    const double copyGBps = 2.0 * CopyBuffers::Bytes / (copyMs.median * 1e-3) / 1e9;
    std::printf("\nDevice copy bandwidth: %.0f GB/s (1 GiB device-to-device, read + written, median of %zu)\n",
                copyGBps, res.copyMs.size());
    std::printf("\nAll outputs identical to their baseline: %s\n", res.allIdentical ? "yes" : "NO");
    if (!opt.json.empty()) writeGridBenchJson(opt, device, copyGBps, res, kernels);
    return res.allIdentical ? 0 : 1;
}

} // namespace bench
