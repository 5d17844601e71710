// SPDX-License-Identifier: Apache-2.0
// The CUDA backend's TopologyBuilder (ActiveSetRebuild.h): the new active set made on the device,
// following the rule of docs/adaptive.md step by step: MarkSeeds writes the seeds as per-leaf
// masks, dilateOnDevice (CudaDilation.cuh: NanoVDB 13's TopologyBuilder with our kernels)
// dilates them by the margin and joins the emitters' grid (built once, at start) in one grid
// build per 8 voxels of margin, and NanoVDB's PruneGrid keeps what the region allows
// (ClipMasks). CoarsenGrid makes the multigrid's levels. The topology never goes through the
// host; the dilation reads the source's root tiles back, PruneGrid its tree sizes and root
// table, and execGrid() the new grid's header (its sizes).
#pragma once

#include "domain/ActiveSet.h"
#include "domain/ActiveSetRebuild.h"
#include "domain/CudaDilation.cuh"
#include "exec/CudaExec.cuh"

#include <nanovdb/cuda/DeviceBuffer.h>
#include <nanovdb/tools/cuda/CoarsenGrid.cuh>
#include <nanovdb/tools/cuda/PruneGrid.cuh>

#include <cstring>
#include <vector>

namespace vbm::solver {

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
        const IndexGrid* g = host.grid<nanovdb::ValueOnIndex>();
        mEmitterLeaves = g->tree().nodeCount(0);
        for (uint32_t t = 0; t < g->tree().root().tileCount(); ++t)
            mEmitterTiles.push_back(g->tree().root().tile(t)->origin());
        mEmitters = host.copy<nanovdb::cuda::DeviceBuffer>();
        mEmitters.buffer().deviceUpload(exec.stream(), true);
    }

    Topology build(const ExecGrid<CudaExec>& grid, const SeedTest& seed, int margin)
    {
        auto masks = CudaExec::allocate<LeafMask>(grid.leafCount());
        mExec.voxels<7>(grid.view(7), MarkSeeds{seed, masks.data()});
        cuda::checkCuda(cudaStreamSynchronize(mExec.stream()), "marking the rebuild's seeds");
        const cudaStream_t s = ToolStream;
        const IndexGrid* joinGrid = mEmitters ? device(mEmitters) : nullptr;
        const Dilated set = dilateBy(grid.grid(), grid.leafCount(), masks.data(), margin, joinGrid, mEmitterLeaves,
                                     mEmitterTiles, s);
        if (set.leafCount == 0) throw std::runtime_error("rebuild: the adaptive scene's active set is empty");
        auto clip = CudaExec::allocate<LeafMask>(set.leafCount);
        const uint64_t threads = uint64_t(set.leafCount) * 512;
        clipMasksKernel<<<unsigned((threads + 255) / 256), 256, 0, s>>>(device(set.grid), set.leafCount, mView, clip.data());
        cuda::checkCuda(cudaGetLastError(), "the rebuild's region mask kernel");
        DeviceGridHandle out = nanovdb::tools::cuda::PruneGrid<nanovdb::ValueOnIndex>(device(set.grid), clip.data(), s)
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
    /// NanoVDB 13's tools, and our dilation through its TopologyBuilder, run on the legacy
    /// default stream. DilateGrid (used before CudaDilation.cuh) launches its 26-neighbour leaf
    /// kernel there whatever stream it is given: on our non-blocking stream the offsets pass raced
    /// it and a host segfault followed (found on the H200). On the legacy stream every launch of
    /// a tool is ordered; ours are synchronized before and after.
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
    uint32_t mEmitterLeaves = 0;
    std::vector<nanovdb::Coord> mEmitterTiles; ///< its root tiles' origins
};

} // namespace vbm::solver
