// The grids vbm-bench runs on (see BenchGrids.h).
#include "BenchGrids.h"

#include "GridFile.h"
#include "TapRuns.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bench {

bool isBuiltInGrid(const std::string& s) { return s == "small" || s == "thin" || s == "thick"; }

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

std::map<std::string, std::vector<BenchGrid>> loadFileGrids(const std::vector<std::string>& specs)
{
    std::map<std::string, std::vector<BenchGrid>> fileGrids;
    for (const auto& spec : specs)
        if (!isBuiltInGrid(spec) && !fileGrids.count(spec)) fileGrids[spec] = loadGrid(spec);
    return fileGrids;
}

std::vector<BenchGrid> collectGrids(const std::vector<std::string>& specs,
                                    std::map<std::string, std::vector<BenchGrid>>& fileGrids)
{
    std::vector<BenchGrid> grids;
    for (const auto& spec : specs) {
        if (isBuiltInGrid(spec)) {
            std::fprintf(stderr, "[vbm-bench] building the %s shell\n", spec.c_str());
            for (auto& g : loadGrid(spec))
                grids.push_back(std::move(g));
        } else {
            for (auto& g : fileGrids[spec])
                grids.push_back(std::move(g));
        }
    }
    return grids;
}

DenseBox denseBoxFor(uint64_t voxels)
{
    DenseBox b;
    b.nx = std::max(8, int(std::lround(std::cbrt(double(voxels)))));
    b.nz = int((voxels + uint64_t(b.nx) * b.nx - 1) / (uint64_t(b.nx) * b.nx));
    b.voxels = uint64_t(b.nx) * b.nx * b.nz;
    return b;
}

GridOnDevice::GridOnDevice(const BenchGrid& grid, const std::vector<int>& log2Widths)
    : source(grid), host(grid.handle.grid<nanovdb::ValueOnIndex>()), voxels(host->activeVoxelCount()),
      leafCount(host->tree().nodeCount(0)), device(grid.handle)
{
    for (int l : log2Widths) {
        meta[l] = vbm::buildVbmOnHost(host, l);
        firstLeafID.emplace(l, vbm::cuda::DeviceArray<uint32_t>(meta[l].firstLeafID));
        jumpMap.emplace(l, vbm::cuda::DeviceArray<uint64_t>(meta[l].jumpMap));
    }
    lastOffset = meta.at(log2Widths.at(0)).extent.lastOffset;
}

SparseProblem GridOnDevice::problem(int l) const
{
    SparseProblem p;
    p.grid = device.grid();
    p.leafCount = leafCount;
    p.firstLeafID = firstLeafID.at(l).data();
    p.jumpMap = jumpMap.at(l).data();
    p.firstOffset = meta.at(l).extent.firstOffset;
    p.blockCount = meta.at(l).extent.blockCount;
    p.log2Width = l;
    return p;
}

} // namespace bench
