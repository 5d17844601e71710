// SPDX-License-Identifier: Apache-2.0
// One frame as an OpenVDB .vdb file (see VdbExport.h).
#include "VdbExport.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#if VBM_HAVE_OPENVDB
#include <openvdb/io/Stream.h>
#include <openvdb/openvdb.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#endif

namespace vbm::app {

std::string vdbGridName(const std::string& field, bool heat) { return heat && field == "temperature" ? "heat" : field; }

#if VBM_HAVE_OPENVDB

namespace {

using IndexLeaf = nanovdb::NanoLeaf<nanovdb::ValueOnIndex>;

/// An OpenVDB grid with the domain's active voxels, each valued value(index, coord), its leaves
/// made in parallel (NanoVDB and OpenVDB number a leaf's 512 voxels alike: x, then y, then z)
/// and then handed to the tree, which takes them.
template <typename GridT, typename Value>
typename GridT::Ptr gridOverDomain(const nanovdb::NanoGrid<nanovdb::ValueOnIndex>& domain,
                                   typename GridT::ValueType background, const Value& value)
{
    using LeafT = typename GridT::TreeType::LeafNodeType;
    const uint32_t count = domain.tree().nodeCount(0);
    const IndexLeaf* first = domain.tree().getFirstNode<0>();
    std::vector<LeafT*> leaves(count);
    tbb::parallel_for(tbb::blocked_range<uint32_t>(0, count), [&](const tbb::blocked_range<uint32_t>& range) {
        for (uint32_t l = range.begin(); l != range.end(); ++l) {
            const IndexLeaf& src = first[l];
            const nanovdb::Coord o = src.origin();
            auto* leaf = new LeafT(openvdb::Coord(o[0], o[1], o[2]), background, false);
            for (auto on = src.valueMask().beginOn(); on; ++on)
                leaf->setValueOn(*on, value(src.getValue(*on), src.offsetToGlobalCoord(*on)));
            leaves[l] = leaf;
        }
    });
    typename GridT::Ptr grid = GridT::create(background);
    for (LeafT* leaf : leaves)
        grid->tree().addLeaf(leaf);
    return grid;
}

void describe(openvdb::GridBase& grid, const std::string& name, double voxelSize, openvdb::GridClass c)
{
    grid.setName(name);
    grid.setGridClass(c);
    grid.setTransform(openvdb::math::Transform::createLinearTransform(voxelSize));
}

/// The velocity at voxel centres: each axis the mean of the voxel's two faces (its own +face,
/// and its -neighbour's, or the background's where that neighbour is not active).
openvdb::Vec3fGrid::Ptr centredVelocity(const nanovdb::NanoGrid<nanovdb::ValueOnIndex>& domain, const VdbFrame& f)
{
    const std::vector<float>* faces[3] = {&f.u, &f.v, &f.w};
    return gridOverDomain<openvdb::Vec3fGrid>(domain, openvdb::Vec3f(0.f), [&](uint64_t i, const nanovdb::Coord& c) {
        auto acc = domain.getAccessor();
        openvdb::Vec3f v;
        for (int a = 0; a < 3; ++a) {
            nanovdb::Coord below = c;
            below[a] -= 1;
            const std::vector<float>& face = *faces[a];
            v[a] = 0.5f * (face[i] + face[acc.getValue(below)]);
        }
        return v;
    });
}

} // namespace

std::string vdbExportWhyNot() { return ""; }

void writeVdbFrame(const std::string& path, const VdbFrame& f, VdbCompression compression)
{
    static const bool initialized = (openvdb::initialize(), true);
    (void)initialized;
    const auto* domain = f.domain.grid<nanovdb::ValueOnIndex>();
    if (!domain) throw std::runtime_error("export: the domain is not an OnIndex grid");
    openvdb::GridPtrVec grids;
    for (const auto& scalar : f.scalars) {
        const std::string& name = scalar.first;
        const std::vector<float>& values = scalar.second; // not a structured binding: clang 14's lambdas cannot capture one
        if (values.size() < domain->valueCount())
            throw std::runtime_error("export: field " + name + " is shorter than the domain's value count");
        auto grid = gridOverDomain<openvdb::FloatGrid>(*domain, values[0],
                                                       [&](uint64_t i, const nanovdb::Coord&) { return values[i]; });
        describe(*grid, name, f.voxelSize, openvdb::GRID_FOG_VOLUME);
        grids.push_back(grid);
    }
    if (!f.u.empty()) {
        auto vel = centredVelocity(*domain, f);
        describe(*vel, "vel", f.voxelSize, openvdb::GRID_UNKNOWN);
        grids.push_back(vel);
    }
    openvdb::MetaMap meta;
    meta.insertMeta("time", openvdb::DoubleMetadata(f.time));
    meta.insertMeta("frame", openvdb::Int32Metadata(f.frame));
    meta.insertMeta("creator", openvdb::StringMetadata("vbm-fluid"));

    const std::string temporary = path + ".partial";
    std::ofstream os(temporary, std::ios::binary | std::ios::trunc);
    if (!os) throw std::runtime_error("export: cannot write " + temporary);
    try {
        openvdb::io::Stream stream(os);
        stream.setCompression(compression == VdbCompression::None ? uint32_t(openvdb::io::COMPRESS_ACTIVE_MASK)
                                                                  : openvdb::io::Archive::DEFAULT_COMPRESSION_FLAGS);
        stream.write(grids, meta);
    } catch (const std::exception& e) {
        std::error_code ignored;
        os.close(), std::filesystem::remove(temporary, ignored);
        throw std::runtime_error("export: writing " + path + " failed: " + e.what());
    }
    os.close(); // a full disk shows here, when the last bytes go out
    std::error_code ec;
    if (!os) {
        std::filesystem::remove(temporary, ec);
        throw std::runtime_error("export: writing " + path + " failed (is the disk full?); nothing was left under its name");
    }
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::filesystem::remove(temporary, ec);
        throw std::runtime_error("export: cannot rename the finished " + temporary + " to " + path);
    }
}

#else

std::string vdbExportWhyNot()
{
    return "this build has no OpenVDB (install libopenvdb-dev and libboost-dev and build again; scripts/setup.sh "
           "does), so it writes .nvdb only";
}

void writeVdbFrame(const std::string&, const VdbFrame&, VdbCompression) { throw std::runtime_error(vdbExportWhyNot()); }

#endif

} // namespace vbm::app
