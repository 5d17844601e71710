// SPDX-License-Identifier: Apache-2.0
// vbm-bench --backend cpu (see CpuBench.h): per grid and channel count, one sidecar; an independent
// oracle (NanoVDB's ReadAccessor, taps in our order) for the 27-tap and 7-tap sums; every
// variant run once and checked against it (ours and OpenVDB's accessor peers bitwise, the tools
// within their tolerance); then the interleaved rounds and the tables.
#include "CpuBench.h"

#include "BenchReport.h"
#include "CpuBenchReport.h"
#include "CpuRounds.h"
#include "CpuVariants.h"
#include "OpenVdbPeers.h"
#include "TapRuns.h"
#include "vbm/HostBlockExecutor.h"
#include "vbm/TreeWalkStencils.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

namespace bench {

namespace {

std::string cpuDescription()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line, model = "unknown CPU";
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            model = line.substr(line.find(':') + 2);
            break;
        }
    return "CPU: " + model + ", " + std::to_string(vbm::hostThreadCount()) + " threads";
}

/// The oracle: out[index*C + ch] = sum over the taps (27 box or 7 cross, our tap order) of
/// sidecar[tap index*C + ch], each tap's index read through NanoVDB's ReadAccessor.
std::vector<float> oracleSum(const vbm::IndexGrid* grid, const std::vector<float>& sidecar, int C, bool box)
{
    std::vector<float> out(sidecar.size(), 0.f);
    const vbm::IndexLeaf* leaves = grid->tree().getFirstNode<0>();
    vbm::forEachBlockOnHost(0, grid->tree().nodeCount(0), [&](uint64_t l) {
        auto acc = grid->getAccessor();
        for (auto it = leaves[l].data()->mValueMask.beginOn(); it; ++it) {
            const nanovdb::Coord c = leaves[l].offsetToGlobalCoord(*it);
            float* dst = &out[leaves[l].data()->getValue(*it) * C];
            for (int t = 0; t < (box ? 27 : 7); ++t) {
                const int b = box ? t : vbm::boxTapOfCrossTap(t); // the tap's place in the 3x3x3 box
                const nanovdb::Coord d(b / 9 - 1, b / 3 % 3 - 1, b % 3 - 1);
                const uint64_t n = acc.getValue(c + d);
                for (int ch = 0; ch < C; ++ch)
                    dst[ch] += sidecar[n * C + ch];
            }
        }
    });
    return out;
}

uint64_t countDiffering(const std::vector<float>& a, const std::vector<float>& b, int C)
{
    uint64_t n = 0;
    for (size_t i = C; i < a.size(); ++i)
        n += std::memcmp(&a[i], &b[i], sizeof(float)) != 0;
    return n;
}

/// One grid's VBM at each width of the run, on the host.
struct CpuGrid {
    const BenchGrid& source;
    const vbm::IndexGrid* grid;
    std::vector<vbm::VbmMetadata> meta; ///< by opt.widths order
    uint64_t voxels, valueCount;
};

struct Pending {
    CpuVariant variant;
    CpuRow row;
};

// Our variants: the six resolvers through the CPU executor at every width, and the shared form
// of the two defaults; each checked once against the oracle.
void addOurs(const Options& opt, const CpuGrid& g, int C, const std::vector<float>& sidecar, std::vector<float>& out,
             const std::vector<float>& cross, const std::vector<float>& box, std::vector<Pending>& p, bool& ok)
{
    for (HostForm form : {HostForm::Cpu, HostForm::Shared})
        for (vbm::Resolver r : vbm::VbmResolvers) {
            if (form == HostForm::Shared && r != vbm::Resolver::computeCrossStencilCached &&
                r != vbm::Resolver::forEachBoxStencilCached)
                continue;
            for (size_t w = 0; w < opt.widths.size(); ++w) {
                const vbm::VbmView v = vbm::hostView(g.grid, g.meta[w]);
                const int l = opt.widths[w];
                auto run = [v, l, r, form, C, &sidecar, &out] {
                    runOurConsumer(v, l, r, form, C, sidecar.data(), out.data());
                };
                std::fill(out.begin(), out.end(), 0.f);
                run();
                const uint64_t bad = countDiffering(out, vbm::isBoxResolver(r) ? box : cross, C);
                ok = ok && bad == 0;
                CpuRow row{g.source.name, vbm::resolverName(r), vbm::isBoxResolver(r) ? "27-tap box" : "7-pt cross",
                           form == HostForm::Cpu ? "cpu" : "shared",
                           bad ? std::to_string(bad) + " outputs differ from the oracle" : "bitwise = oracle",
                           1 << l, C, {}, 0};
                if (bad) std::printf("MISMATCH: %s (%s form, w%d, C=%d): %llu outputs differ from the oracle\n",
                                     row.variant.c_str(), row.form.c_str(), row.width, C, (unsigned long long)bad);
                p.push_back({{row.variant + "@" + std::to_string(row.width) + "/" + row.form, {}, run, {}}, row});
            }
        }
}

void addPeers(const CpuGrid& g, int C, OpenVdbPeers& peers, const std::vector<float>& cross,
              const std::vector<float>& box, std::vector<Pending>& p, bool& ok)
{
    for (int k = 0; k < int(OpenVdbPeers::names().size()); ++k) {
        peers.prepare(k);
        peers.run(k);
        const PeerCheck c = peers.check(k, cross, box);
        ok = ok && c.ok();
        char text[256];
        std::snprintf(text, sizeof text, "%s: %llu of %llu outside, max relative error %.2g", c.rule.c_str(),
                      (unsigned long long)c.mismatches, (unsigned long long)c.compared, c.maxRelativeError);
        if (!c.ok()) std::printf("MISMATCH: %s (C=%d): %s\n", OpenVdbPeers::names()[k].c_str(), C, text);
        CpuRow row{g.source.name, OpenVdbPeers::names()[k], OpenVdbPeers::shape(k), "openvdb", text, 0, C, {}, 0};
        p.push_back({{row.variant, [&peers, k] { peers.prepare(k); }, [&peers, k] { peers.run(k); }, {}}, row});
    }
}

void benchChannels(const Options& opt, const CpuGrid& g, int C, CpuBenchResults& res)
{
    const std::string label = g.source.name + ", C=" + std::to_string(C);
    std::fprintf(stderr, "[vbm-bench] %s: sidecar, oracle and the checking runs\n", label.c_str());
    std::vector<float> sidecar = vbm::randomSidecar(g.valueCount, C, 1234 + C);
    std::fill(sidecar.begin(), sidecar.begin() + C, 0.f); // index 0: the background, as OpenVDB's
    const std::vector<float> cross = oracleSum(g.grid, sidecar, C, false), box = oracleSum(g.grid, sidecar, C, true);
    std::vector<float> out(sidecar.size());
    std::vector<Pending> pending;
    bool ok = true;
    addOurs(opt, g, C, sidecar, out, cross, box, pending, ok);
    std::unique_ptr<OpenVdbPeers> peers;
    if (OpenVdbPeers::available()) {
        peers = std::make_unique<OpenVdbPeers>(g.grid, sidecar, C);
        addPeers(g, C, *peers, cross, box, pending, ok);
    }
    res.allIdentical = res.allIdentical && ok;
    std::vector<CpuVariant> variants;
    for (auto& p : pending)
        variants.push_back(p.variant);
    runCpuRounds(variants, opt.warmup, opt.rounds, label);
    for (size_t i = 0; i < pending.size(); ++i) {
        CpuRow row = pending[i].row;
        row.ms = vbm::summarize(variants[i].ms);
        row.voxelsPerSecond = double(g.voxels) / (row.ms.median * 1e-3);
        res.rows.push_back(row);
    }
    printOurCpuTable(opt, g.source.name, C, res.rows);
    printPeerCpuTable(opt, g.source.name, C, res.rows);
    std::fflush(stdout);
}

void benchGrid(const Options& opt, const BenchGrid& bg, CpuBenchResults& res)
{
    CpuGrid g{bg, bg.handle.grid<nanovdb::ValueOnIndex>(), {}, 0, 0};
    if (!g.grid) throw std::invalid_argument(bg.name + " is not an index grid");
    for (int l : opt.widths)
        g.meta.push_back(vbm::buildVbmOnHost(g.grid, l));
    g.voxels = g.grid->activeVoxelCount();
    g.valueCount = g.meta[0].extent.lastOffset + 1;
    const uint32_t leaves = g.grid->tree().nodeCount(0);
    std::printf("## %s\n\n%s: %llu active voxels, %u leaves, %.1f voxels per leaf\n\n", bg.name.c_str(),
                bg.origin.c_str(), (unsigned long long)g.voxels, leaves, double(g.voxels) / leaves);
    res.gridJson.push_back("{\"name\": \"" + jsonEscape(bg.name) + "\", \"origin\": \"" + jsonEscape(bg.origin) +
                           "\", \"activeVoxels\": " + std::to_string(g.voxels) +
                           ", \"leaves\": " + std::to_string(leaves) + "}");
    for (int C : opt.channels)
        benchChannels(opt, g, C, res);
}

} // namespace

int runCpuBench(const Options& opt, std::map<std::string, std::vector<BenchGrid>>& fileGrids)
{
    const std::vector<BenchGrid> grids = collectGrids(opt.grids, fileGrids);
    CpuBenchResults res;
    res.device = cpuDescription();
    res.peerVersion = OpenVdbPeers::version();
    std::printf("# vbm-bench --backend cpu\n\ndevice: %s; peers: %s; commit %s; %d warm-up + %d timed rounds, interleaved; "
                "median ms (min-max)\n\n",
                res.device.c_str(), res.peerVersion.empty() ? "none (built without OpenVDB)" : res.peerVersion.c_str(),
                gitCommit(), opt.warmup, opt.rounds);
    for (const BenchGrid& bg : grids)
        benchGrid(opt, bg, res);
    std::printf("All outputs identical to the oracle (peers: within their stated rule): %s\n",
                res.allIdentical ? "yes" : "NO");
    if (!opt.json.empty()) writeCpuBenchJson(opt, res);
    return res.allIdentical ? 0 : 1;
}

} // namespace bench
