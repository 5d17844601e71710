// SPDX-License-Identifier: Apache-2.0
// vbm-bench's JSON writers (see JsonWriter.h).
#include "JsonWriter.h"

#include <fstream>
#include <stdexcept>

namespace bench {

namespace {

std::ofstream openJson(const std::string& path)
{
    std::ofstream js(path);
    if (!js) throw std::runtime_error("cannot write " + path);
    return js;
}

void writeRow(std::ostream& js, const Row& r)
{
    js << "    {\"grid\": \"" << jsonEscape(r.grid) << "\", \"variant\": \"" << jsonEscape(r.variant)
       << "\", \"shape\": \"" << r.shape << "\", \"width\": " << r.width << ", \"channels\": " << r.channels
       << ", \"medianMs\": " << r.ms.median << ", \"minMs\": " << r.ms.min << ", \"maxMs\": " << r.ms.max
       << ", \"ratioVsComputeBoxStencil\": " << r.ratio << ", \"voxelsPerSecond\": " << r.voxelsPerSecond
       << ", \"bytesThatMustMove\": " << r.bytes << ", \"effectiveGBps\": " << r.gbps << "}";
}

void writeKernel(std::ostream& js, const ResourceRow& r)
{
    js << "    {\"kernel\": \"" << r.kernel << "\", \"registers\": " << r.regs << ", \"stackBytes\": " << r.stack
       << ", \"staticSmemBytes\": " << r.smem << ", \"blockSize\": " << r.blockSize
       << ", \"residentWarpsPerSM\": " << r.warpsPerSM << "}";
}

} // namespace

std::string gridJsonEntry(const BenchGrid& g, uint64_t voxels, uint32_t leaves, const std::vector<WidthBlocks>& widths)
{
    std::string fallbackJson;
    for (const WidthBlocks& w : widths)
        fallbackJson += std::string(fallbackJson.empty() ? "" : ", ") + "\"w" + std::to_string(w.width) +
                        "\": {\"blocks\": " + std::to_string(w.blocks) +
                        ", \"fallbackBlocks\": " + std::to_string(w.fallbackBlocks) + "}";
    return "{\"name\": \"" + jsonEscape(g.name) + "\", \"origin\": \"" + jsonEscape(g.origin) +
           "\", \"activeVoxels\": " + std::to_string(voxels) + ", \"leaves\": " + std::to_string(leaves) +
           ", \"widths\": {" + fallbackJson + "}}";
}

void writeGridBenchJson(const Options& opt, const std::string& device, double copyGBps, const GridBenchResults& res,
                        const std::vector<ResourceRow>& kernels)
{
    std::ofstream js = openJson(opt.json);
    js << "{\n  \"device\": \"" << jsonEscape(device) << "\",\n  \"commit\": \"" << gitCommit()
       << "\",\n  \"warmup\": " << opt.warmup << ", \"rounds\": " << opt.rounds << ",\n  \"copyGBps\": " << copyGBps
       << ",\n  \"allIdentical\": " << (res.allIdentical ? "true" : "false") << ",\n  \"grids\": [\n    ";
    for (size_t i = 0; i < res.gridJson.size(); ++i)
        js << (i ? ",\n    " : "") << res.gridJson[i];
    js << "\n  ],\n  \"results\": [\n";
    for (size_t i = 0; i < res.rows.size(); ++i) {
        writeRow(js, res.rows[i]);
        js << (i + 1 < res.rows.size() ? ",\n" : "\n");
    }
    js << "  ],\n  \"kernels\": [\n";
    for (size_t i = 0; i < kernels.size(); ++i) {
        writeKernel(js, kernels[i]);
        js << (i + 1 < kernels.size() ? ",\n" : "\n");
    }
    js << "  ]\n}\n";
}

void writeSolverBenchJson(const std::string& path, const SolverBenchFigures& f)
{
    std::ofstream js = openJson(path);
    js << "{\"scene\": \"" << jsonEscape(f.scene) << "\", \"commit\": \"" << gitCommit()
       << "\", \"activeVoxels\": " << f.activeVoxels << ", \"bytesPerVoxel\": " << f.bytesPerVoxel
       << ", \"defaultStepMs\": " << f.defaultStepMs << ", \"computeBoxStencilStepMs\": " << f.computeBoxStencilStepMs
       << ", \"cgIterationsMedian\": " << f.cgIterationsMedian
       << ", \"identical\": " << (f.identical ? "true" : "false") << "}\n";
}

} // namespace bench
