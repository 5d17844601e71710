// vbm-bench: the resolver comparison on the GPU, side by side with NanoVDB 13.0.0's own VBM
// path, ReadAccessor-per-voxel kernels, the dense floor and the copy bandwidth, in one run,
// with every variant's output checked bytewise against the baseline's.
#include "BenchKernels.h"
#include "CudaCheck.h"
#include "DeviceArray.h"
#include "DeviceQueries.h"
#include "DeviceRuns.h"
#include "GridFile.h"
#include "GridGenerators.h"
#include "Solver.h"
#include "TapRuns.h"
#include "vbm/BuildVoxelBlockManager.h"
#include "vbm/Resolver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#ifndef VBM_GIT_COMMIT
#define VBM_GIT_COMMIT "unknown"
#endif

using vbm::Resolver;
using vbm::cuda::checkCuda;
using vbm::cuda::DeviceArray;

namespace {

const char* Usage = R"(usage: vbm-bench [options]

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
  --widths LIST        block widths of the resolver table, of 128,512 (default 128,512)
  --channels LIST      sidecar channels C, of 1,2,4,8,16 (default 1,8)
  --rounds N           timed rounds, at least 50 (default 50)
  --warmup N           warm-up rounds (default 15)
  --no-decode          skip the decode-alone table (widths 64/128/256/512)
  --json FILE          write every number as JSON
  --solver SCENE       instead: time full solver steps of a scene (built-in name or
                       .scene file) on the GPU, the default resolvers against
                       computeBoxStencil everywhere (and the defaults at block width
                       512), stepping them in turns from the same state and checking
                       their fields stay bitwise identical
  --steps N            solver steps per configuration (default 300, at least 5; the
                       first 3 are warm-up; past 100, medians by window of steps too:
                       a plume's step grows as it speeds up, so the default reaches
                       its steady state)
  -h, --help           this text

exit codes: 0 done and all outputs identical, 1 an output differed or a run failed,
2 bad usage, unreadable grid file, or no CUDA GPU
)";

struct Options {
    std::vector<std::string> grids;
    std::vector<int> widths = {7, 9};
    std::vector<int> channels = {1, 8};
    int rounds = 50, warmup = 15;
    bool decode = true;
    std::string json;
    std::string solverScene; ///< --solver: time full solver steps of this scene instead
    int steps = 300;
};

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::vector<int> parseList(const std::string& flag, const std::string& v, const std::vector<int>& allowed)
{
    std::vector<int> out;
    std::stringstream ss(v);
    std::string item;
    while (std::getline(ss, item, ',')) {
        char* end = nullptr;
        const long x = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end || std::find(allowed.begin(), allowed.end(), int(x)) == allowed.end()) {
            std::string a;
            for (int y : allowed)
                a += (a.empty() ? "" : ",") + std::to_string(y);
            throw UsageError(flag + " takes a comma-separated list of " + a + ", got '" + v + "'");
        }
        if (std::find(out.begin(), out.end(), int(x)) == out.end()) out.push_back(int(x));
    }
    if (out.empty()) throw UsageError(flag + " needs at least one value");
    return out;
}

int parseInt(const std::string& flag, const std::string& v, int lo)
{
    char* end = nullptr;
    const long x = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end || x < lo || x > 100000)
        throw UsageError(flag + " takes a whole number from " + std::to_string(lo) + ", got '" + v + "'");
    return int(x);
}

Options parseOptions(int argc, char** argv, bool& help)
{
    Options o;
    help = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw UsageError(a + " needs a value");
            return argv[++i];
        };
        if (a == "-h" || a == "--help")
            help = true;
        else if (a == "--grid")
            o.grids.push_back(value());
        else if (a == "--widths") {
            o.widths.clear();
            for (int w : parseList(a, value(), {128, 512}))
                o.widths.push_back(w == 128 ? 7 : 9);
        } else if (a == "--channels")
            o.channels = parseList(a, value(), {1, 2, 4, 8, 16});
        else if (a == "--rounds")
            o.rounds = parseInt(a, value(), 50);
        else if (a == "--warmup")
            o.warmup = parseInt(a, value(), 0);
        else if (a == "--no-decode")
            o.decode = false;
        else if (a == "--json")
            o.json = value();
        else if (a == "--solver")
            o.solverScene = value();
        else if (a == "--steps")
            o.steps = parseInt(a, value(), 5);
        else
            throw UsageError("unknown option '" + a + "'");
    }
    if (o.grids.empty()) o.grids = {"small", "thin", "thick"};
    return o;
}

// ------------------------------------------------------------------------------ timing

struct Stats {
    double median = 0, min = 0, max = 0;
};

Stats stats(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    Stats s;
    s.min = v.front(), s.max = v.back();
    const size_t n = v.size();
    s.median = n % 2 ? v[n / 2] : 0.5 * (double(v[n / 2 - 1]) + v[n / 2]);
    return s;
}

/// A timed variant: a launch on the stream.
struct Variant {
    std::string key; ///< unique name in the round
    std::function<void(cudaStream_t)> launch;
    std::vector<float> ms;
};

/// Runs warmup rounds, then `rounds` rounds of every variant in order, each timed by a pair of events.
void runRounds(std::vector<Variant>& vs, int warmup, int rounds, const std::string& label, cudaStream_t stream)
{
    std::vector<cudaEvent_t> ev(2 * vs.size());
    for (auto& e : ev)
        checkCuda(cudaEventCreate(&e), "cudaEventCreate");
    for (int r = 0; r < warmup + rounds; ++r) {
        for (size_t i = 0; i < vs.size(); ++i) {
            checkCuda(cudaEventRecord(ev[2 * i], stream), "cudaEventRecord");
            vs[i].launch(stream);
            checkCuda(cudaEventRecord(ev[2 * i + 1], stream), "cudaEventRecord");
        }
        checkCuda(cudaGetLastError(), "kernel launch");
        checkCuda(cudaStreamSynchronize(stream), "a timed round");
        if (r >= warmup)
            for (size_t i = 0; i < vs.size(); ++i) {
                float ms = 0;
                checkCuda(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]), "cudaEventElapsedTime");
                vs[i].ms.push_back(ms);
            }
        std::fprintf(stderr, "\r[vbm-bench] %s: %s round %d/%d   ", label.c_str(), r < warmup ? "warm-up" : "timed",
                     r < warmup ? r + 1 : r - warmup + 1, r < warmup ? warmup : rounds);
    }
    std::fprintf(stderr, "\n");
    for (auto& e : ev)
        cudaEventDestroy(e);
}

// ------------------------------------------------------------------------------ grids

struct BenchGrid {
    std::string name, origin;
    vbm::HostGridHandle handle;
};

std::vector<BenchGrid> loadGrid(const std::string& spec)
{
    std::vector<BenchGrid> out;
    if (spec == "small")
        out.push_back({"small shell", "built-in sphere shell R=160 t=4", vbm::makeSphereShell(160, 4)});
    else if (spec == "thin")
        out.push_back({"thin shell", "built-in sphere shell R=775 t=4", vbm::makeSphereShell(775, 4)});
    else if (spec == "thick")
        out.push_back({"thick shell", "built-in sphere shell R=181 t=72", vbm::makeSphereShell(181, 72)});
    else {
        std::vector<std::string> skipped;
        for (auto& g : vbm::loadGridFile(spec, &skipped))
            out.push_back({g.name, g.origin, std::move(g.handle)});
        for (auto& s : skipped)
            std::fprintf(stderr, "[vbm-bench] note: %s\n", s.c_str());
    }
    return out;
}

// ------------------------------------------------------------------------------ reporting

struct Row {
    std::string grid, variant, shape;
    int width = 0, channels = 0; ///< width 0: does not depend on the block width
    Stats ms;
    double ratio = 0, voxelsPerSecond = 0, bytes = 0, gbps = 0;
};

struct ResourceRow {
    std::string kernel;
    int regs, stack, smem, blockSize, warpsPerSM;
};

ResourceRow resources(const std::string& name, const bench::KernelRef& k)
{
    cudaFuncAttributes a{};
    checkCuda(cudaFuncGetAttributes(&a, k.function), "cudaFuncGetAttributes");
    int blocks = 0;
    checkCuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k.function, k.blockSize, 0),
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    return {name, a.numRegs, int(a.localSizeBytes), int(a.sharedSizeBytes), k.blockSize, blocks * k.blockSize / 32};
}

std::string fmt(double v, int prec = 3)
{
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", prec, v);
    return b;
}

std::string jsonEscape(const std::string& s)
{
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        if (c == '\n')
            o += "\\n";
        else
            o += c;
    }
    return o;
}

const char* resolution(Resolver r) { return vbm::isCachedResolver(r) ? "cached table" : "tree walk"; }

/// Times whole solver steps: default resolvers vs computeBoxStencil for every step kind.
int runSolverComparison(const Options& opt)
{
    const vbm::Scene scene = vbm::loadScene(opt.solverScene);
    const vbm::StencilChoice fast{}; // computeCrossStencilCached + forEachBoxStencilCached, w128
    const vbm::StencilChoice base{Resolver::computeBoxStencil, Resolver::computeBoxStencil, 7};
    const vbm::StencilChoice wide{vbm::StencilChoice{}.laplacian, vbm::StencilChoice{}.advection, 9};
    vbm::Solver a(scene, vbm::Backend::Cuda, fast), b(scene, vbm::Backend::Cuda, base),
        c(scene, vbm::Backend::Cuda, wide);
    const vbm::MemoryReport mem = a.memory();
    std::printf("# vbm-bench --solver %s\n\ndevice: %s; commit %s; %llu active voxels, %llu blocks of 128; "
                "%.1f B/voxel on the device (grid+VBM %.1f, fields %.1f, temporaries %.1f)\n\n",
                opt.solverScene.c_str(), vbm::cudaDeviceDescription().c_str(), VBM_GIT_COMMIT,
                (unsigned long long)a.activeVoxels(), (unsigned long long)a.blockCount(), mem.perVoxel(mem.total()),
                mem.perVoxel(mem.gridAndVbm), mem.perVoxel(mem.fields), mem.perVoxel(mem.temporaries));
    std::map<std::string, std::vector<float>> ms[3];
    std::vector<float> total[3];
    std::vector<int> iterations;
    std::vector<float> substeps; // advection substeps per step (the same in every configuration)
    double maxDiv = 0;
    for (int k = 0; k < opt.steps; ++k) {
        for (int v = 0; v < 3; ++v) {
            const vbm::FrameTimings& r = (v == 0 ? a : v == 1 ? b : c).step();
            if (k < 3) continue;
            total[v].push_back(float(r.stepMs()));
            for (const auto& p : r.phases) {
                if (p.phase == vbm::Phase::Step) continue;
                ms[v][vbm::phaseName(p.phase)].push_back(float(p.ms));
                if (v == 0 && p.iterations >= 0) iterations.push_back(p.iterations);
            }
            if (r.divergenceAfter > maxDiv) maxDiv = r.divergenceAfter;
            if (v == 0 && r.substeps > 0) substeps.push_back(float(r.substeps));
        }
        std::fprintf(stderr, "\r[vbm-bench] solver step %d/%d   ", k + 1, opt.steps);
    }
    std::fprintf(stderr, "\n");
    const bool same = a.fieldsHash() == b.fieldsHash() && a.fieldsHash() == c.fieldsHash();
    std::printf("| phase | default (computeCrossStencilCached + forEachBoxStencilCached) ms | computeBoxStencil "
                "everywhere ms | ratio |\n|---|---|---|---|\n");
    for (const auto& [name, v] : ms[0]) {
        const Stats s0 = stats(v), s1 = stats(ms[1][name]);
        std::printf("| %s | %s (%s-%s) | %s (%s-%s) | %.2fx |\n", name.c_str(), fmt(s0.median, 3).c_str(),
                    fmt(s0.min, 3).c_str(), fmt(s0.max, 3).c_str(), fmt(s1.median, 3).c_str(), fmt(s1.min, 3).c_str(),
                    fmt(s1.max, 3).c_str(), s1.median / s0.median);
    }
    const Stats t0 = stats(total[0]), t1 = stats(total[1]);
    std::printf("| **step** | **%s** (%s-%s) | **%s** (%s-%s) | **%.2fx** |\n\n", fmt(t0.median, 3).c_str(),
                fmt(t0.min, 3).c_str(), fmt(t0.max, 3).c_str(), fmt(t1.median, 3).c_str(), fmt(t1.min, 3).c_str(),
                fmt(t1.max, 3).c_str(), t1.median / t0.median);
    const Stats t2 = stats(total[2]), cg2 = stats(ms[2]["pressure CG"]);
    std::printf("The default resolvers at block width 512: step %s ms (%s-%s), pressure CG %s ms\n\n",
                fmt(t2.median, 3).c_str(), fmt(t2.min, 3).c_str(), fmt(t2.max, 3).c_str(), fmt(cg2.median, 3).c_str());
    std::vector<float> it(iterations.begin(), iterations.end());
    const Stats its = stats(it);
    std::printf("%d timed steps each (after 3 warm-up), in turns; pressure CG iterations per step: median %.0f "
                "(%.0f-%.0f), tolerance %.0e relative; max |div u| / max |u| after projection: %.1e\n",
                opt.steps - 3, its.median, its.min, its.max, a.params().cgTolerance, maxDiv);
    if (opt.steps > 100) { // the step grows as the plume speeds up: medians over windows of steps
        std::printf("Step medians by window (default / computeBoxStencil):");
        const int bounds[] = {4, 31, 101, opt.steps + 1};
        for (int w = 0; w < 3; ++w) {
            const size_t a = size_t(bounds[w] - 4), b = size_t(bounds[w + 1] - 4);
            const std::vector<float> d(total[0].begin() + a, total[0].begin() + b),
                c(total[1].begin() + a, total[1].begin() + b);
            std::printf("%s steps %d-%d %s / %s ms", w ? ";" : "", bounds[w], bounds[w + 1] - 1,
                        fmt(stats(d).median, 3).c_str(), fmt(stats(c).median, 3).c_str());
        }
        std::printf("\n");
    }
    if (!substeps.empty()) {
        std::vector<float> substepMs[2]; // advection ms per substep
        for (int v = 0; v < 2; ++v)
            for (size_t k = 0; k < substeps.size(); ++k)
                substepMs[v].push_back(ms[v]["advection"][k] / substeps[k]);
        const Stats n = stats(substeps), a0 = stats(substepMs[0]), a1 = stats(substepMs[1]);
        std::printf("Advection substeps per step (CFL <= %.2f each): median %.0f (%.0f-%.0f); per substep %s ms "
                    "(%s-%s), computeBoxStencil %s ms, %.2fx\n",
                    std::min(1.0, a.params().maxCfl), n.median, n.min, n.max, fmt(a0.median, 3).c_str(),
                    fmt(a0.min, 3).c_str(), fmt(a0.max, 3).c_str(), fmt(a1.median, 3).c_str(),
                    a1.median / a0.median);
    }
    std::printf("Fields bitwise identical between the three (both widths) after %d steps: %s\n", opt.steps,
                same ? "yes" : "NO");
    if (!opt.json.empty()) {
        std::ofstream js(opt.json);
        js << "{\"scene\": \"" << jsonEscape(opt.solverScene) << "\", \"commit\": \"" << VBM_GIT_COMMIT
           << "\", \"activeVoxels\": " << a.activeVoxels() << ", \"bytesPerVoxel\": " << mem.perVoxel(mem.total())
           << ", \"defaultStepMs\": " << t0.median << ", \"computeBoxStencilStepMs\": " << t1.median
           << ", \"cgIterationsMedian\": " << its.median << ", \"identical\": " << (same ? "true" : "false") << "}\n";
    }
    return same ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    Options opt;
    try {
        bool help = false;
        opt = parseOptions(argc, argv, help);
        if (help) {
            std::fputs(Usage, stdout);
            return 0;
        }
    } catch (const UsageError& e) {
        std::fprintf(stderr, "vbm-bench: %s (see vbm-bench --help)\n", e.what());
        return 2;
    }
    const auto builtIn = [](const std::string& s) { return s == "small" || s == "thin" || s == "thick"; };
    std::map<std::string, std::vector<BenchGrid>> fileGrids;
    try {
        // Files first: an unreadable file is reported as such, GPU or not.
        for (const auto& spec : opt.grids)
            if (!builtIn(spec) && !fileGrids.count(spec)) fileGrids[spec] = loadGrid(spec);
    } catch (const vbm::InputError& e) {
        std::fprintf(stderr, "vbm-bench: %s\n", e.what());
        return 2;
    }
    const std::string why = vbm::cudaUnavailableReason();
    if (!why.empty()) {
        std::fprintf(stderr, "vbm-bench: needs a CUDA GPU, and this machine has %s\n", why.c_str());
        return 2;
    }
    if (!opt.solverScene.empty()) {
        try {
            return runSolverComparison(opt);
        } catch (const vbm::SceneError& e) {
            std::fprintf(stderr, "vbm-bench: %s\n", e.what());
            return 2;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "vbm-bench: %s\n", e.what());
            return 1;
        }
    }
    try {
        std::vector<BenchGrid> grids;
        for (const auto& spec : opt.grids) {
            if (builtIn(spec)) {
                std::fprintf(stderr, "[vbm-bench] building the %s shell\n", spec.c_str());
                for (auto& g : loadGrid(spec))
                    grids.push_back(std::move(g));
            } else {
                for (auto& g : fileGrids[spec])
                    grids.push_back(std::move(g));
            }
        }

        const std::string device = vbm::cudaDeviceDescription();
        std::printf("# vbm-bench\n\ndevice: %s; commit %s; %d warm-up + %d timed rounds, interleaved; median ms "
                    "(min-max)\n\n",
                    device.c_str(), VBM_GIT_COMMIT, opt.warmup, opt.rounds);
        cudaStream_t stream;
        checkCuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");

        // The copy: 1 GiB device to device, read + written bytes.
        const size_t copyBytes = size_t(1) << 30;
        DeviceArray<char> copySrc(copyBytes), copyDst(copyBytes);
        copySrc.fill(1);

        std::vector<Row> rows;
        std::vector<ResourceRow> res;
        std::vector<std::string> gridJson;
        bool allIdentical = true;
        std::vector<float> copyMs;

        for (const auto& bg : grids) {
            const vbm::IndexGrid* grid = bg.handle.grid<nanovdb::ValueOnIndex>();
            const uint64_t voxels = grid->activeVoxelCount();
            const uint32_t leafCount = grid->tree().nodeCount(0);
            vbm::cuda::DeviceGrid dgrid(bg.handle);
            std::map<int, vbm::VbmMetadata> meta;
            std::map<int, DeviceArray<uint32_t>> dFirst;
            std::map<int, DeviceArray<uint64_t>> dJump;
            std::vector<int> allWidths = opt.widths;
            if (opt.decode) allWidths = {6, 7, 8, 9};
            for (int w : opt.widths)
                if (std::find(allWidths.begin(), allWidths.end(), w) == allWidths.end()) allWidths.push_back(w);
            for (int l : allWidths) {
                meta[l] = vbm::buildVbmOnHost(grid, l);
                dFirst.emplace(l, DeviceArray<uint32_t>(meta[l].firstLeafID));
                dJump.emplace(l, DeviceArray<uint64_t>(meta[l].jumpMap));
            }
            const uint64_t lastOffset = meta[allWidths[0]].extent.lastOffset;
            std::printf("## %s\n\n%s: %llu active voxels, %u leaves, %.1f voxels per leaf (%.1f%%)", bg.name.c_str(),
                        bg.origin.c_str(), (unsigned long long)voxels, leafCount, double(voxels) / leafCount,
                        100.0 * voxels / leafCount / 512);
            std::string fallbackJson;
            for (int l : opt.widths) {
                const uint64_t f = vbm::countFallbackBlocks(meta[l]);
                std::printf("; w%d: %llu blocks, %llu fell back (>16 leaves)", 1 << l,
                            (unsigned long long)meta[l].extent.blockCount, (unsigned long long)f);
                fallbackJson += std::string(fallbackJson.empty() ? "" : ", ") + "\"w" + std::to_string(1 << l) +
                                "\": {\"blocks\": " + std::to_string(meta[l].extent.blockCount) +
                                ", \"fallbackBlocks\": " + std::to_string(f) + "}";
            }
            std::printf("\n\n");
            gridJson.push_back("{\"name\": \"" + jsonEscape(bg.name) + "\", \"origin\": \"" + jsonEscape(bg.origin) +
                               "\", \"activeVoxels\": " + std::to_string(voxels) +
                               ", \"leaves\": " + std::to_string(leafCount) + ", \"widths\": {" + fallbackJson + "}}");

            // The dense floor: a box of about as many voxels.
            const int nx = std::max(8, int(std::lround(std::cbrt(double(voxels)))));
            const int nz = int((voxels + uint64_t(nx) * nx - 1) / (uint64_t(nx) * nx));
            const uint64_t denseVoxels = uint64_t(nx) * nx * nz;

            for (int C : opt.channels) {
                const std::string label = bg.name + ", C=" + std::to_string(C);
                const auto sidecarHost = vbm::randomSidecar(lastOffset + 1, C, 1234 + C);
                DeviceArray<float> sidecar(sidecarHost), out((lastOffset + 1) * C);
                const auto denseHost = vbm::randomSidecar(denseVoxels + 1, C, 777 + C);
                DeviceArray<float> denseIn(denseHost), denseOut(denseVoxels * C);
                // background (index 0) of the dense box: the first C values
                bench::DenseProblem dp{denseIn.data() + C, denseOut.data(), denseIn.data(), nx, nx, nz, C};

                auto problem = [&](int l) {
                    bench::SparseProblem p;
                    p.grid = dgrid.grid();
                    p.leafCount = leafCount;
                    p.firstLeafID = dFirst.at(l).data();
                    p.jumpMap = dJump.at(l).data();
                    p.firstOffset = meta.at(l).extent.firstOffset;
                    p.blockCount = meta.at(l).extent.blockCount;
                    p.log2Width = l;
                    p.sidecar = sidecar.data();
                    p.out = out.data();
                    p.channels = C;
                    return p;
                };

                struct Meta {
                    std::string variant, shape;
                    int width;
                    double bytes;
                };
                std::vector<Variant> vs;
                std::vector<Meta> info;
                const double sparseBytes = 2.0 * voxels * C * 4 + double(leafCount) * sizeof(vbm::IndexLeaf);
                for (int l : opt.widths) {
                    const double metaBytes = double(meta[l].extent.blockCount) * (4 + 8 * ((1 << l) / 64));
                    for (Resolver r : vbm::AllResolvers) {
                        const auto p = problem(l);
                        vs.push_back({std::string(vbm::resolverName(r)) + "@" + std::to_string(1 << l),
                                      [p, r](cudaStream_t s) { bench::launchVbmConsumer(r, p, s); },
                                      {}});
                        info.push_back({vbm::resolverName(r), vbm::isBoxResolver(r) ? "box" : "cross", 1 << l,
                                        sparseBytes + metaBytes});
                    }
                }
                const auto p0 = problem(opt.widths[0]);
                for (bool box : {true, false}) {
                    vs.push_back({box ? "ReadAccessor box" : "ReadAccessor cross",
                                  [p0, box](cudaStream_t s) { bench::launchAccessorConsumer(box, p0, s); },
                                  {}});
                    info.push_back({vs.back().key, box ? "box" : "cross", 0, sparseBytes});
                }
                for (bool box : {false, true}) {
                    vs.push_back({box ? "dense 27-point" : "dense 7-point",
                                  [dp, box](cudaStream_t s) { bench::launchDenseConsumer(box, dp, s); },
                                  {}});
                    info.push_back({vs.back().key, box ? "box" : "cross", 0, 2.0 * denseVoxels * C * 4});
                }
                char* cs = copySrc.data();
                char* cd = copyDst.data();
                vs.push_back({"copy",
                              [cs, cd, copyBytes](cudaStream_t s) {
                                  checkCuda(cudaMemcpyAsync(cd, cs, copyBytes, cudaMemcpyDeviceToDevice, s),
                                            "cudaMemcpyAsync");
                              },
                              {}});
                info.push_back({"device copy (1 GiB)", "-", 0, 2.0 * copyBytes});

                // Correctness: every variant once on poisoned output, compared with the baseline of its shape.
                std::map<std::string, std::vector<float>> baseline;
                for (size_t i = 0; i < vs.size(); ++i) {
                    const bool dense = info[i].variant.rfind("dense", 0) == 0;
                    if (info[i].shape == "-") continue;
                    DeviceArray<float>& o = dense ? denseOut : out;
                    o.fill(0xff);
                    vs[i].launch(stream);
                    checkCuda(cudaStreamSynchronize(stream), ("the check run of " + vs[i].key).c_str());
                    std::vector<float> got = o.download();
                    if (dense) {
                        // against a host sum in double, at sampled voxels (reassociation differs)
                        const auto v = [&](int x, int y, int z, int ch) -> double {
                            if (x < 0 || y < 0 || z < 0 || x >= nx || y >= nx || z >= nz) return denseHost[ch];
                            return denseHost[C + ((size_t(z) * nx + y) * nx + x) * C + ch];
                        };
                        uint64_t bad = 0;
                        for (uint64_t s = 0; s < denseVoxels; s += 97) {
                            const int x = int(s % nx), y = int(s / nx % nx), z = int(s / (uint64_t(nx) * nx));
                            for (int ch = 0; ch < C; ++ch) {
                                double want = 0;
                                if (info[i].shape == "box") {
                                    for (int dz = -1; dz <= 1; ++dz)
                                        for (int dy = -1; dy <= 1; ++dy)
                                            for (int dx = -1; dx <= 1; ++dx)
                                                want += v(x + dx, y + dy, z + dz, ch);
                                } else {
                                    want = v(x, y, z, ch) + v(x - 1, y, z, ch) + v(x + 1, y, z, ch) +
                                           v(x, y - 1, z, ch) + v(x, y + 1, z, ch) + v(x, y, z - 1, ch) +
                                           v(x, y, z + 1, ch);
                                }
                                if (!(std::abs(got[s * C + ch] - want) <= 1e-4 * (1 + std::abs(want)))) ++bad;
                            }
                        }
                        if (bad) {
                            allIdentical = false;
                            std::printf("MISMATCH: %s (%s): %llu sampled outputs differ from the host sum\n",
                                        vs[i].key.c_str(), label.c_str(), (unsigned long long)bad);
                        }
                        continue;
                    }
                    auto it = baseline.find(info[i].shape);
                    if (it == baseline.end()) {
                        // The first of a shape is the baseline (computeBoxStencil / computeCrossStencil at the
                        // first width): checked against a host ReadAccessor sum at sampled voxels, and for
                        // being written everywhere.
                        auto acc = grid->getAccessor();
                        uint64_t bad = 0;
                        for (uint32_t li = 0; li < leafCount; li += 7) {
                            const auto& leaf = vbm::leaves(grid)[li];
                            for (auto on = leaf.valueMask().beginOn(); on; ++on) {
                                const nanovdb::Coord c = leaf.offsetToGlobalCoord(*on);
                                const uint64_t index = leaf.getValue(*on);
                                std::vector<uint64_t> taps;
                                if (info[i].shape == "box") {
                                    for (int t = 0; t < 27; ++t)
                                        taps.push_back(
                                            acc.getValue(c + nanovdb::Coord(t / 9 - 1, t / 3 % 3 - 1, t % 3 - 1)));
                                } else {
                                    const nanovdb::Coord d[7] = {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0},
                                                                 {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
                                    for (auto& dd : d)
                                        taps.push_back(acc.getValue(c + dd));
                                }
                                for (int ch = 0; ch < C; ++ch) {
                                    float s = 0.f;
                                    for (uint64_t t : taps)
                                        s += sidecarHost[t * C + ch];
                                    bad += std::memcmp(&s, &got[index * C + ch], 4) != 0;
                                }
                            }
                        }
                        uint64_t unwritten = 0;
                        for (uint64_t k = C; k < got.size(); ++k)
                            unwritten += std::isnan(got[k]);
                        if (bad || unwritten) {
                            allIdentical = false;
                            std::printf("MISMATCH: baseline %s (%s): %llu sampled outputs differ from the host "
                                        "ReadAccessor sum, %llu unwritten\n",
                                        vs[i].key.c_str(), label.c_str(), (unsigned long long)bad,
                                        (unsigned long long)unwritten);
                        }
                        baseline.emplace(info[i].shape, std::move(got));
                        continue;
                    }
                    if (std::memcmp(got.data() + C, it->second.data() + C, (got.size() - C) * 4) != 0) {
                        allIdentical = false;
                        uint64_t n = 0;
                        for (size_t k = C; k < got.size(); ++k)
                            n += std::memcmp(&got[k], &it->second[k], 4) != 0;
                        std::printf("MISMATCH: %s (%s): %llu of %llu outputs differ from the baseline's\n",
                                    vs[i].key.c_str(), label.c_str(), (unsigned long long)n,
                                    (unsigned long long)(got.size() - C));
                    }
                }

                runRounds(vs, opt.warmup, opt.rounds, label, stream);

                // Tables.
                std::map<std::string, Stats> st;
                for (auto& v : vs)
                    st[v.key] = stats(v.ms);
                for (auto& v : vs)
                    if (v.key == "copy") copyMs.insert(copyMs.end(), v.ms.begin(), v.ms.end());
                const auto base = [&](int w) { return st["computeBoxStencil@" + std::to_string(w)].median; };
                for (size_t i = 0; i < vs.size(); ++i) {
                    Row row;
                    row.grid = bg.name;
                    row.variant = info[i].variant;
                    row.shape = info[i].shape;
                    row.width = info[i].width;
                    row.channels = C;
                    row.ms = st[vs[i].key];
                    row.ratio = base(info[i].width ? info[i].width : 1 << opt.widths[0]) / row.ms.median;
                    row.voxelsPerSecond = row.shape == "-" ? 0 : double(voxels) / (row.ms.median * 1e-3);
                    row.bytes = info[i].bytes;
                    row.gbps = info[i].bytes / (row.ms.median * 1e-3) / 1e9;
                    rows.push_back(row);
                }
                std::printf("### %s, C = %d\n\n", bg.name.c_str(), C);
                std::printf("| method | shape | resolution | divergent-safe | smem | output |");
                for (int l : opt.widths)
                    std::printf(" w%d ms | w%d x |", 1 << l, 1 << l);
                std::printf("\n|---|---|---|---|---|---|");
                for (size_t k = 0; k < opt.widths.size(); ++k)
                    std::printf("---|---|");
                std::printf("\n");
                for (Resolver r : vbm::VbmResolvers) {
                    const auto k0 = vbm::resolverName(r);
                    const bench::KernelRef kr = bench::vbmConsumerKernel(r, opt.widths[0], C);
                    cudaFuncAttributes a{};
                    checkCuda(cudaFuncGetAttributes(&a, kr.function), "cudaFuncGetAttributes");
                    std::printf("| %s | %s | %s | %s | %s | %s |", k0,
                                vbm::isBoxResolver(r) ? "27-tap box" : "7-pt cross", resolution(r),
                                vbm::isDivergentSafe(r) ? "yes" : "no",
                                a.sharedSizeBytes ? (std::to_string(a.sharedSizeBytes) + " B").c_str() : "none",
                                vbm::isStreamedResolver(r) ? "streamed" : "materialized");
                    for (int l : opt.widths) {
                        const Stats& s = st[std::string(k0) + "@" + std::to_string(1 << l)];
                        std::printf(" %s (%s-%s) | %.2fx |", fmt(s.median, 4).c_str(), fmt(s.min, 4).c_str(),
                                    fmt(s.max, 4).c_str(), base(1 << l) / s.median);
                    }
                    std::printf("\n");
                }
                std::printf("\nPeers (x: against computeBoxStencil at w%d; GB/s: bytes that must move / median):\n\n",
                            1 << opt.widths[0]);
                std::printf(
                    "| method | shape | median ms (min-max) | x | Mvoxels/s | GB/s |\n|---|---|---|---|---|---|\n");
                for (const Row& row : rows) {
                    if (row.grid != bg.name || row.channels != C) continue;
                    const bool ours = row.width && row.variant != "NanoVDB13";
                    if (ours) continue;
                    std::string name =
                        row.variant == "NanoVDB13"
                            ? "NanoVDB 13.0.0 VBM (sweep decode + computeBoxStencil) w" + std::to_string(row.width)
                            : row.variant;
                    std::printf("| %s | %s | %s (%s-%s) | %.2fx | %s | %s |\n", name.c_str(), row.shape.c_str(),
                                fmt(row.ms.median, 4).c_str(), fmt(row.ms.min, 4).c_str(), fmt(row.ms.max, 4).c_str(),
                                row.ratio, row.voxelsPerSecond ? fmt(row.voxelsPerSecond / 1e6, 0).c_str() : "-",
                                fmt(row.gbps, 0).c_str());
                }
                std::printf("\nEffective bandwidth of ours (GB/s):");
                for (const Row& row : rows)
                    if (row.grid == bg.name && row.channels == C && row.width && row.variant != "NanoVDB13")
                        std::printf(" %s@%d %s;", row.variant.c_str(), row.width, fmt(row.gbps, 0).c_str());
                std::printf("\n\n");
                std::fflush(stdout);
            }

            // Decode alone.
            if (opt.decode) {
                std::vector<Variant> vs;
                std::vector<std::pair<int, bool>> which;
                std::map<int, DeviceArray<uint32_t>> li;
                std::map<int, DeviceArray<uint16_t>> vo;
                for (int l = 6; l <= 9; ++l) {
                    const uint64_t slots = meta[l].extent.blockCount << l;
                    li.emplace(l, DeviceArray<uint32_t>(slots));
                    vo.emplace(l, DeviceArray<uint16_t>(slots));
                    std::vector<uint32_t> ref[2];
                    std::vector<uint16_t> refVo[2];
                    for (bool nano : {false, true}) {
                        bench::SparseProblem p;
                        p.grid = dgrid.grid();
                        p.leafCount = leafCount;
                        p.firstLeafID = dFirst.at(l).data();
                        p.jumpMap = dJump.at(l).data();
                        p.firstOffset = meta[l].extent.firstOffset;
                        p.blockCount = meta[l].extent.blockCount;
                        p.log2Width = l;
                        uint32_t* a = li.at(l).data();
                        uint16_t* b = vo.at(l).data();
                        vs.push_back({std::string(nano ? "NanoVDB13 sweep" : "select") + "@" + std::to_string(1 << l),
                                      [p, nano, a, b](cudaStream_t s) { bench::launchDecode(nano, p, a, b, s); },
                                      {}});
                        which.push_back({l, nano});
                        li.at(l).fill(0x5a), vo.at(l).fill(0x5a);
                        vs.back().launch(stream);
                        checkCuda(cudaStreamSynchronize(stream), "decode check run");
                        ref[nano] = li.at(l).download();
                        refVo[nano] = vo.at(l).download();
                    }
                    const auto c = vbm::checkDecode(grid, meta[l], ref[0], refVo[0]);
                    if (!c.ok() || ref[0] != ref[1] || refVo[0] != refVo[1]) {
                        allIdentical = false;
                        std::printf("MISMATCH: decode at w%d: %s\n", 1 << l,
                                    c.ok() ? "ours differs from NanoVDB13's" : c.firstMismatch.c_str());
                    }
                }
                runRounds(vs, opt.warmup, opt.rounds, bg.name + ", decode alone", stream);
                std::printf("### %s, decode alone (leafIndex + voxelOffset of every slot written out)\n\n",
                            bg.name.c_str());
                std::printf("| width | NanoVDB 13.0.0 sweep ms | our select ms | speedup |\n|---|---|---|---|\n");
                for (int l = 6; l <= 9; ++l) {
                    Stats s[2];
                    for (size_t i = 0; i < vs.size(); ++i)
                        if (which[i].first == l) s[which[i].second] = stats(vs[i].ms);
                    std::printf("| %d | %s (%s-%s) | %s (%s-%s) | %.2fx |\n", 1 << l, fmt(s[1].median, 4).c_str(),
                                fmt(s[1].min, 4).c_str(), fmt(s[1].max, 4).c_str(), fmt(s[0].median, 4).c_str(),
                                fmt(s[0].min, 4).c_str(), fmt(s[0].max, 4).c_str(), s[1].median / s[0].median);
                    for (bool nano : {false, true}) {
                        Row row;
                        row.grid = bg.name;
                        row.variant = nano ? "decode NanoVDB13 sweep" : "decode select";
                        row.shape = "decode";
                        row.width = 1 << l;
                        row.ms = s[nano];
                        row.ratio = s[1].median / s[nano].median;
                        row.voxelsPerSecond = double(voxels) / (row.ms.median * 1e-3);
                        row.bytes = double(meta[l].extent.blockCount << l) * 6;
                        row.gbps = row.bytes / (row.ms.median * 1e-3) / 1e9;
                        rows.push_back(row);
                    }
                }
                std::printf("\n");
            }
        }

        // Resources of every kernel.
        for (int C : opt.channels) {
            for (int l : opt.widths)
                for (Resolver r : vbm::AllResolvers)
                    res.push_back(resources(std::string(vbm::resolverName(r)) + " w" + std::to_string(1 << l) + " C" +
                                                std::to_string(C),
                                            bench::vbmConsumerKernel(r, l, C)));
            for (bool box : {true, false})
                res.push_back(
                    resources(std::string("ReadAccessor ") + (box ? "box" : "cross") + " C" + std::to_string(C),
                              bench::accessorConsumerKernel(box, C)));
            for (bool box : {false, true})
                res.push_back(
                    resources(std::string("dense ") + (box ? "27-point" : "7-point") + " C" + std::to_string(C),
                              bench::denseConsumerKernel(box, C)));
        }
        for (int l = 6; l <= 9; ++l)
            for (bool nano : {false, true})
                res.push_back(resources(std::string("decode ") + (nano ? "NanoVDB13 sweep" : "select") + " w" +
                                            std::to_string(1 << l),
                                        bench::decodeKernel(nano, l)));
        std::printf("## Kernel resources (sm_%s) and occupancy\n\n", device.substr(device.find("sm_") + 3, 2).c_str());
        std::printf("| kernel | registers | stack frame B | static smem B | block | resident warps/SM |\n"
                    "|---|---|---|---|---|---|\n");
        for (const auto& r : res)
            std::printf("| %s | %d | %d | %d | %d | %d |\n", r.kernel.c_str(), r.regs, r.stack, r.smem, r.blockSize,
                        r.warpsPerSM);
        const Stats copy = stats(copyMs);
        const double copyGBps = 2.0 * copyBytes / (copy.median * 1e-3) / 1e9;
        std::printf("\nDevice copy bandwidth: %.0f GB/s (1 GiB device-to-device, read + written, median of %zu)\n",
                    copyGBps, copyMs.size());
        std::printf("\nAll outputs identical to their baseline: %s\n", allIdentical ? "yes" : "NO");

        if (!opt.json.empty()) {
            std::ofstream js(opt.json);
            if (!js) throw std::runtime_error("cannot write " + opt.json);
            js << "{\n  \"device\": \"" << jsonEscape(device) << "\",\n  \"commit\": \"" << VBM_GIT_COMMIT
               << "\",\n  \"warmup\": " << opt.warmup << ", \"rounds\": " << opt.rounds
               << ",\n  \"copyGBps\": " << copyGBps << ",\n  \"allIdentical\": " << (allIdentical ? "true" : "false")
               << ",\n  \"grids\": [\n    ";
            for (size_t i = 0; i < gridJson.size(); ++i)
                js << (i ? ",\n    " : "") << gridJson[i];
            js << "\n  ],\n  \"results\": [\n";
            for (size_t i = 0; i < rows.size(); ++i) {
                const Row& r = rows[i];
                js << "    {\"grid\": \"" << jsonEscape(r.grid) << "\", \"variant\": \"" << jsonEscape(r.variant)
                   << "\", \"shape\": \"" << r.shape << "\", \"width\": " << r.width << ", \"channels\": " << r.channels
                   << ", \"medianMs\": " << r.ms.median << ", \"minMs\": " << r.ms.min << ", \"maxMs\": " << r.ms.max
                   << ", \"ratioVsComputeBoxStencil\": " << r.ratio << ", \"voxelsPerSecond\": " << r.voxelsPerSecond
                   << ", \"bytesThatMustMove\": " << r.bytes << ", \"effectiveGBps\": " << r.gbps << "}"
                   << (i + 1 < rows.size() ? ",\n" : "\n");
            }
            js << "  ],\n  \"kernels\": [\n";
            for (size_t i = 0; i < res.size(); ++i) {
                const auto& r = res[i];
                js << "    {\"kernel\": \"" << r.kernel << "\", \"registers\": " << r.regs
                   << ", \"stackBytes\": " << r.stack << ", \"staticSmemBytes\": " << r.smem
                   << ", \"blockSize\": " << r.blockSize << ", \"residentWarpsPerSM\": " << r.warpsPerSM << "}"
                   << (i + 1 < res.size() ? ",\n" : "\n");
            }
            js << "  ]\n}\n";
        }
        cudaStreamDestroy(stream);
        return allIdentical ? 0 : 1;
    } catch (const vbm::InputError& e) {
        std::fprintf(stderr, "vbm-bench: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vbm-bench: %s\n", e.what());
        return 1;
    }
}
