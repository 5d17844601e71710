// SPDX-License-Identifier: Apache-2.0
// Export of the simulation's fields as a .nvdb file (see FieldExport.h).
#include "FieldExport.h"

#include <nanovdb/io/IO.h>
#include <nanovdb/tools/CreateNanoGrid.h>
#include <nanovdb/tools/GridBuilder.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace vbm::app {

namespace {

/// One NanoVDB float grid per field onto `os`.
void writeGrids(std::ostream& os, const nanovdb::NanoGrid<nanovdb::ValueOnIndex>& grid,
                const std::vector<std::pair<std::string, std::vector<float>>>& fields)
{
    const auto& tree = grid.tree();
    for (const auto& [name, values] : fields) {
        // index 0 is the background value of every field
        nanovdb::tools::build::Grid<float> out(values.empty() ? 0.f : values[0], name);
        out.setTransform(grid.voxelSize()[0]);
        auto acc = out.getAccessor();
        for (uint32_t l = 0; l < tree.nodeCount(0); ++l) {
            const auto& leaf = tree.template getFirstNode<0>()[l];
            for (uint32_t n = 0; n < 512; ++n) {
                if (!leaf.isActive(n)) continue;
                const uint64_t index = leaf.getValue(n);
                if (index >= values.size())
                    throw std::runtime_error("field " + name + " is shorter than the domain's value count");
                acc.setValue(leaf.offsetToGlobalCoord(n), values[index]);
            }
        }
        nanovdb::io::writeGrid(os, nanovdb::tools::createNanoGrid(out), nanovdb::io::Codec::NONE);
    }
}

} // namespace

void exportFields(const std::string& path, const HostGridHandle& domain,
                  const std::vector<std::pair<std::string, std::vector<float>>>& fields)
{
    const auto* grid = domain.grid<nanovdb::ValueOnIndex>();
    if (!grid) throw std::runtime_error("export: the domain is not an OnIndex grid");
    // written beside the final name and renamed when complete: no partial file under `path`
    const std::string temporary = path + ".partial";
    std::ofstream os(temporary, std::ios::binary | std::ios::trunc);
    if (!os) throw std::runtime_error("export: cannot write " + temporary);
    std::error_code ec;
    try {
        writeGrids(os, *grid, fields);
        os.close(); // a full disk shows here, when the last bytes go out
        if (!os) throw std::runtime_error("the file could not be completed");
    } catch (const std::exception& e) {
        os.close();
        std::filesystem::remove(temporary, ec);
        throw std::runtime_error("export: writing " + path + " failed (is the disk full?); nothing was left under its name (" +
                                 e.what() + ")");
    }
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::filesystem::remove(temporary, ec);
        throw std::runtime_error("export: cannot rename the finished " + temporary + " to " + path);
    }
}

} // namespace vbm::app
