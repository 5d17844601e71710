// SPDX-License-Identifier: Apache-2.0
// vbm-check: runs every resolver at every block width over a grid, on the CPU and on the
// GPU when there is one, and checks every tap of every slot against NanoVDB's ReadAccessor.
// The command line is read, in the three programs' grammar, and failures end through the
// shared helper (cli/CommandLine.h).
#include "CommandLine.h"
#include "DeviceQueries.h"
#include "GridFile.h"
#include "GridGenerators.h"
#include "TapRuns.h"
#include "vbm/BuildVoxelBlockManager.h"
#include "vbm/Resolver.h"
#if VBM_HAVE_CUDA
#include "DeviceRuns.h"
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

const char* Usage = R"(usage: vbm-check [options] [FILE.nvdb ...]

Checks the VoxelBlockManager layer on a grid: for every block width (64, 128, 256, 512)
it builds the VBM, decodes every slot and runs each of the six stencil resolvers, on the
CPU and, when a CUDA GPU is present, on the GPU (there also NanoVDB 13.0.0's own
build, decode and computeBoxStencil); every tap of every active voxel is compared with
NanoVDB's ReadAccessor. Prints one line per (grid, device, check, width) and ends with
"N passed, M failed".

With no FILE, checks the built-in sphere shell (about 1.29M active voxels). Each FILE is
read whole: float and double grids are turned into OnIndex grids over their active
voxels; OnIndex grids are used as they are (re-indexed if they index tiles or stats).

options:
  --backend LIST       where to check, of cpu,cuda (default: the CPU, and the GPU when one
                       is usable; naming cuda makes a missing GPU an error)
  --block-width LIST   only these block widths, of 64,128,256,512 (default: all four)
  -h, --help           this text

Lists are comma-separated; a list flag given twice adds to the first.

exit codes: 0 all passed, 1 a check failed or a run failed, 2 bad usage or input
)";

using vbm::cli::UsageError;

struct CheckOptions {
    bool help = false;
    bool cpu = true, gpu = true, gpuRequired = false; ///< --backend (none: the CPU, the GPU if usable)
    std::vector<int> widths;                          ///< log2 of the block widths to check
    std::vector<std::string> files;
};

CheckOptions parseOptions(int argc, char** argv)
{
    CheckOptions o;
    vbm::cli::ArgReader r("vbm-check", argc, argv);
    bool backendGiven = false;
    while (const auto a = r.next()) {
        if (*a == "-h" || *a == "--help") {
            o.help = true;
            break;
        } else if (*a == "--backend") {
            // A list, and given twice the lists join (--cpu --gpu: both, the GPU required).
            if (!backendGiven) o.cpu = o.gpu = false;
            backendGiven = true;
            for (vbm::Backend b : r.backends())
                (b == vbm::Backend::Cpu ? o.cpu : o.gpu) = true;
            o.gpuRequired = o.gpu;
        } else if (*a == "--block-width") {
            vbm::cli::appendNew(o.widths, r.blockWidths({64, 128, 256, 512}));
        } else if (a->size() > 1 && (*a)[0] == '-') {
            throw UsageError("unknown option '" + *a + "'");
        } else {
            o.files.push_back(*a);
        }
    }
    if (o.widths.empty()) o.widths = {6, 7, 8, 9};
    r.printNotes();
    return o;
}

/// Whether the GPU checks run: asked for and possible. Throws UsageError when --gpu cannot be honoured.
bool gpuChecksRun(const CheckOptions& o)
{
    if (!o.gpu) return false;
    std::string why = "built without CUDA";
#if VBM_HAVE_CUDA
    why = vbm::cudaUnavailableReason();
#endif
    if (why.empty()) {
#if VBM_HAVE_CUDA
        std::printf("GPU: %s\n", vbm::cudaDeviceDescription().c_str());
#endif
        return true;
    }
    if (o.gpuRequired) throw UsageError("--backend cuda: the GPU checks cannot run here (" + why + ")");
    std::printf("note: GPU checks skipped: %s\n", why.c_str());
    return false;
}

std::vector<vbm::LoadedGrid> loadGrids(const std::vector<std::string>& files)
{
    std::vector<vbm::LoadedGrid> grids;
    if (files.empty()) grids.push_back({"sphere-shell", "built-in", vbm::makeBenchmarkShell()});
    for (const auto& f : files) {
        std::vector<std::string> skipped;
        auto loaded = vbm::loadGridFile(f, &skipped);
        for (const auto& s : skipped)
            std::printf("note: %s\n", s.c_str());
        for (auto& g : loaded)
            grids.push_back(std::move(g));
    }
    return grids;
}

struct Tally {
    int passed = 0, failed = 0;
    void line(bool ok, const std::string& grid, const char* device, const std::string& what, int width,
              const std::string& detail, double seconds)
    {
        (ok ? passed : failed)++;
        std::printf("%s  %-28s %-4s %-26s w%-4d %s (%.2f s)\n", ok ? "PASS" : "FAIL", grid.c_str(), device,
                    what.c_str(), width, detail.c_str(), seconds);
        std::fflush(stdout);
    }
};

double since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string describe(const vbm::CheckResult& r)
{
    std::string s = std::to_string(r.checkedSlots) + " slots";
    if (!r.ok()) s += ", " + std::to_string(r.mismatches) + " wrong; first: " + r.firstMismatch;
    return s;
}

// Resolves in chunks of blocks so that a large grid's taps never need more than ~0.5 GB at once.
vbm::CheckResult resolveAndCheck(const vbm::IndexGrid* grid, const vbm::VbmMetadata& m, vbm::Resolver r,
                                 const std::function<std::vector<uint64_t>(uint64_t, uint64_t)>& run)
{
    const uint64_t slotBytes = uint64_t(vbm::tapCount(r)) * 8u << m.log2BlockWidth;
    const uint64_t chunk = std::max<uint64_t>(1, (uint64_t(512) << 20) / slotBytes);
    vbm::CheckResult total;
    for (uint64_t b0 = 0; b0 < m.extent.blockCount; b0 += chunk) {
        const uint64_t b1 = std::min(m.extent.blockCount, b0 + chunk);
        const auto c = vbm::checkTaps(grid, m, vbm::isBoxResolver(r), b0, b1, run(b0, b1));
        total.checkedSlots += c.checkedSlots;
        total.idleSlots += c.idleSlots;
        if (c.mismatches && total.firstMismatch.empty()) total.firstMismatch = c.firstMismatch;
        total.mismatches += c.mismatches;
    }
    return total;
}

void checkOnCpu(const std::string& name, const vbm::IndexGrid* grid, const std::vector<int>& widths, Tally& tally)
{
    for (int l : widths) {
        const int width = 1 << l;
        auto t0 = std::chrono::steady_clock::now();
        const vbm::VbmMetadata m = vbm::buildVbmOnHost(grid, l);
        std::vector<uint32_t> li;
        std::vector<uint16_t> vo;
        vbm::decodeOnHost(grid, m, li, vo);
        const auto d = vbm::checkDecode(grid, m, li, vo);
        tally.line(d.ok(), name, "cpu", "decodeInverseMap", width, describe(d), since(t0));
        for (vbm::Resolver r : vbm::VbmResolvers) {
            t0 = std::chrono::steady_clock::now();
            const auto c = resolveAndCheck(
                grid, m, r, [&](uint64_t b0, uint64_t b1) { return vbm::resolveTapsOnHost(grid, m, r, b0, b1); });
            std::string detail = describe(c);
            if (vbm::isCachedResolver(r))
                detail += ", " + std::to_string(vbm::countFallbackBlocks(m)) + " fallback blocks";
            tally.line(c.ok(), name, "cpu", vbm::resolverName(r), width, detail, since(t0));
        }
    }
}

#if VBM_HAVE_CUDA
void checkOnGpu(const std::string& name, const vbm::HostGridHandle& handle, const std::vector<int>& widths,
                Tally& tally)
{
    const vbm::IndexGrid* grid = handle.grid<nanovdb::ValueOnIndex>();
    vbm::cuda::DeviceGrid dgrid(handle);
    for (int l : widths) {
        const int width = 1 << l;
        auto t0 = std::chrono::steady_clock::now();
        const vbm::VbmMetadata host = vbm::buildVbmOnHost(grid, l);
        const vbm::VbmMetadata ours = vbm::cuda::buildVbmOnDevice(dgrid, host.extent, l, false);
        const vbm::VbmMetadata nano = vbm::cuda::buildVbmOnDevice(dgrid, host.extent, l, true);
        const bool buildOk = ours.firstLeafID == host.firstLeafID && ours.jumpMap == host.jumpMap &&
                             nano.firstLeafID == host.firstLeafID && nano.jumpMap == host.jumpMap;
        tally.line(buildOk, name, "gpu", "build == NanoVDB13 == host", width,
                   std::to_string(host.extent.blockCount) + " blocks", since(t0));

        t0 = std::chrono::steady_clock::now();
        std::vector<uint32_t> li, nli;
        std::vector<uint16_t> vo, nvo;
        vbm::cuda::decodeOnDevice(dgrid, host, false, li, vo);
        vbm::cuda::decodeOnDevice(dgrid, host, true, nli, nvo);
        auto d = vbm::checkDecode(grid, host, li, vo);
        if (d.ok() && (li != nli || vo != nvo)) {
            d.mismatches = 1;
            d.firstMismatch = "differs from NanoVDB13's decodeInverseMaps";
        }
        tally.line(d.ok(), name, "gpu", "decode == NanoVDB13", width, describe(d), since(t0));

        for (vbm::Resolver r : vbm::AllResolvers) {
            t0 = std::chrono::steady_clock::now();
            const auto c = resolveAndCheck(grid, host, r, [&](uint64_t b0, uint64_t b1) {
                return vbm::cuda::resolveTapsOnDevice(dgrid, host, r, b0, b1);
            });
            tally.line(c.ok(), name, "gpu", vbm::resolverName(r), width, describe(c), since(t0));
        }
    }
}
#endif

} // namespace

int main(int argc, char** argv)
{
    return vbm::cli::guardedMain("vbm-check", [&] {
        const CheckOptions o = parseOptions(argc, argv);
        if (o.help) {
            std::fputs(Usage, stdout);
            std::fputs(vbm::cli::deprecatedLine("vbm-check").c_str(), stdout);
            return 0;
        }
        [[maybe_unused]] const bool gpu = gpuChecksRun(o);
        const std::vector<vbm::LoadedGrid> grids = loadGrids(o.files);
        Tally tally;
        for (const auto& g : grids) {
            const vbm::IndexGrid* grid = g.handle.grid<nanovdb::ValueOnIndex>();
            std::printf("grid %s: %s, %llu active voxels in %u leaves\n", g.name.c_str(), g.origin.c_str(),
                        (unsigned long long)grid->activeVoxelCount(), grid->tree().nodeCount(0));
            if (o.cpu) checkOnCpu(g.name, grid, o.widths, tally);
#if VBM_HAVE_CUDA
            if (gpu) checkOnGpu(g.name, g.handle, o.widths, tally);
#endif
        }
        std::printf("%d passed, %d failed\n", tally.passed, tally.failed);
        return tally.failed ? 1 : 0;
    });
}
