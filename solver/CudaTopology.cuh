// The CUDA backend's TopologyBuilder (ActiveSetRebuild.h): the new active set made on the device
// with NanoVDB 13's tools on OnIndex grids, following the rule of docs/adaptive.md step by step:
// PruneGrid keeps the seeds (a per-leaf mask written by MarkSeeds), DilateGrid grows them one
// voxel (26 neighbours) per call, MergeGrids joins the emitters' grid (built once, at start), and
// PruneGrid again keeps what the region allows (ClipMasks). CoarsenGrid makes the multigrid's
// levels. The topology never goes through the host; each tool reads the source's tree sizes and
// root table back to size its output, and execGrid() reads the new grid's header (its sizes).
#pragma once

#include "ActiveSet.h"
#include "ActiveSetRebuild.h"
#include "CudaExec.cuh"

#include <nanovdb/cuda/DeviceBuffer.h>
#include <nanovdb/tools/cuda/CoarsenGrid.cuh>
#include <nanovdb/tools/cuda/DilateGrid.cuh>
#include <nanovdb/tools/cuda/MergeGrids.cuh>
#include <nanovdb/tools/cuda/PruneGrid.cuh>

#include <cstring>
#include <vector>

namespace vbm::solver {

using DeviceGridHandle = nanovdb::GridHandle<nanovdb::cuda::DeviceBuffer>;
using LeafMask = nanovdb::Mask<3>;

/// Sets voxel (leaf, offset)'s bit in its leaf's mask. Thread-local (atomic).
__device__ inline void setMaskBit(LeafMask* masks, uint32_t leaf, uint32_t offset)
{
    atomicOr(reinterpret_cast<unsigned long long*>(masks[leaf].words()) + (offset >> 6),
             (unsigned long long)1 << (offset & 63));
}

/// The seeds of a rebuild into per-leaf masks. A voxel body.
struct MarkSeeds {
    SeedTest seed;
    LeafMask* masks;
    __device__ void operator()(uint64_t i, uint32_t leafIndex, uint16_t voxelOffset) const
    {
        if (seed(i)) setMaskBit(masks, leafIndex, voxelOffset);
    }
};

/// The voxels of `grid` that the region allows, into per-leaf masks; one thread per voxel slot
/// of a leaf (the grid has no VBM yet).
static __global__ void clipMasksKernel(const IndexGrid* grid, uint32_t leafCount, RegionView region, LeafMask* masks)
{
    const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const uint32_t leaf = uint32_t(t >> 9), offset = uint32_t(t & 511);
    if (leaf >= leafCount) return;
    const IndexLeaf& l = leaves(grid)[leaf];
    if (l.valueMask().isOn(offset) && region.allows(l.offsetToGlobalCoord(offset))) setMaskBit(masks, leaf, offset);
}

template <>
struct TopologyBuilder<CudaExec> {
    using Topology = DeviceGridHandle;

    TopologyBuilder(CudaExec& exec, const ActiveRegion& region, const RegionView& view) : mExec(exec), mView(view)
    {
        const std::vector<nanovdb::Coord> e = emitterVoxels(region);
        if (e.empty()) return; // a fixed-topology scene without balls: never rebuilt
        HostGridHandle host = indexGridFromCoords(e);
        mEmitters = host.copy<nanovdb::cuda::DeviceBuffer>();
        mEmitters.buffer().deviceUpload(exec.stream(), true);
    }

    Topology build(const ExecGrid<CudaExec>& grid, const SeedTest& seed, int margin)
    {
        auto masks = CudaExec::allocate<LeafMask>(grid.leafCount());
        mExec.voxels<7>(grid.view(7), MarkSeeds{seed, masks.data()});
        cuda::checkCuda(cudaStreamSynchronize(mExec.stream()), "marking the rebuild's seeds");
        const cudaStream_t s = ToolStream;
        DeviceGridHandle set = nanovdb::tools::cuda::PruneGrid<nanovdb::ValueOnIndex>(grid.grid(), masks.data(), s)
                                   .getHandle<nanovdb::cuda::DeviceBuffer>();
        if (header(set).activeVoxels == 0) {
            set = DeviceGridHandle(); // nothing seeds: the emitters alone
        } else {
            for (int k = 0; k < margin; ++k) {
                nanovdb::tools::cuda::DilateGrid<nanovdb::ValueOnIndex> dilate(device(set), s);
                dilate.setOperation(nanovdb::tools::morphology::NN_FACE_EDGE_VERTEX);
                set = dilate.getHandle<nanovdb::cuda::DeviceBuffer>();
            }
        }
        if (set && mEmitters)
            set = nanovdb::tools::cuda::MergeGrids<nanovdb::ValueOnIndex>(device(set), device(mEmitters), s)
                      .getHandle<nanovdb::cuda::DeviceBuffer>();
        if (!set && !mEmitters) throw std::runtime_error("rebuild: the adaptive scene's active set is empty");
        const IndexGrid* joined = set ? device(set) : device(mEmitters);
        const uint32_t leafCount = header(set ? set : mEmitters).leafCount;
        auto clip = CudaExec::allocate<LeafMask>(leafCount);
        if (leafCount) {
            const uint64_t threads = uint64_t(leafCount) * 512;
            clipMasksKernel<<<unsigned((threads + 255) / 256), 256, 0, s>>>(joined, leafCount, mView, clip.data());
            cuda::checkCuda(cudaGetLastError(), "the rebuild's region mask kernel");
        }
        DeviceGridHandle out = nanovdb::tools::cuda::PruneGrid<nanovdb::ValueOnIndex>(joined, clip.data(), s)
                                   .getHandle<nanovdb::cuda::DeviceBuffer>();
        cuda::checkCuda(cudaStreamSynchronize(s), "building the new active set on the device");
        return out;
    }

    /// The grid in the executor's arrays, its VBM built on the device.
    ExecGrid<CudaExec> execGrid(Topology&& t)
    {
        const Header h = header(t);
        if (h.activeVoxels == 0) throw std::runtime_error("rebuild: the adaptive scene's active set is empty");
        auto bytes = CudaExec::allocate<GridChunk>((h.gridBytes + 31) / 32);
        cuda::checkCuda(cudaMemcpyAsync(bytes.data(), device(t), h.gridBytes, cudaMemcpyDeviceToDevice, mExec.stream()),
                        "copying the new grid");
        ExecGrid<CudaExec> g(mExec, std::move(bytes), h.gridBytes, h.activeVoxels, h.leafCount, 1, h.activeVoxels);
        cuda::checkCuda(cudaStreamSynchronize(mExec.stream()), "building the new grid's VBM");
        return g;
    }

    ExecGrid<CudaExec> coarsen(const ExecGrid<CudaExec>& g)
    {
        cuda::checkCuda(cudaStreamSynchronize(mExec.stream()), "before coarsening a grid");
        return execGrid(nanovdb::tools::cuda::CoarsenGrid<nanovdb::ValueOnIndex>(g.grid(), ToolStream)
                            .getHandle<nanovdb::cuda::DeviceBuffer>());
    }

private:
    /// NanoVDB 13's tools run on the legacy default stream: DilateGrid's 26-neighbour leaf
    /// kernel is launched there whatever stream it is given, so with our non-blocking stream the
    /// offsets pass raced it, the output's voxel count read 0 and the next DilateGrid
    /// dereferenced an empty DeviceBuffer (a host segfault, found on the H200). On the legacy
    /// stream every launch of a tool is ordered; ours are synchronized before and after.
    static constexpr cudaStream_t ToolStream = 0;

    struct Header {
        uint64_t gridBytes = 0, activeVoxels = 0;
        uint32_t leafCount = 0;
    };
    /// The grid in device memory (never of an empty handle: NanoVDB's DeviceBuffer::deviceData()
    /// dereferences null then).
    static const IndexGrid* device(const DeviceGridHandle& h)
    {
        return static_cast<const IndexGrid*>(h.buffer().deviceData());
    }
    /// The grid's sizes, from its header in device memory (one small read).
    Header header(const DeviceGridHandle& h) const
    {
        constexpr size_t Bytes = sizeof(nanovdb::GridData) + sizeof(nanovdb::TreeData);
        alignas(32) unsigned char raw[Bytes];
        cuda::checkCuda(cudaMemcpy(raw, device(h), Bytes, cudaMemcpyDeviceToHost), "reading a new grid's sizes");
        const auto* g = reinterpret_cast<const nanovdb::GridData*>(raw);
        const auto* t = reinterpret_cast<const nanovdb::TreeData*>(raw + sizeof(nanovdb::GridData));
        return {g->mGridSize, t->mVoxelCount, t->mNodeCount[0]};
    }

    CudaExec& mExec;
    RegionView mView;
    DeviceGridHandle mEmitters; ///< the emitters' voxels (within the region), made once
};

} // namespace vbm::solver
