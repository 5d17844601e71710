// SPDX-License-Identifier: Apache-2.0
// Reading .nvdb files (see GridFile.h). The bytes are read here, not by nanovdb::io::readGrids,
// which trusts the sizes in the file's headers (docs/nvdb-files.md).
#include "GridFile.h"

#include "grids/GridValidation.h"
#include "grids/PrintableText.h"
#include "vbm/BuildVoxelBlockManager.h"

#include <nanovdb/tools/GridChecksum.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace vbm {

namespace {

template <typename NodeT>
void addActiveTiles(const NodeT& node, std::vector<nanovdb::Coord>& coords)
{
    const int dim = int(NodeT::ChildNodeType::DIM);
    for (auto it = node.cbeginValueOn(); it; ++it) {
        const nanovdb::Coord o = it.getCoord();
        for (int i = 0; i < dim; ++i)
            for (int j = 0; j < dim; ++j)
                for (int k = 0; k < dim; ++k)
                    coords.emplace_back(o[0] + i, o[1] + j, o[2] + k);
    }
}

// The grid's active voxels, tiles expanded, as a leaf-only OnIndex grid. The tree was validated
// (its voxel count is that of its nodes), so the count is checked against the budget up front.
template <typename BuildT>
HostGridHandle reindexActiveVoxels(const nanovdb::NanoGrid<BuildT>* grid, uint64_t budget)
{
    const auto& tree = grid->tree();
    for (auto it = tree.root().cbeginValueOn(); it; ++it)
        throw InputError("it has active root tiles (4096^3 voxels each): too large to expand");
    if (grid->activeVoxelCount() > budget)
        throw InputError("its active tiles expand to " + std::to_string(grid->activeVoxelCount()) +
                         " voxels, more than the " + std::to_string(budget) + " this file's size allows");
    std::vector<nanovdb::Coord> coords;
    coords.reserve(grid->activeVoxelCount());
    for (uint32_t i = 0; i < tree.nodeCount(0); ++i) {
        const auto& leaf = tree.template getFirstNode<0>()[i];
        for (auto it = leaf.valueMask().beginOn(); it; ++it)
            coords.push_back(leaf.offsetToGlobalCoord(*it));
    }
    for (uint32_t i = 0; i < tree.nodeCount(1); ++i)
        addActiveTiles(tree.template getFirstNode<1>()[i], coords);
    for (uint32_t i = 0; i < tree.nodeCount(2); ++i)
        addActiveTiles(tree.template getFirstNode<2>()[i], coords);
    if (coords.empty()) throw InputError("it has no active voxels");
    return indexGridFromCoords(coords);
}

// Reads one grid's bytes into its own buffer and checks them; the handle holds that grid alone.
HostGridHandle readGrid(std::istream& in, const FileGridSpan& span, const std::string& name,
                        std::vector<std::string>* skipped)
{
    auto buffer = nanovdb::HostBuffer::create(span.size);
    in.clear();
    in.seekg(std::streamoff(span.offset));
    in.read(static_cast<char*>(buffer.data()), std::streamsize(span.size));
    if (!in) throw InputError(name + ": read error");
    const GridCheck c = checkGridBuffer(buffer.data(), span.size, span);
    if (c.kind == GridCheck::Corrupt) throw InputError(name + ": the grid is corrupt: " + c.why);
    if (c.kind == GridCheck::Unsupported) {
        if (skipped) skipped->push_back(name + ": skipped, " + c.why);
        return {};
    }
    // After the checksum check: this rewrites the header's checksum for the new index and count.
    nanovdb::tools::updateGridCount(static_cast<nanovdb::GridData*>(buffer.data()), 0u, 1u);
    return HostGridHandle(std::move(buffer));
}

std::string gridName(const std::string& path, const FileGridSpan& span, const nanovdb::GridData* header, size_t n)
{
    std::string name = span.name;
    if (name.empty() && header) {
        const char* s = header->mGridName;
        name = printableText(std::string_view(s, strnlen(s, sizeof(header->mGridName))), 64);
    }
    return path + ":" + (name.empty() ? "#" + std::to_string(n) : name);
}

} // namespace

uint64_t expandedVoxelBudget(uint64_t fileBytes) { return std::max<uint64_t>(uint64_t(1) << 22, 16 * fileBytes); }

GridFileContents readGridFile(const std::string& path, std::vector<std::string>* skipped)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw InputError(path + ": no such file");
    if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": is a directory, not a .nvdb file");
    std::ifstream in(path, std::ios::binary);
    const uint64_t fileBytes = std::filesystem::file_size(path, ec);
    if (!in || ec) throw InputError(path + ": cannot be opened for reading");
    std::vector<FileGridSpan> spans;
    try {
        spans = readFileLayout(in, fileBytes);
    } catch (const InputError& e) {
        throw InputError(path + ": not a readable NanoVDB file: " + e.what());
    }
    GridFileContents out;
    out.fileBytes = fileBytes;
    for (size_t n = 0; n < spans.size(); ++n) {
        nanovdb::GridData header;
        in.clear();
        in.seekg(std::streamoff(spans[n].offset));
        const bool haveHeader = bool(in.read(reinterpret_cast<char*>(&header), sizeof(header)));
        const std::string name = gridName(path, spans[n], haveHeader ? &header : nullptr, n);
        if (HostGridHandle h = readGrid(in, spans[n], name, skipped)) out.grids.push_back({name, std::move(h)});
    }
    return out;
}

std::vector<LoadedGrid> loadGridFile(const std::string& path, std::vector<std::string>* skipped)
{
    GridFileContents file = readGridFile(path, skipped);
    const uint64_t budget = expandedVoxelBudget(file.fileBytes);
    std::vector<LoadedGrid> out;
    for (FileGrid& f : file.grids) {
        try {
            LoadedGrid g;
            g.name = f.name;
            if (auto* idx = f.handle.grid<nanovdb::ValueOnIndex>()) {
                const std::string why = checkVbmGrid(idx);
                if (why.empty()) {
                    g.origin = "OnIndex, as stored";
                    g.handle = std::move(f.handle);
                } else {
                    g.origin = "OnIndex, re-indexed leaf-only (" + why + ")";
                    g.handle = reindexActiveVoxels(idx, budget);
                }
            } else if (auto* fl = f.handle.grid<float>()) {
                g.origin = "float, active voxels";
                g.handle = reindexActiveVoxels(fl, budget);
            } else if (auto* d = f.handle.grid<double>()) {
                g.origin = "double, active voxels";
                g.handle = reindexActiveVoxels(d, budget);
            } else if (auto* x = f.handle.grid<nanovdb::ValueIndex>()) {
                g.origin = "Index, active voxels";
                g.handle = reindexActiveVoxels(x, budget);
            } else {
                continue; // readGridFile keeps only the four types above
            }
            // what re-indexing cannot mend (a grid past the safe index range) is refused here
            if (const std::string why = checkVbmGrid(g.handle.grid<nanovdb::ValueOnIndex>()); !why.empty())
                throw InputError(why);
            out.push_back(std::move(g));
        } catch (const InputError& e) {
            if (skipped) skipped->push_back(f.name + ": skipped, " + e.what());
        }
    }
    if (out.empty())
        throw InputError(path + ": holds no usable grid (need a float, double or index grid with active voxels)");
    return out;
}

} // namespace vbm
