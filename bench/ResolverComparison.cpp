// SPDX-License-Identifier: Apache-2.0
// The resolver comparison on one grid at one channel count (see ResolverComparison.h).
#include "ResolverComparison.h"

#include "CudaCheck.h"
#include "OutputChecks.h"
#include "TapRuns.h"
#include "TimingRounds.h"
#include "vbm/Resolver.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace bench {

using vbm::Resolver;
using vbm::cuda::checkCuda;
using vbm::cuda::DeviceArray;

namespace {

/// What the tables and the checks need to know of a variant besides its launch.
struct VariantInfo {
    std::string variant, shape; ///< shape: "box", "cross", or "-" (the copy: not checked)
    int width;                  ///< block width in voxels; 0 where it does not apply
    double bytes;               ///< bytes that must move
};

/// The variants of one comparison, in round order, with their descriptions.
struct Comparison {
    std::vector<Variant> vs;
    std::vector<VariantInfo> info;
};

/// One channel count's data: random sidecar channels and the output of the sparse grid, and
/// the same for the dense box. Host copies stay for the checks' oracles.
struct ChannelData {
    ChannelData(const GridOnDevice& g, int C)
        : channels(C), box(denseBoxFor(g.voxels)), sidecarHost(vbm::randomSidecar(g.lastOffset + 1, C, 1234 + C)),
          sidecar(sidecarHost), out((g.lastOffset + 1) * C), denseHost(vbm::randomSidecar(box.voxels + 1, C, 777 + C)),
          denseIn(withHalo(denseHost, box, C)), denseOut(box.voxels * C)
    {
    }
    int channels;
    DenseBox box;
    std::vector<float> sidecarHost;
    DeviceArray<float> sidecar, out;
    std::vector<float> denseHost;
    DeviceArray<float> denseIn, denseOut;

    /// The grid's problem at width 2^l on this data (with the per-leaf tables: leafTables).
    SparseProblem problem(const GridOnDevice& g, int l, bool leafTables = false)
    {
        SparseProblem p = g.problem(l, leafTables);
        p.sidecar = sidecar.data();
        p.out = out.data();
        p.channels = channels;
        return p;
    }
    /// The dense box over its halo'd input (voxel (0, 0, 0) is one voxel in on every axis).
    DenseProblem dense()
    {
        const size_t first = ((size_t(box.nx) + 2) * (box.nx + 2) + (box.nx + 2) + 1) * channels;
        return DenseProblem{denseIn.data() + first, denseOut.data(), box.nx, box.nx, box.nz, channels};
    }
};

const char* resolution(Resolver r) { return vbm::isCachedResolver(r) ? "cached table" : "tree walk"; }

/// The name of a cached resolver reading the grid's per-leaf tables instead of staging.
std::string withLeafTable(Resolver r) { return std::string(vbm::resolverName(r)) + " + leaf table"; }

/// The name of resolver r through the run form, K slots per thread (the cached ones read the
/// per-leaf tables there).
std::string inRuns(Resolver r, int K)
{
    return (vbm::isCachedResolver(r) ? withLeafTable(r) : std::string(vbm::resolverName(r))) + ", runs of " +
           std::to_string(K);
}

// The round order is fixed: every resolver at each width, ReadAccessor, dense, the copy.
Comparison makeVariants(const Options& opt, const GridOnDevice& g, ChannelData& d, CopyBuffers& copy)
{
    Comparison cmp;
    auto& vs = cmp.vs;
    auto& info = cmp.info;
    const int C = d.channels;
    const double sparseBytes = 2.0 * g.voxels * C * 4 + double(g.leafCount) * sizeof(vbm::IndexLeaf);
    for (int l : opt.widths) {
        const double metaBytes = double(g.meta.at(l).extent.blockCount) * (4 + 8 * ((1 << l) / 64));
        for (Resolver r : vbm::AllResolvers) {
            const auto p = d.problem(g, l);
            vs.push_back({std::string(vbm::resolverName(r)) + "@" + std::to_string(1 << l),
                          [p, r](cudaStream_t s) { launchVbmConsumer(r, p, s); },
                          {}});
            info.push_back(
                {vbm::resolverName(r), vbm::isBoxResolver(r) ? "box" : "cross", 1 << l, sparseBytes + metaBytes});
        }
        for (Resolver r : vbm::VbmResolvers) {
            if (!vbm::isCachedResolver(r)) continue;
            const auto p = d.problem(g, l, true);
            const double tableBytes =
                double(g.leafCount) * (vbm::isBoxResolver(r) ? vbm::boxTableWidth : vbm::crossTableWidth) * 4;
            vs.push_back({withLeafTable(r) + "@" + std::to_string(1 << l),
                          [p, r](cudaStream_t s) { launchVbmConsumer(r, p, s); },
                          {}});
            info.push_back({withLeafTable(r), vbm::isBoxResolver(r) ? "box" : "cross", 1 << l,
                            sparseBytes + metaBytes + tableBytes});
        }
        for (Resolver r : vbm::VbmResolvers) {
            if (!hasRunConsumer(r, C)) continue;
            const auto p = d.problem(g, l, true);
            const double tableBytes =
                vbm::isCachedResolver(r)
                    ? double(g.leafCount) * (vbm::isBoxResolver(r) ? vbm::boxTableWidth : vbm::crossTableWidth) * 4
                    : 0.0;
            for (int K : RunLengths) {
                vs.push_back({inRuns(r, K) + "@" + std::to_string(1 << l),
                              [p, r, K](cudaStream_t s) { launchVbmRunConsumer(r, K, p, s); },
                              {}});
                info.push_back({inRuns(r, K), vbm::isBoxResolver(r) ? "box" : "cross", 1 << l,
                                sparseBytes + metaBytes + tableBytes});
            }
        }
    }
    const auto p0 = d.problem(g, opt.widths[0]);
    for (bool box : {true, false}) {
        vs.push_back({box ? "ReadAccessor box" : "ReadAccessor cross",
                      [p0, box](cudaStream_t s) { launchAccessorConsumer(box, p0, s); },
                      {}});
        info.push_back({vs.back().key, box ? "box" : "cross", 0, sparseBytes});
    }
    const DenseProblem dp = d.dense();
    for (bool box : {false, true}) {
        vs.push_back({box ? "dense 27-point" : "dense 7-point",
                      [dp, box](cudaStream_t s) { launchDenseConsumer(box, dp, s); },
                      {}});
        info.push_back({vs.back().key, box ? "box" : "cross", 0, 2.0 * d.box.voxels * C * 4});
    }
    char* cs = copy.src.data();
    char* cd = copy.dst.data();
    const size_t copyBytes = CopyBuffers::Bytes;
    vs.push_back({"copy",
                  [cs, cd, copyBytes](cudaStream_t s) {
                      checkCuda(cudaMemcpyAsync(cd, cs, copyBytes, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync");
                  },
                  {}});
    info.push_back({"device copy (1 GiB)", "-", 0, 2.0 * copyBytes});
    return cmp;
}

// Every variant once on poisoned output, compared with the baseline of its shape. The first
// sparse variant of a shape (computeBoxStencil / computeCrossStencil at the first width) is the
// baseline: checked against a host ReadAccessor sum at sampled voxels, and for being written
// everywhere; the dense floor against a host sum in double. Returns false on any mismatch.
bool checkOutputs(const Comparison& cmp, const GridOnDevice& g, ChannelData& d, const std::string& label,
                  cudaStream_t stream)
{
    bool identical = true;
    const int C = d.channels;
    std::map<std::string, std::vector<float>> baseline;
    for (size_t i = 0; i < cmp.vs.size(); ++i) {
        const Variant& v = cmp.vs[i];
        const VariantInfo& info = cmp.info[i];
        const bool dense = info.variant.rfind("dense", 0) == 0;
        if (info.shape == "-") continue;
        DeviceArray<float>& o = dense ? d.denseOut : d.out;
        o.fill(0xff);
        v.launch(stream);
        checkCuda(cudaStreamSynchronize(stream), ("the check run of " + v.key).c_str());
        std::vector<float> got = o.download();
        const bool box = info.shape == "box";
        if (dense) {
            if (const uint64_t bad = countDenseMismatches(got, d.denseHost, d.box, C, box)) {
                identical = false;
                std::printf("MISMATCH: %s (%s): %llu sampled outputs differ from the host sum\n", v.key.c_str(),
                            label.c_str(), (unsigned long long)bad);
            }
            continue;
        }
        auto it = baseline.find(info.shape);
        if (it == baseline.end()) {
            const uint64_t bad = countAccessorMismatches(g.host, got, d.sidecarHost, C, box);
            const uint64_t unwritten = countUnwritten(got, C);
            if (bad || unwritten) {
                identical = false;
                std::printf("MISMATCH: baseline %s (%s): %llu sampled outputs differ from the host "
                            "ReadAccessor sum, %llu unwritten\n",
                            v.key.c_str(), label.c_str(), (unsigned long long)bad, (unsigned long long)unwritten);
            }
            baseline.emplace(info.shape, std::move(got));
            continue;
        }
        if (const uint64_t n = countDiffering(got, it->second, C)) {
            identical = false;
            std::printf("MISMATCH: %s (%s): %llu of %llu outputs differ from the baseline's\n", v.key.c_str(),
                        label.c_str(), (unsigned long long)n, (unsigned long long)(got.size() - C));
        }
    }
    return identical;
}

// The summary of each variant by key; computeBoxStencil at a width is every ratio's reference.
struct Summaries {
    std::map<std::string, vbm::Summary> byKey;
    double base(int width) { return byKey["computeBoxStencil@" + std::to_string(width)].median; }
};

void addRows(const Options& opt, const GridOnDevice& g, int C, const Comparison& cmp, Summaries& st,
             GridBenchResults& res)
{
    for (size_t i = 0; i < cmp.vs.size(); ++i) {
        const VariantInfo& info = cmp.info[i];
        Row row;
        row.grid = g.source.name;
        row.variant = info.variant;
        row.shape = info.shape;
        row.width = info.width;
        row.channels = C;
        row.ms = st.byKey[cmp.vs[i].key];
        row.ratio = st.base(info.width ? info.width : 1 << opt.widths[0]) / row.ms.median;
        row.voxelsPerSecond = row.shape == "-" ? 0 : double(g.voxels) / (row.ms.median * 1e-3);
        row.bytes = info.bytes;
        row.gbps = info.bytes / (row.ms.median * 1e-3) / 1e9;
        res.rows.push_back(row);
    }
}

void printResolverTable(const Options& opt, const std::string& gridName, int C, Summaries& st)
{
    std::printf("### %s, C = %d\n\n", gridName.c_str(), C);
    std::printf("| method | shape | resolution | divergent-safe | smem | output |");
    for (int l : opt.widths)
        std::printf(" w%d ms | w%d x | w%d / dense |", 1 << l, 1 << l, 1 << l);
    std::printf("\n|---|---|---|---|---|---|");
    for (size_t k = 0; k < opt.widths.size(); ++k)
        std::printf("---|---|---|");
    std::printf("\n");
    // K: slots per thread of the run form, 0 for the one-slot skeleton.
    const auto row = [&](Resolver r, bool leafTable, int K) {
        const std::string k0 = K ? inRuns(r, K) : leafTable ? withLeafTable(r) : vbm::resolverName(r);
        const KernelRef kr = K ? vbmRunConsumerKernel(r, K, opt.widths[0], C) : vbmConsumerKernel(r, opt.widths[0], C);
        cudaFuncAttributes a{};
        checkCuda(cudaFuncGetAttributes(&a, kr.function), "cudaFuncGetAttributes");
        const bool box = vbm::isBoxResolver(r);
        const std::string smem = leafTable || !a.sharedSizeBytes ? "none" : std::to_string(a.sharedSizeBytes) + " B";
        std::printf("| %s | %s | %s | %s | %s | %s |", k0.c_str(), box ? "27-tap box" : "7-pt cross",
                    leafTable ? "per-leaf table" : resolution(r), vbm::isDivergentSafe(r) || leafTable ? "yes" : "no",
                    smem.c_str(), vbm::isStreamedResolver(r) ? "streamed" : "materialized");
        const double dense = st.byKey[box ? "dense 27-point" : "dense 7-point"].median;
        for (int l : opt.widths) {
            const vbm::Summary& s = st.byKey[k0 + "@" + std::to_string(1 << l)];
            std::printf(" %s | %.2fx | %.1fx |", fmtRange(s, 4).c_str(), st.base(1 << l) / s.median, s.median / dense);
        }
        std::printf("\n");
    };
    for (Resolver r : vbm::VbmResolvers)
        row(r, false, 0);
    for (Resolver r : vbm::VbmResolvers)
        if (vbm::isCachedResolver(r)) row(r, true, 0);
    for (Resolver r : vbm::VbmResolvers)
        if (hasRunConsumer(r, C))
            for (int K : RunLengths)
                row(r, vbm::isCachedResolver(r), K);
    std::printf("\n(/ dense: median over the dense floor of the same shape and voxel count, this run.)\n");
}

// Everything that is not one of our resolvers at a width: NanoVDB13, ReadAccessor, dense, copy.
void printPeerTable(const Options& opt, const std::string& gridName, int C, const std::vector<Row>& rows)
{
    std::printf("\nPeers (x: against computeBoxStencil at w%d; GB/s: bytes that must move / median):\n\n",
                1 << opt.widths[0]);
    std::printf("| method | shape | median ms (min-max) | x | Mvoxels/s | GB/s |\n|---|---|---|---|---|---|\n");
    for (const Row& row : rows) {
        if (row.grid != gridName || row.channels != C) continue;
        const bool ours = row.width && row.variant != "NanoVDB13";
        if (ours) continue;
        std::string name = row.variant == "NanoVDB13"
                               ? "NanoVDB 13.0.0 VBM (sweep decode + computeBoxStencil) w" + std::to_string(row.width)
                               : row.variant;
        std::printf("| %s | %s | %s | %.2fx | %s | %s |\n", name.c_str(), row.shape.c_str(),
                    fmtRange(row.ms, 4).c_str(), row.ratio,
                    row.voxelsPerSecond ? fmt(row.voxelsPerSecond / 1e6, 0).c_str() : "-", fmt(row.gbps, 0).c_str());
    }
}

void printBandwidthLine(const std::string& gridName, int C, const std::vector<Row>& rows)
{
    std::printf("\nEffective bandwidth of ours (GB/s):");
    for (const Row& row : rows)
        if (row.grid == gridName && row.channels == C && row.width && row.variant != "NanoVDB13")
            std::printf(" %s@%d %s;", row.variant.c_str(), row.width, fmt(row.gbps, 0).c_str());
    std::printf("\n\n");
}

} // namespace

void runResolverComparison(const Options& opt, const GridOnDevice& g, int C, cudaStream_t stream, CopyBuffers& copy,
                           GridBenchResults& res)
{
    const std::string& name = g.source.name;
    const std::string label = name + ", C=" + std::to_string(C);
    ChannelData d(g, C);
    Comparison cmp = makeVariants(opt, g, d, copy);
    if (!checkOutputs(cmp, g, d, label, stream)) res.allIdentical = false;

    runRounds(cmp.vs, opt.warmup, opt.rounds, label, stream);

    Summaries st;
    for (auto& v : cmp.vs)
        st.byKey[v.key] = summaryOf(v.ms);
    for (auto& v : cmp.vs)
        if (v.key == "copy") res.copyMs.insert(res.copyMs.end(), v.ms.begin(), v.ms.end());
    addRows(opt, g, C, cmp, st, res);
    printResolverTable(opt, name, C, st);
    printPeerTable(opt, name, C, res.rows);
    printBandwidthLine(name, C, res.rows);
    std::fflush(stdout);
}

} // namespace bench
