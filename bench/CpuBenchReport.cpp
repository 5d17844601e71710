// SPDX-License-Identifier: Apache-2.0
// vbm-bench --backend cpu's tables and JSON (see CpuBenchReport.h).
#include "CpuBenchReport.h"

#include "BenchReport.h"
#include "vbm/Resolver.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace bench {

namespace {

const CpuRow* findRow(const std::vector<CpuRow>& rows, const std::string& grid, int C, const std::string& variant,
                      const std::string& form, int width)
{
    for (const CpuRow& r : rows)
        if (r.grid == grid && r.channels == C && r.variant == variant && r.form == form && r.width == width) return &r;
    return nullptr;
}

std::string mvox(const CpuRow& r) { return fmt(r.voxelsPerSecond / 1e6, 1); }

} // namespace

void printOurCpuTable(const Options& opt, const std::string& grid, int C, const std::vector<CpuRow>& rows)
{
    std::printf("### %s, C = %d\n\n| method | form | shape | output |", grid.c_str(), C);
    for (int l : opt.widths)
        std::printf(" w%d ms | w%d Mvoxels/s |", 1 << l, 1 << l);
    std::printf("\n|---|---|---|---|");
    for (size_t k = 0; k < opt.widths.size(); ++k)
        std::printf("---|---|");
    std::printf("\n");
    for (const char* form : {"cpu", "shared"}) {
        for (vbm::Resolver r : vbm::VbmResolvers) {
            const std::string name = vbm::resolverName(r);
            if (!findRow(rows, grid, C, name, form, 1 << opt.widths[0])) continue;
            std::printf("| %s | %s | %s | %s |", name.c_str(), form, vbm::isBoxResolver(r) ? "27-tap box" : "7-pt cross",
                        vbm::isStreamedResolver(r) ? "streamed" : "materialized");
            for (int l : opt.widths) {
                const CpuRow* row = findRow(rows, grid, C, name, form, 1 << l);
                std::printf(" %s | %s |", fmtRange(row->ms, 2).c_str(), mvox(*row).c_str());
            }
            std::printf("\n");
        }
    }
    std::printf("\n");
}

void printPeerCpuTable(const Options& opt, const std::string& grid, int C, const std::vector<CpuRow>& rows)
{
    bool any = false;
    for (const CpuRow& r : rows)
        if (r.grid == grid && r.channels == C && r.form == "openvdb") {
            if (!any) std::printf("| peer | shape | median ms (min-max) | Mvoxels/s | output check |\n|---|---|---|---|---|\n");
            any = true;
            std::printf("| %s | %s | %s | %s | %s |\n", r.variant.c_str(), r.shape.c_str(), fmtRange(r.ms, 2).c_str(),
                        mvox(r).c_str(), r.check.c_str());
        }
    if (!any) {
        std::printf("(no OpenVDB peers: this vbm-bench was built without OpenVDB)\n\n");
        return;
    }
    const int w = 1 << opt.widths[0];
    std::printf("\nOurs against OpenVDB (median over median, w%d; above 1: ours is faster):", w);
    const std::pair<const char*, const char*> pairs[] = {{"computeCrossStencilCached", "openvdb-accessor-cross"},
                                                         {"forEachBoxStencilCached", "openvdb-accessor-box"},
                                                         {"computeCrossStencilCached", "openvdb-tools-laplacian"},
                                                         {"forEachBoxStencilCached", "openvdb-filter-mean"}};
    for (const auto& [ours, peer] : pairs) {
        const CpuRow* a = findRow(rows, grid, C, ours, "cpu", w);
        const CpuRow* b = findRow(rows, grid, C, peer, "openvdb", 0);
        if (a && b) std::printf(" %s / %s %.2fx;", ours, peer, b->ms.median / a->ms.median);
    }
    std::printf("\n\n");
}

void writeCpuBenchJson(const Options& opt, const CpuBenchResults& res)
{
    std::ofstream js(opt.json);
    if (!js) throw std::runtime_error("cannot write " + opt.json);
    js << "{\n  \"device\": \"" << jsonEscape(res.device) << "\",\n  \"peer\": \"" << jsonEscape(res.peerVersion)
       << "\",\n  \"commit\": \"" << gitCommit() << "\",\n  \"warmup\": " << opt.warmup << ", \"rounds\": " << opt.rounds
       << ",\n  \"allIdentical\": " << (res.allIdentical ? "true" : "false") << ",\n  \"grids\": [\n    ";
    for (size_t i = 0; i < res.gridJson.size(); ++i)
        js << (i ? ",\n    " : "") << res.gridJson[i];
    js << "\n  ],\n  \"results\": [\n";
    for (size_t i = 0; i < res.rows.size(); ++i) {
        const CpuRow& r = res.rows[i];
        js << "    {\"grid\": \"" << jsonEscape(r.grid) << "\", \"variant\": \"" << r.variant << "\", \"form\": \""
           << r.form << "\", \"shape\": \"" << r.shape << "\", \"width\": " << r.width << ", \"channels\": " << r.channels
           << ", \"medianMs\": " << r.ms.median << ", \"minMs\": " << r.ms.min << ", \"maxMs\": " << r.ms.max
           << ", \"voxelsPerSecond\": " << r.voxelsPerSecond << ", \"check\": \"" << jsonEscape(r.check) << "\"}"
           << (i + 1 < res.rows.size() ? ",\n" : "\n");
    }
    js << "  ]\n}\n";
    if (!js) throw std::runtime_error("cannot write " + opt.json);
}

} // namespace bench
