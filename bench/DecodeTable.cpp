// SPDX-License-Identifier: Apache-2.0
// The decode-alone table (see DecodeTable.h).
#include "DecodeTable.h"

#include "CudaCheck.h"
#include "DeviceArray.h"
#include "TapRuns.h"
#include "TimingRounds.h"

#include <cstdio>
#include <map>
#include <utility>
#include <vector>

namespace bench {

using vbm::cuda::checkCuda;
using vbm::cuda::DeviceArray;

namespace {

constexpr int MinLog2Width = 6, MaxLog2Width = 9;

/// The decode variants of every width and the outputs they write into, which must outlive
/// the rounds (the launches point into them).
struct DecodeRun {
    std::vector<Variant> vs;
    std::vector<std::pair<int, bool>> which; ///< per variant: log2 width, NanoVDB13's sweep
    std::map<int, DeviceArray<uint32_t>> leafIndex;
    std::map<int, DeviceArray<uint16_t>> voxelOffset;
};

// Adds both decodes at width 2^l and runs each once on poisoned output: ours must pass the host
// checker and NanoVDB's must equal ours. Returns false on a mismatch.
bool addAndCheck(DecodeRun& run, const GridOnDevice& g, int l, cudaStream_t stream)
{
    const uint64_t slots = g.meta.at(l).extent.blockCount << l;
    run.leafIndex.emplace(l, DeviceArray<uint32_t>(slots));
    run.voxelOffset.emplace(l, DeviceArray<uint16_t>(slots));
    std::vector<uint32_t> ref[2];
    std::vector<uint16_t> refVo[2];
    for (bool nano : {false, true}) {
        const SparseProblem p = g.problem(l);
        uint32_t* a = run.leafIndex.at(l).data();
        uint16_t* b = run.voxelOffset.at(l).data();
        run.vs.push_back({std::string(nano ? "NanoVDB13 sweep" : "select") + "@" + std::to_string(1 << l),
                          [p, nano, a, b](cudaStream_t s) { launchDecode(nano, p, a, b, s); },
                          {}});
        run.which.push_back({l, nano});
        run.leafIndex.at(l).fill(0x5a), run.voxelOffset.at(l).fill(0x5a);
        run.vs.back().launch(stream);
        checkCuda(cudaStreamSynchronize(stream), "decode check run");
        ref[nano] = run.leafIndex.at(l).download();
        refVo[nano] = run.voxelOffset.at(l).download();
    }
    const auto c = vbm::checkDecode(g.host, g.meta.at(l), ref[0], refVo[0]);
    if (!c.ok() || ref[0] != ref[1] || refVo[0] != refVo[1]) {
        std::printf("MISMATCH: decode at w%d: %s\n", 1 << l,
                    c.ok() ? "ours differs from NanoVDB13's" : c.firstMismatch.c_str());
        return false;
    }
    return true;
}

void printAndAddRows(const DecodeRun& run, const GridOnDevice& g, GridBenchResults& res)
{
    std::printf("### %s, decode alone (leafIndex + voxelOffset of every slot written out)\n\n", g.source.name.c_str());
    std::printf("| width | NanoVDB 13.0.0 sweep ms | our select ms | speedup |\n|---|---|---|---|\n");
    for (int l = MinLog2Width; l <= MaxLog2Width; ++l) {
        vbm::Summary s[2]; // [0] ours, [1] NanoVDB13's
        for (size_t i = 0; i < run.vs.size(); ++i)
            if (run.which[i].first == l) s[run.which[i].second] = summaryOf(run.vs[i].ms);
        std::printf("| %d | %s | %s | %.2fx |\n", 1 << l, fmtRange(s[1], 4).c_str(), fmtRange(s[0], 4).c_str(),
                    s[1].median / s[0].median);
        for (bool nano : {false, true}) {
            Row row;
            row.grid = g.source.name;
            row.variant = nano ? "decode NanoVDB13 sweep" : "decode select";
            row.shape = "decode";
            row.width = 1 << l;
            row.ms = s[nano];
            row.ratio = s[1].median / s[nano].median;
            row.voxelsPerSecond = double(g.voxels) / (row.ms.median * 1e-3);
            row.bytes = double(g.meta.at(l).extent.blockCount << l) * 6;
            row.gbps = row.bytes / (row.ms.median * 1e-3) / 1e9;
            res.rows.push_back(row);
        }
    }
    std::printf("\n");
}

} // namespace

void runDecodeTable(const Options& opt, const GridOnDevice& g, cudaStream_t stream, GridBenchResults& res)
{
    DecodeRun run;
    for (int l = MinLog2Width; l <= MaxLog2Width; ++l)
        if (!addAndCheck(run, g, l, stream)) res.allIdentical = false;
    runRounds(run.vs, opt.warmup, opt.rounds, g.source.name + ", decode alone", stream);
    printAndAddRows(run, g, res);
}

} // namespace bench
