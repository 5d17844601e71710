// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the bytes are a .nvdb file for vbm::loadGridFile. Each grid it returns
// must satisfy checkVbmGrid (its contract), and then goes through what vbm-check does on the
// CPU: build the VBM (width 128), decode every block and check the decode against the tree,
// and resolve one box and one cross stencil and check the taps against NanoVDB's accessor.
// InputError is the correct answer to a bad file; any other exception, a crash, a sanitizer
// report, a timeout or a failed check is a finding (docs/testing.md).
// VBM_FUZZ_GRID_MIN_BYTES=N skips inputs shorter than N bytes: an aid for exploring past a
// known crash on short files (libFuzzer runs the empty input first in every job); CI leaves
// it unset.
#include "FuzzSupport.h"

#include "GridFile.h"
#include "TapRuns.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace {

std::string inputPath;
size_t minBytes = 0;

// Grids larger than this many active voxels are loaded and checked, but not resolved (speed).
constexpr uint64_t MaxResolvedVoxels = uint64_t(1) << 18;

void checkGrid(const vbm::LoadedGrid& g)
{
    const auto* grid = g.handle.grid<nanovdb::ValueOnIndex>();
    if (!grid) vbm::fuzz::lie(g.name + ": loadGridFile returned a grid that is not OnIndex");
    if (const std::string why = vbm::checkVbmGrid(grid); !why.empty())
        vbm::fuzz::lie(g.name + ": loadGridFile returned a grid checkVbmGrid refuses: " + why);
    const vbm::VbmMetadata m = vbm::buildVbmOnHost(grid, 7);
    if (m.extent.lastOffset - m.extent.firstOffset + 1 > MaxResolvedVoxels) return;
    std::vector<uint32_t> leafIndex;
    std::vector<uint16_t> voxelOffset;
    vbm::decodeOnHost(grid, m, leafIndex, voxelOffset);
    if (const auto d = vbm::checkDecode(grid, m, leafIndex, voxelOffset); !d.ok())
        vbm::fuzz::lie(g.name + ": decodeInverseMap: " + d.firstMismatch);
    for (vbm::Resolver r : {vbm::Resolver::computeBoxStencilCached, vbm::Resolver::computeCrossStencil}) {
        const auto taps = vbm::resolveTapsOnHost(grid, m, r, 0, m.extent.blockCount);
        if (const auto c = vbm::checkTaps(grid, m, vbm::isBoxResolver(r), 0, m.extent.blockCount, taps); !c.ok())
            vbm::fuzz::lie(g.name + ": " + vbm::resolverName(r) + ": " + c.firstMismatch);
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    inputPath = (vbm::fuzz::scratchDir() / "input.nvdb").string();
    if (const char* m = std::getenv("VBM_FUZZ_GRID_MIN_BYTES")) minBytes = std::strtoull(m, nullptr, 10);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < minBytes) return 0;
    FILE* f = std::fopen(inputPath.c_str(), "wb");
    if (!f || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0) {
        std::perror(("vbm-fuzz: cannot write " + inputPath).c_str());
        std::abort();
    }
    try {
        std::vector<std::string> skipped;
        for (const auto& g : vbm::loadGridFile(inputPath, &skipped))
            checkGrid(g);
    } catch (const vbm::InputError&) {
    }
    return 0;
}
