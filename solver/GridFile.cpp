// Reading .nvdb files (see GridFile.h).
#include "GridFile.h"

#include "vbm/BuildVoxelBlockManager.h"

#include <nanovdb/io/IO.h>
#include <nanovdb/tools/GridValidator.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace vbm {

namespace {

// Voxels of active tiles are expanded; a tile larger than this many voxels in all makes the grid unusable.
constexpr uint64_t MaxExpandedTileVoxels = uint64_t(1) << 28;

template <typename NodeT>
void addActiveTiles(const NodeT& node, std::vector<nanovdb::Coord>& coords, uint64_t& budget)
{
    for (auto it = node.cbeginValueOn(); it; ++it) {
        const nanovdb::Coord o = it.getCoord();
        const int dim = int(NodeT::ChildNodeType::DIM);
        const uint64_t n = uint64_t(dim) * dim * dim;
        if (n > budget) throw InputError("active tiles hold more than 2^28 voxels");
        budget -= n;
        for (int i = 0; i < dim; ++i)
            for (int j = 0; j < dim; ++j)
                for (int k = 0; k < dim; ++k)
                    coords.emplace_back(o[0] + i, o[1] + j, o[2] + k);
    }
}

template <typename BuildT>
HostGridHandle reindexActiveVoxels(const nanovdb::NanoGrid<BuildT>* grid)
{
    std::vector<nanovdb::Coord> coords;
    coords.reserve(grid->activeVoxelCount() < (uint64_t(1) << 31) ? grid->activeVoxelCount() : 0);
    const auto& tree = grid->tree();
    uint64_t budget = MaxExpandedTileVoxels;
    for (uint32_t i = 0; i < tree.nodeCount(0); ++i) {
        const auto& leaf = tree.template getFirstNode<0>()[i];
        for (auto it = leaf.valueMask().beginOn(); it; ++it)
            coords.push_back(leaf.offsetToGlobalCoord(*it));
    }
    for (uint32_t i = 0; i < tree.nodeCount(1); ++i)
        addActiveTiles(tree.template getFirstNode<1>()[i], coords, budget);
    for (uint32_t i = 0; i < tree.nodeCount(2); ++i)
        addActiveTiles(tree.template getFirstNode<2>()[i], coords, budget);
    for (auto it = tree.root().cbeginValueOn(); it; ++it) {
        (void)it;
        throw InputError("it has active root tiles (4096^3 voxels each): too large to expand");
    }
    if (coords.empty()) throw InputError("it has no active voxels");
    return indexGridFromCoords(coords);
}

} // namespace

std::vector<LoadedGrid> loadGridFile(const std::string& path, std::vector<std::string>* skipped)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw InputError(path + ": no such file");
    if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": is a directory, not a .nvdb file");
    {
        std::ifstream probe(path, std::ios::binary);
        if (!probe) throw InputError(path + ": cannot be opened for reading");
    }
    std::vector<HostGridHandle> handles;
    try {
        handles = nanovdb::io::readGrids<nanovdb::HostBuffer, std::vector>(path);
    } catch (const std::exception& e) {
        throw InputError(path + ": not a readable NanoVDB file (" + e.what() + ")");
    }
    if (handles.empty()) throw InputError(path + ": not a NanoVDB file, or it holds no grids");

    std::vector<LoadedGrid> out;
    for (auto& h : handles) {
        for (uint32_t n = 0; n < h.gridCount(); ++n) {
            const nanovdb::GridData* data = h.gridData(n);
            std::string name =
                path + ":" + (data && data->mGridName[0] ? std::string(data->gridName()) : "#" + std::to_string(n));
            auto skip = [&](const std::string& why) {
                if (skipped) skipped->push_back(name + ": skipped, " + why);
            };
            if (!data || !data->isValid()) {
                skip("its header is not a valid grid");
                continue;
            }
            // Structure and checksum check before we walk the tree: a corrupt grid is refused, not traversed.
            if (!nanovdb::tools::validateGrid(h, n, nanovdb::CheckMode::Full, false)) {
                throw InputError(name +
                                 ": the grid is corrupt (NanoVDB's validator rejects it: structure or checksum)");
            }
            try {
                LoadedGrid g;
                g.name = name;
                if (auto* idx = h.grid<nanovdb::ValueOnIndex>(n)) {
                    const std::string why = checkVbmGrid(idx);
                    if (why.empty()) {
                        g.origin = "OnIndex, as stored";
                        auto buffer = nanovdb::HostBuffer::create(h.gridSize(n));
                        std::memcpy(buffer.data(), data, h.gridSize(n));
                        nanovdb::tools::updateGridCount(static_cast<nanovdb::GridData*>(buffer.data()), 0u, 1u);
                        g.handle = HostGridHandle(std::move(buffer));
                    } else {
                        g.origin = "OnIndex, re-indexed leaf-only (" + why + ")";
                        g.handle = reindexActiveVoxels(idx);
                    }
                } else if (auto* f = h.grid<float>(n)) {
                    g.origin = "float, active voxels";
                    g.handle = reindexActiveVoxels(f);
                } else if (auto* d = h.grid<double>(n)) {
                    g.origin = "double, active voxels";
                    g.handle = reindexActiveVoxels(d);
                } else if (auto* x = h.grid<nanovdb::ValueIndex>(n)) {
                    g.origin = "Index, active voxels";
                    g.handle = reindexActiveVoxels(x);
                } else {
                    char type[32];
                    skip(std::string("grid type ") + nanovdb::toStr(type, data->mGridType) +
                         " is not float, double or an index grid");
                    continue;
                }
                out.push_back(std::move(g));
            } catch (const InputError& e) {
                skip(e.what());
            }
        }
    }
    if (out.empty())
        throw InputError(path + ": holds no usable grid (need a float, double or index grid with active voxels)");
    return out;
}

} // namespace vbm
