// SPDX-License-Identifier: Apache-2.0
// The grids vbm-bench runs on (see BenchGridSources.h).
#include "BenchGridSources.h"

#include "GridFile.h"

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

} // namespace bench
