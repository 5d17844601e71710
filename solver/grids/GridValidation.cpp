// SPDX-License-Identifier: Apache-2.0
// Structure checks of a grid buffer read from a file (see GridValidation.h). Every offset is
// checked against the buffer before it is followed, so a corrupt file is refused, never walked.
#include "grids/GridValidation.h"

#include "vbm/BuildVoxelBlockManager.h"

#include <nanovdb/NanoVDB.h>
#include <nanovdb/tools/GridChecksum.h>
#include <nanovdb/tools/GridValidator.h>

#include <algorithm>
#include <tuple>

namespace vbm {

namespace {

// One level's nodes: [begin, begin + count * nodeSize) of the buffer.
struct NodeArray {
    uint64_t begin = 0, count = 0, nodeSize = 1;
    uint64_t end() const { return begin + count * nodeSize; }
};

std::string coordText(const nanovdb::Coord& c)
{
    return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + ")";
}

// Bounding box of active values, grown one box at a time (64-bit: corners need not overflow).
struct ActiveBox {
    bool empty = true;
    nanovdb::Coord lo, hi;
    void add(const nanovdb::Coord& a, const nanovdb::Coord& b)
    {
        lo = empty ? a : nanovdb::Coord(std::min(lo[0], a[0]), std::min(lo[1], a[1]), std::min(lo[2], a[2]));
        hi = empty ? b : nanovdb::Coord(std::max(hi[0], b[0]), std::max(hi[1], b[1]), std::max(hi[2], b[2]));
        empty = false;
    }
};

template <typename BuildT>
class TreeChecker {
    using GridT = nanovdb::NanoGrid<BuildT>;
    using RootT = nanovdb::NanoRoot<BuildT>;
    using UpperT = nanovdb::NanoUpper<BuildT>;
    using LowerT = nanovdb::NanoLower<BuildT>;
    using LeafT = nanovdb::NanoLeaf<BuildT>;
    using RootDataT = typename RootT::DataType;
    using TileT = typename RootDataT::Tile;
    using TreeData = nanovdb::TreeData;

public:
    TreeChecker(const uint8_t* base, uint64_t size) : mBase(base), mSize(size) {}

    /// "" if the tree is sound, else why not.
    std::string run()
    {
        if (std::string why = layout(); !why.empty()) return why;
        if (std::string why = rootTiles(); !why.empty()) return why;
        if (std::string why = internalNodes<UpperT>(mArray[2], mArray[1], mUpperTiles); !why.empty()) return why;
        if (std::string why = internalNodes<LowerT>(mArray[1], mArray[0], mLowerTiles); !why.empty()) return why;
        if (std::string why = leafNodes(); !why.empty()) return why;
        return totals();
    }

    uint64_t activeVoxels() const { return mVoxels; }

private:
    const TreeData& tree() const { return at<TreeData>(sizeof(nanovdb::GridData)); }
    template <typename T>
    const T& at(uint64_t off) const
    {
        return *reinterpret_cast<const T*>(mBase + off);
    }

    // Node arrays and the root table inside the buffer, aligned, in breadth-first order.
    std::string layout()
    {
        const uint64_t treeBegin = sizeof(nanovdb::GridData);
        auto place = [&](int level, uint64_t nodeSize, uint64_t count, uint64_t& begin) -> bool {
            const int64_t off = tree().mNodeOffset[level];
            if (off < int64_t(sizeof(TreeData)) || uint64_t(off) > mSize - treeBegin) return false;
            begin = treeBegin + uint64_t(off);
            return begin % NANOVDB_DATA_ALIGNMENT == 0 && count <= (mSize - begin) / nodeSize;
        };
        uint64_t rootBegin = 0;
        if (!place(3, sizeof(RootDataT), 1, rootBegin)) return "its root node lies outside the grid";
        const uint32_t tableSize = at<RootDataT>(rootBegin).mTableSize;
        if (tableSize > (mSize - rootBegin - sizeof(RootDataT)) / sizeof(TileT))
            return "its root table of " + std::to_string(tableSize) + " tiles runs past the end of the grid";
        mRootBegin = rootBegin;
        uint64_t prevEnd = rootBegin + sizeof(RootDataT) + uint64_t(tableSize) * sizeof(TileT);
        const uint64_t sizes[3] = {sizeof(LeafT), sizeof(LowerT), sizeof(UpperT)};
        const char* names[3] = {"leaf", "lower", "upper"};
        for (int level = 2; level >= 0; --level) {
            NodeArray& a = mArray[level];
            a.count = tree().mNodeCount[level], a.nodeSize = sizes[level];
            if (a.count == 0) continue;
            if (!place(level, a.nodeSize, a.count, a.begin) || a.begin < prevEnd)
                return "its " + std::to_string(a.count) + " " + names[level] +
                       " nodes do not fit in the grid after the nodes above them (corrupt node count or offset)";
            prevEnd = a.end();
            mVisited[level].assign(a.count, 0);
        }
        return blindData();
    }

    // Blind metadata and the data it points at inside the buffer (NanoVDB reads long names there).
    std::string blindData() const
    {
        const auto& g = at<nanovdb::GridData>(0);
        if (g.mBlindMetadataCount == 0) return "";
        const int64_t off = g.mBlindMetadataOffset;
        using MetaT = nanovdb::GridBlindMetaData;
        if (off < 0 || uint64_t(off) > mSize || g.mBlindMetadataCount > (mSize - uint64_t(off)) / sizeof(MetaT))
            return "its blind metadata lies outside the grid";
        for (uint32_t i = 0; i < g.mBlindMetadataCount; ++i) {
            const uint64_t metaAt = uint64_t(off) + i * sizeof(MetaT);
            const MetaT& m = at<MetaT>(metaAt);
            const int64_t d = m.mDataOffset;
            const uint64_t dataAt = metaAt + uint64_t(d);
            if (d < 0 || uint64_t(d) > mSize - metaAt ||
                (m.mValueSize && m.mValueCount > (mSize - dataAt) / m.mValueSize))
                return "its blind data #" + std::to_string(i) + " lies outside the grid";
        }
        return "";
    }

    // Index in `a` of the node at `from + offset`, or -1 when that is not the start of one of its nodes.
    int64_t childIndex(uint64_t from, int64_t offset, const NodeArray& a) const
    {
        if (offset <= 0 || uint64_t(offset) > mSize) return -1;
        const uint64_t to = from + uint64_t(offset);
        if (to < a.begin || to >= a.end() || (to - a.begin) % a.nodeSize) return -1;
        return int64_t((to - a.begin) / a.nodeSize);
    }

    // Marks child `idx` of `level` reached; false if it is not a node of that level or was reached before.
    bool reach(int level, int64_t idx)
    {
        if (idx < 0 || mVisited[level][idx]) return false;
        mVisited[level][idx] = 1;
        return true;
    }

    std::string rootTiles()
    {
        const auto& root = at<RootDataT>(mRootBegin);
        std::vector<std::tuple<int, int, int>> keys;
        for (uint32_t i = 0; i < root.mTableSize; ++i) {
            const TileT& t = *root.tile(i);
            const nanovdb::Coord o = t.origin();
            if (!(RootDataT::CoordToKey(o) == t.key)) return "root tile " + std::to_string(i) + " has a malformed key";
            keys.emplace_back(o[0], o[1], o[2]);
            if (t.child != 0) {
                const int64_t idx = childIndex(mRootBegin, t.child, mArray[2]);
                if (!reach(2, idx))
                    return "root tile " + std::to_string(i) + "'s child offset names no unused upper node";
                const auto& upper = at<UpperT>(mArray[2].begin + uint64_t(idx) * mArray[2].nodeSize);
                if (upper.origin() != o)
                    return "upper node " + std::to_string(idx) + " at " + coordText(upper.origin()) +
                           " hangs from the root tile at " + coordText(o);
            } else if (t.state) {
                ++mRootTiles;
                mBox.add(o, o.offsetBy(int(UpperT::DIM) - 1));
            }
        }
        std::sort(keys.begin(), keys.end());
        if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) return "its root table holds a key twice";
        return "";
    }

    // Children of every node of `parents` lie in `children`, each reached once, at its own origin.
    template <typename NodeT>
    std::string internalNodes(const NodeArray& parents, const NodeArray& children, uint64_t& activeTiles)
    {
        const int childLevel = int(NodeT::LEVEL) - 1;
        for (uint64_t j = 0; j < parents.count; ++j) {
            const uint64_t nodeAt = parents.begin + j * parents.nodeSize;
            const NodeT& node = at<NodeT>(nodeAt);
            const auto* d = node.data();
            for (uint32_t w = 0; w < NodeT::SIZE / 64; ++w)
                if (d->mValueMask.words()[w] & d->mChildMask.words()[w])
                    return "a " + std::string(childLevel ? "upper" : "lower") + " node has entries both tile and child";
            for (auto it = d->mChildMask.beginOn(); it; ++it) {
                const int64_t idx = childIndex(nodeAt, d->mTable[*it].child, children);
                if (!reach(childLevel, idx)) return "a child offset of an internal node names no unused node below it";
                const auto& child =
                    at<typename NodeT::ChildNodeType>(children.begin + uint64_t(idx) * children.nodeSize);
                if (child.origin() != node.offsetToGlobalCoord(*it))
                    return "a node at " + coordText(child.origin()) + " hangs at " +
                           coordText(node.offsetToGlobalCoord(*it));
            }
            for (auto it = d->mValueMask.beginOn(); it; ++it) {
                const nanovdb::Coord c = node.offsetToGlobalCoord(*it);
                ++activeTiles;
                mBox.add(c, c.offsetBy(int(NodeT::ChildNodeType::DIM) - 1));
            }
        }
        return "";
    }

    std::string leafNodes()
    {
        const auto& g = at<nanovdb::GridData>(0);
        for (uint64_t j = 0; j < mArray[0].count; ++j) {
            const LeafT& leaf = at<LeafT>(mArray[0].begin + j * mArray[0].nodeSize);
            const uint32_t n = leaf.valueMask().countOn();
            mVoxels += n;
            if (n == 0) continue;
            nanovdb::Coord lo(leaf.origin().offsetBy(7)), hi(leaf.origin());
            for (auto it = leaf.valueMask().beginOn(); it; ++it) {
                const nanovdb::Coord c = leaf.offsetToGlobalCoord(*it);
                lo.minComponent(c), hi.maxComponent(c);
            }
            mBox.add(lo, hi);
            if constexpr (std::is_same_v<BuildT, nanovdb::ValueOnIndex> ||
                          std::is_same_v<BuildT, nanovdb::ValueIndex>) {
                const auto* d = leaf.data();
                const uint64_t stats = d->hasStats() ? 4u : 0u;
                const uint64_t values = (std::is_same_v<BuildT, nanovdb::ValueIndex> ? 512u : n) + stats;
                if constexpr (std::is_same_v<BuildT, nanovdb::ValueOnIndex>)
                    if (d->mPrefixSum != leafPrefixSum(d->mValueMask))
                        return "leaf " + std::to_string(j) + "'s prefix sum disagrees with its value mask";
                if (d->mOffset == 0 || d->mOffset > g.mData1 || values > g.mData1 - d->mOffset)
                    return "leaf " + std::to_string(j) + "'s value indices run past the grid's " +
                           std::to_string(g.mData1) + " values";
            }
        }
        for (int level = 0; level < 3; ++level)
            if (std::count(mVisited[level].begin(), mVisited[level].end(), 0))
                return "some of its " + std::to_string(mArray[level].count) + " " + (level ? "internal" : "leaf") +
                       " nodes are not reached from the root (corrupt node count)";
        return "";
    }

    std::string totals()
    {
        const TreeData& t = tree();
        if (t.mTileCount[0] != mLowerTiles || t.mTileCount[1] != mUpperTiles || t.mTileCount[2] != mRootTiles)
            return "its active tile counts disagree with its nodes";
        auto cube = [](uint64_t d) { return d * d * d; };
        mVoxels += mLowerTiles * cube(LeafT::DIM) + mUpperTiles * cube(LowerT::DIM) + mRootTiles * cube(UpperT::DIM);
        if (t.mVoxelCount != mVoxels)
            return "its active voxel count " + std::to_string(t.mVoxelCount) + " disagrees with its nodes (" +
                   std::to_string(mVoxels) + ")";
        const auto& bbox = at<RootDataT>(mRootBegin).mBBox;
        if (!mBox.empty && (bbox.min() != mBox.lo || bbox.max() != mBox.hi))
            return "its root bounding box " + coordText(bbox.min()) + ".." + coordText(bbox.max()) +
                   " is not that of its active values " + coordText(mBox.lo) + ".." + coordText(mBox.hi);
        return "";
    }

    const uint8_t* mBase;
    uint64_t mSize;
    uint64_t mRootBegin = 0;
    NodeArray mArray[3];
    std::vector<uint8_t> mVisited[3];
    uint64_t mRootTiles = 0, mUpperTiles = 0, mLowerTiles = 0, mVoxels = 0;
    ActiveBox mBox;
};

std::string versionText(const nanovdb::Version& v)
{
    char s[32];
    return nanovdb::toStr(s, v);
}

template <typename BuildT>
GridCheck checkTyped(const uint8_t* base, uint64_t size)
{
    TreeChecker<BuildT> checker(base, size);
    if (std::string why = checker.run(); !why.empty()) return {GridCheck::Corrupt, why};
    if (checker.activeVoxels() == 0) return {GridCheck::Unsupported, "it has no active voxels"};
    // The tree is sound, so NanoVDB's checks may read it now. Its Full walk rejects sound grids
    // without lower nodes or leaves (docs/nvdb-files.md) and checks less than we did: Half only.
    const auto* grid = reinterpret_cast<const nanovdb::NanoGrid<BuildT>*>(base);
    char error[256];
    if (nanovdb::tools::checkGrid(grid, error, nanovdb::CheckMode::Half)[0])
        return {GridCheck::Corrupt, std::string("NanoVDB's validator rejects it: ") + error};
    if (!nanovdb::tools::validateChecksum(grid->data(), nanovdb::CheckMode::Full))
        return {GridCheck::Corrupt, "its checksum does not match its bytes"};
    return {};
}

} // namespace

GridCheck checkGridBuffer(const void* buffer, uint64_t size, const FileGridSpan& span)
{
    const auto* base = static_cast<const uint8_t*>(buffer);
    const auto& g = *static_cast<const nanovdb::GridData*>(buffer);
    if (size < sizeof(nanovdb::GridData) + sizeof(nanovdb::TreeData)) return {GridCheck::Corrupt, "it is too short"};
    if (g.mGridSize != size)
        return {GridCheck::Corrupt,
                "its header says " + std::to_string(g.mGridSize) + " bytes, the file gives it " + std::to_string(size)};
    if (!g.mVersion.isCompatible())
        return {GridCheck::Corrupt, "its grid header has NanoVDB format version " + versionText(g.mVersion) +
                                        ", this build reads " + std::to_string(NANOVDB_MAJOR_VERSION_NUMBER) + ".x"};
    if (!g.isValid() || g.mMagic == NANOVDB_MAGIC_FILE) return {GridCheck::Corrupt, "its grid header is not valid"};
    // Checksums of grids older than 32.7 walk the tree node by node; we only take the flat form.
    if (!(g.mVersion > nanovdb::Version(32, 6, 0)))
        return {GridCheck::Unsupported, "written by a NanoVDB older than format 32.7"};
    const auto* tree = reinterpret_cast<const nanovdb::TreeData*>(base + sizeof(nanovdb::GridData));
    if (span.hasMeta)
        for (int l = 0; l < 3; ++l)
            if (span.metaNodeCount[l] != tree->mNodeCount[l])
                return {GridCheck::Corrupt, "its file metadata and its tree disagree on the node counts"};
    switch (g.mGridType) {
    case nanovdb::GridType::Float:
        return checkTyped<float>(base, size);
    case nanovdb::GridType::Double:
        return checkTyped<double>(base, size);
    case nanovdb::GridType::OnIndex:
        return checkTyped<nanovdb::ValueOnIndex>(base, size);
    case nanovdb::GridType::Index:
        return checkTyped<nanovdb::ValueIndex>(base, size);
    default: {
        char type[32];
        return {GridCheck::Unsupported, std::string("grid type ") + nanovdb::toStr(type, g.mGridType) +
                                            " is not float, double or an index grid"};
    }
    }
}

} // namespace vbm
