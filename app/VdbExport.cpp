// SPDX-License-Identifier: Apache-2.0
// One frame as an OpenVDB .vdb file (see VdbExport.h).
#include "VdbExport.h"

#include "ChunkedFileSink.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <thread>
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

/// An OpenVDB grid with the domain's active voxels, its leaves made in parallel and then handed
/// to the tree, which takes them. Each leaf gets the NanoVDB leaf's active mask (both number a
/// leaf's 512 voxels alike, x, then y, then z, in 64-bit words), then fill(leaf, values,
/// accessor) writes its active values; the accessor (one per range of leaves, so its cache
/// serves neighbouring leaves) is for lookups outside the leaf.
template <typename GridT, typename Fill>
typename GridT::Ptr gridOverDomain(const nanovdb::NanoGrid<nanovdb::ValueOnIndex>& domain,
                                   typename GridT::ValueType background, const Fill& fill)
{
    using LeafT = typename GridT::TreeType::LeafNodeType;
    const uint32_t count = domain.tree().nodeCount(0);
    const IndexLeaf* first = domain.tree().getFirstNode<0>();
    std::vector<LeafT*> leaves(count);
    tbb::parallel_for(tbb::blocked_range<uint32_t>(0, count), [&](const tbb::blocked_range<uint32_t>& range) {
        auto acc = domain.getAccessor();
        for (uint32_t l = range.begin(); l != range.end(); ++l) {
            const IndexLeaf& src = first[l];
            const nanovdb::Coord o = src.origin();
            // allocated without the background fill, which only a partial leaf needs
            auto* leaf = new LeafT(openvdb::PartialCreate(), openvdb::Coord(o[0], o[1], o[2]), background, false);
            leaf->buffer().allocate();
            if (!src.valueMask().isOn())
                std::fill(leaf->buffer().data(), leaf->buffer().data() + LeafT::SIZE, background);
            typename LeafT::NodeMaskType mask;
            for (uint32_t w = 0; w < LeafT::NodeMaskType::WORD_COUNT; ++w)
                mask.template getWord<uint64_t>(w) = src.valueMask().words()[w];
            leaf->setValueMask(mask);
            fill(src, leaf->buffer().data(), acc);
            leaves[l] = leaf;
        }
    });
    typename GridT::Ptr grid = GridT::create(background);
    for (LeafT* leaf : leaves)
        grid->tree().addLeaf(leaf);
    return grid;
}

/// A scalar field's values into a leaf: a leaf's active voxels hold consecutive value indices
/// from its first, in voxel order (one copy when the leaf is full).
void fillScalar(const IndexLeaf& src, float* out, const float* values)
{
    const float* from = values + src.data()->firstOffset();
    if (src.valueMask().isOn()) {
        std::memcpy(out, from, IndexLeaf::SIZE * sizeof(float));
        return;
    }
    for (auto on = src.valueMask().beginOn(); on; ++on)
        out[*on] = *from++;
}

void describe(openvdb::GridBase& grid, const std::string& name, double voxelSize, openvdb::GridClass c)
{
    grid.setName(name);
    grid.setGridClass(c);
    grid.setTransform(openvdb::math::Transform::createLinearTransform(voxelSize));
}

/// The velocity at voxel centres: each axis the mean of the voxel's two faces (its own +face,
/// and its -neighbour's, or the background's where that neighbour is not active). The
/// -neighbour is looked up in the leaf itself unless the voxel is on the leaf's low face.
openvdb::Vec3fGrid::Ptr centredVelocity(const nanovdb::NanoGrid<nanovdb::ValueOnIndex>& domain, const VdbFrame& f)
{
    const float* faces[3] = {f.u.data(), f.v.data(), f.w.data()};
    const auto centred = [&](const IndexLeaf& leaf, openvdb::Vec3f* out, auto& acc) {
        uint64_t i = leaf.data()->firstOffset();
        for (auto on = leaf.valueMask().beginOn(); on; ++on, ++i) {
            const nanovdb::Coord c = leaf.offsetToGlobalCoord(*on), local = IndexLeaf::OffsetToLocalCoord(*on);
            for (int a = 0; a < 3; ++a) {
                nanovdb::Coord below = c;
                below[a] -= 1;
                const uint64_t j = local[a] > 0 ? leaf.getValue(IndexLeaf::CoordToOffset(below)) : acc.getValue(below);
                out[*on][a] = 0.5f * (faces[a][i] + faces[a][j]);
            }
        }
    };
    return gridOverDomain<openvdb::Vec3fGrid>(domain, openvdb::Vec3f(0.f), centred);
}

/// Threads that copy a file's chunks into it: a quarter of the cores, 1 to 4. The stream
/// that fills the chunks is serial; these take the kernel's copies off it.
unsigned sinkThreads() { return std::clamp(std::thread::hardware_concurrency() / 4, 1u, 4u); }

} // namespace

std::string vdbExportWhyNot() { return ""; }

void writeVdbFrame(const std::string& path, const VdbFrame& f, VdbStorage storage)
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
        auto grid = gridOverDomain<openvdb::FloatGrid>(
            *domain, values[0], [&](const IndexLeaf& leaf, float* out, auto&) { fillScalar(leaf, out, values.data()); });
        describe(*grid, name, f.voxelSize, openvdb::GRID_FOG_VOLUME);
        grids.push_back(grid);
    }
    if (!f.u.empty()) {
        auto vel = centredVelocity(*domain, f);
        describe(*vel, "vel", f.voxelSize, openvdb::GRID_UNKNOWN);
        grids.push_back(vel);
    }
    for (auto& grid : grids)
        grid->setSaveFloatAsHalf(storage.halfFloats);
    openvdb::MetaMap meta;
    meta.insertMeta("time", openvdb::DoubleMetadata(f.time));
    meta.insertMeta("frame", openvdb::Int32Metadata(f.frame));
    meta.insertMeta("creator", openvdb::StringMetadata("vbm-fluid"));

    const std::string temporary = path + ".partial";
    ChunkedFileSink sink(temporary, sinkThreads());
    if (!sink.openError().empty())
        throw std::runtime_error("export: cannot write " + temporary + " (" + sink.openError() + ")");
    std::error_code ec;
    try {
        std::ostream os(&sink);
        openvdb::io::Stream stream(os);
        // "none" is none at all: each leaf's 512 values in one piece, without the per-voxel
        // pass that sorts active from inactive values (inactive ones hold the background)
        stream.setCompression(storage.compression == VdbCompression::None ? uint32_t(openvdb::io::COMPRESS_NONE)
                                                                  : openvdb::io::Archive::DEFAULT_COMPRESSION_FLAGS);
        stream.write(grids, meta);
    } catch (const std::exception& e) {
        sink.finish();
        std::filesystem::remove(temporary, ec);
        throw std::runtime_error("export: writing " + path + " failed: " + e.what());
    }
    if (const std::string why = sink.finish(); !why.empty()) {
        std::filesystem::remove(temporary, ec);
        throw std::runtime_error("export: writing " + path + " failed (is the disk full?); nothing was left under its name (" +
                                 why + ")");
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

void writeVdbFrame(const std::string&, const VdbFrame&, VdbStorage) { throw std::runtime_error(vdbExportWhyNot()); }

#endif

} // namespace vbm::app
