// SPDX-License-Identifier: Apache-2.0
// A grid in an executor's memory (device memory on CUDA, host memory on the CPU) with its VBM
// at both of the solver's block widths, 128 and 512, and its per-leaf neighbour tables: what
// every stencil pass of a level runs on.
#pragma once

#include "GridGenerators.h"
#include "vbm/BuildVoxelBlockManager.h"
#include "vbm/LeafNeighbourTable.h"
#include "vbm/VbmView.h"

#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace vbm::solver {

/// A 32-byte unit, so grid copies keep NanoVDB's data alignment on the host too.
struct alignas(32) GridChunk {
    char bytes[32];
};

/// Calls f(std::integral_constant<int, L>) for the solver's widths, 128 (L = 7) and 512 (L = 9).
template <typename F>
decltype(auto) withSolverWidth(int log2BlockWidth, F&& f)
{
    if (log2BlockWidth == 7) return f(std::integral_constant<int, 7>{});
    if (log2BlockWidth == 9) return f(std::integral_constant<int, 9>{});
    throw std::invalid_argument("block width must be 128 or 512");
}

template <class Exec>
class ExecGrid {
    template <typename T>
    using Array = typename Exec::template Array<T>;

public:
    ExecGrid() = default;
    /// Copies `host` (an OnIndex grid satisfying checkVbmGrid) and builds its VBM at both widths.
    explicit ExecGrid(const HostGridHandle& host)
    {
        const IndexGrid* g = host.template grid<nanovdb::ValueOnIndex>();
        if (!g) throw std::invalid_argument("the domain's grid is not an OnIndex grid");
        const uint64_t size = host.gridSize();
        std::vector<GridChunk> chunks((size + 31) / 32);
        std::memcpy(chunks.data(), host.data(), size);
        mBytes = Exec::template allocate<GridChunk>(chunks.size());
        Exec::upload(mBytes, chunks);
        mGridBytes = size;
        mActiveVoxels = g->activeVoxelCount();
        mLeafCount = g->tree().nodeCount(0);
        for (int w = 0; w < 2; ++w) {
            const VbmMetadata m = w == 0 ? buildVoxelBlockManagerHost<7>(g) : buildVoxelBlockManagerHost<9>(g);
            mFirstLeafID[w] = Exec::template allocate<uint32_t>(m.firstLeafID.size());
            mJumpMap[w] = Exec::template allocate<uint64_t>(m.jumpMap.size());
            Exec::upload(mFirstLeafID[w], m.firstLeafID);
            Exec::upload(mJumpMap[w], m.jumpMap);
            mView[w] = {grid(),
                        mFirstLeafID[w].data(),
                        mJumpMap[w].data(),
                        m.extent.firstOffset,
                        m.extent.blockCount,
                        m.extent.lastOffset + 1};
            mMetaBytes += m.firstLeafID.size() * sizeof(uint32_t) + m.jumpMap.size() * sizeof(uint64_t);
        }
        for (bool box : {true, false}) {
            const std::vector<uint32_t> t = buildLeafNeighbourTableHost(g, box);
            Array<uint32_t>& table = box ? mBoxTable : mCrossTable;
            table = Exec::template allocate<uint32_t>(t.size());
            Exec::upload(table, t);
        }
        attachLeafTables();
    }

    /// A grid already in executor memory: `bytes` (gridBytes of them) with `leafCount` leaves
    /// holding value indices firstOffset..lastOffset; its VBM is built there by
    /// exec.buildVbm<L>(...) (the CUDA backend's rebuilds: no topology through the host).
    ExecGrid(Exec& exec, Array<GridChunk>&& bytes, uint64_t gridBytes, uint64_t activeVoxels, uint32_t leafCount,
             uint64_t firstOffset, uint64_t lastOffset)
        : mBytes(std::move(bytes)), mGridBytes(gridBytes), mActiveVoxels(activeVoxels), mLeafCount(leafCount)
    {
        for (int w = 0; w < 2; ++w) {
            const int L = w == 0 ? 7 : 9;
            const VbmExtent e = vbmExtent(firstOffset, lastOffset, L);
            const uint64_t words = e.blockCount << (L - 6);
            mFirstLeafID[w] = Exec::template allocate<uint32_t>(e.blockCount);
            mJumpMap[w] = Exec::template allocate<uint64_t>(words);
            if (w == 0)
                exec.template buildVbm<7>(grid(), leafCount, e, mFirstLeafID[w].data(), mJumpMap[w].data());
            else
                exec.template buildVbm<9>(grid(), leafCount, e, mFirstLeafID[w].data(), mJumpMap[w].data());
            mView[w] = {grid(),        mFirstLeafID[w].data(), mJumpMap[w].data(),
                        e.firstOffset, e.blockCount,           e.lastOffset + 1};
            mMetaBytes += e.blockCount * sizeof(uint32_t) + words * sizeof(uint64_t);
        }
        for (bool box : {true, false}) {
            Array<uint32_t>& table = box ? mBoxTable : mCrossTable;
            table = Exec::template allocate<uint32_t>(uint64_t(leafCount) * (box ? boxTableWidth : crossTableWidth));
            exec.buildLeafTable(grid(), leafCount, box, table.data());
        }
        attachLeafTables();
    }

    /// A host copy of the grid (a device-to-host copy on CUDA).
    HostGridHandle hostCopy() const
    {
        const std::vector<GridChunk> chunks = Exec::download(mBytes);
        nanovdb::HostBuffer buffer = nanovdb::HostBuffer::create(mGridBytes);
        std::memcpy(buffer.data(), chunks.data(), mGridBytes);
        return HostGridHandle(std::move(buffer));
    }
    /// The grid in executor memory.
    const IndexGrid* grid() const { return reinterpret_cast<const IndexGrid*>(mBytes.data()); }
    /// The VBM view at block width 2^log2BlockWidth (7 or 9).
    const VbmView& view(int log2BlockWidth) const { return mView[log2BlockWidth == 7 ? 0 : 1]; }
    /// Last active value index + 1: the length of a field on this grid.
    uint64_t valueCount() const { return mView[0].valueCount; }
    uint64_t activeVoxels() const { return mActiveVoxels; }
    uint32_t leafCount() const { return mLeafCount; }
    /// Bytes of the grid, and of its VBM metadata at both widths.
    uint64_t gridBytes() const { return mGridBytes; }
    uint64_t metaBytes() const { return mMetaBytes; }

    /// The voxel tap table (kernels/StoredTaps.h): 6 value indices per value index, filled by
    /// StoreCrossNeighbours through a resolver; from now on the runner's cross passes on this
    /// grid read it (StencilRunner). Null until adopted.
    void adoptTapTable(Array<uint32_t>&& table)
    {
        if (view(7).firstOffset != 1) throw std::logic_error("a tap table needs value indices from 1");
        mTapTable = std::move(table);
    }
    const uint32_t* tapTable() const { return mTapTable.size() ? mTapTable.data() : nullptr; }
    uint64_t tapTableBytes() const { return mTapTable.size() * sizeof(uint32_t); }

private:
    /// Both views read the grid's per-leaf neighbour tables (LeafNeighbourTable.h): the cached
    /// resolvers then stage nothing per thread block.
    void attachLeafTables()
    {
        for (VbmView& v : mView)
            v.boxTable = mBoxTable.data(), v.crossTable = mCrossTable.data();
        mMetaBytes += (uint64_t(mLeafCount) * (boxTableWidth + crossTableWidth)) * sizeof(uint32_t);
    }

    Array<GridChunk> mBytes;
    Array<uint32_t> mBoxTable, mCrossTable;
    Array<uint32_t> mTapTable; ///< empty: none
    Array<uint32_t> mFirstLeafID[2];
    Array<uint64_t> mJumpMap[2];
    VbmView mView[2];
    uint64_t mGridBytes = 0, mMetaBytes = 0, mActiveVoxels = 0;
    uint32_t mLeafCount = 0;
};

} // namespace vbm::solver
