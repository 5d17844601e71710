// SPDX-License-Identifier: Apache-2.0
// The layout of a .nvdb file, read from its headers and checked against the file's size
// (see GridValidation.h). NanoVDB 13.0.0's reader trusts these headers, so they are read here.
#include "GridFile.h"
#include "grids/GridValidation.h"
#include "grids/PrintableText.h"

#include <nanovdb/NanoVDB.h>

#include <cstring>

namespace vbm {

namespace {

constexpr uint64_t MinGridBytes = sizeof(nanovdb::GridData) + sizeof(nanovdb::TreeData);

std::string versionText(const nanovdb::Version& v)
{
    char s[32];
    return nanovdb::toStr(s, v);
}

// One line: NanoVDB's own message for this spans three.
std::string versionError(const char* what, const nanovdb::Version& v)
{
    return std::string(what) + " has NanoVDB format version " + versionText(v) + ", this build reads " +
           std::to_string(NANOVDB_MAJOR_VERSION_NUMBER) + ".x (NanoVDB 13): write the file again with it";
}

class ByteReader {
public:
    ByteReader(std::istream& in, uint64_t size) : mIn(in), mSize(size) {}
    uint64_t size() const { return mSize; }

    /// Throws, naming what did not fit, unless n bytes at off lie inside the file: before
    /// anything is allocated for them.
    void check(uint64_t off, uint64_t n, const std::string& what) const
    {
        if (n > mSize || off > mSize - n)
            throw InputError("truncated: " + what + " at byte " + std::to_string(off) + " needs " + std::to_string(n) +
                             " bytes, the file has " + std::to_string(mSize));
    }
    /// Reads n bytes at off, or throws naming what did not fit.
    void read(uint64_t off, void* dst, uint64_t n, const std::string& what)
    {
        check(off, n, what);
        mIn.clear();
        mIn.seekg(std::streamoff(off));
        mIn.read(static_cast<char*>(dst), std::streamsize(n));
        if (!mIn) throw InputError("read error at byte " + std::to_string(off));
    }

private:
    std::istream& mIn;
    uint64_t mSize;
};

std::string gridLabel(uint64_t k) { return "grid #" + std::to_string(k); }

// Raw grid buffers, one after another (what GridHandle::write produces).
std::vector<FileGridSpan> rawLayout(ByteReader& r)
{
    std::vector<FileGridSpan> spans;
    uint64_t off = 0, count = 1;
    for (uint64_t k = 0; k < count; ++k) {
        nanovdb::GridData g;
        r.read(off, &g, sizeof(g), gridLabel(k) + "'s header");
        if (!g.mVersion.isCompatible()) throw InputError(versionError(gridLabel(k).c_str(), g.mVersion));
        if (!g.isValid()) throw InputError(gridLabel(k) + "'s header is not a valid NanoVDB grid header");
        if (k == 0) count = g.mGridCount;
        if (g.mGridIndex != k || g.mGridCount != count)
            throw InputError(gridLabel(k) + " says it is grid " + std::to_string(g.mGridIndex) + " of " +
                             std::to_string(g.mGridCount) + " (expected " + std::to_string(k) + " of " +
                             std::to_string(count) + ")");
        if (g.mGridSize < MinGridBytes || g.mGridSize > r.size() - off)
            throw InputError(gridLabel(k) + " claims " + std::to_string(g.mGridSize) + " bytes, but " +
                             std::to_string(r.size() - off) + " bytes of the file are left");
        FileGridSpan s;
        s.offset = off, s.size = g.mGridSize;
        spans.push_back(s);
        off += g.mGridSize;
    }
    if (off != r.size())
        throw InputError(std::to_string(r.size() - off) + " bytes follow the last grid (file is corrupt)");
    return spans;
}

// One segment's header and metadata at `off`; appends its grids and returns the offset after them.
uint64_t readSegment(ByteReader& r, uint64_t off, bool first, std::vector<FileGridSpan>& spans)
{
    nanovdb::io::FileHeader h;
    r.read(off, &h, sizeof(h), "file header");
    if (!h.isValid()) {
        if (!first)
            throw InputError("bytes after the last grid (at byte " + std::to_string(off) +
                             ") are not a NanoVDB segment");
        throw InputError("not a NanoVDB file (its first bytes are \"" +
                         printableText(std::string_view(reinterpret_cast<const char*>(&h), 8), 64) + "\")");
    }
    if (!h.version.isCompatible()) throw InputError(versionError("the file", h.version));
    if (h.codec != nanovdb::io::Codec::NONE)
        throw InputError("its grids are compressed (ZIP or Blosc): this build reads uncompressed files only");
    if (h.gridCount == 0) throw InputError("a segment at byte " + std::to_string(off) + " holds no grids");
    off += sizeof(h);
    const size_t firstSpan = spans.size();
    for (uint32_t i = 0; i < h.gridCount; ++i) {
        const std::string label = gridLabel(spans.size());
        nanovdb::io::FileMetaData m;
        r.read(off, &m, sizeof(m), label + "'s metadata");
        off += sizeof(m);
        if (m.nameSize == 0) throw InputError(label + "'s name size is 0 (it must count the name's final NUL)");
        const std::string what = label + "'s name of " + std::to_string(m.nameSize) + " bytes";
        r.check(off, m.nameSize, what); // the size comes from the file: checked before the allocation
        std::string name(m.nameSize, '\0');
        r.read(off, name.data(), m.nameSize, what);
        off += m.nameSize;
        if (name.back() != '\0') throw InputError(label + "'s name does not end with a NUL byte");
        if (m.codec != nanovdb::io::Codec::NONE) throw InputError(label + " is compressed: not supported");
        if (m.gridSize < MinGridBytes || m.fileSize != m.gridSize)
            throw InputError(label + "'s metadata claims " + std::to_string(m.gridSize) + " bytes in memory and " +
                             std::to_string(m.fileSize) + " on disk (need equal, at least " +
                             std::to_string(MinGridBytes) + ")");
        FileGridSpan s;
        s.size = m.gridSize;
        s.name = printableText(std::string_view(name.c_str()), 64);
        s.hasMeta = true;
        for (int l = 0; l < 3; ++l)
            s.metaNodeCount[l] = m.nodeCount[l];
        spans.push_back(s);
    }
    for (size_t i = firstSpan; i < spans.size(); ++i) {
        if (spans[i].size > r.size() - off)
            throw InputError(gridLabel(i) + " claims " + std::to_string(spans[i].size) + " bytes, but " +
                             std::to_string(r.size() - off) + " bytes of the file are left");
        spans[i].offset = off;
        off += spans[i].size;
    }
    return off;
}

} // namespace

std::vector<FileGridSpan> readFileLayout(std::istream& in, uint64_t fileSize)
{
    ByteReader r(in, fileSize);
    if (fileSize < sizeof(nanovdb::io::FileHeader))
        throw InputError("too short for a NanoVDB file (" + std::to_string(fileSize) + " bytes)");
    uint64_t magic = 0;
    r.read(0, &magic, sizeof(magic), "magic number");
    // NanoVDB tries a raw grid buffer first, then segments; so do we.
    if (fileSize >= sizeof(nanovdb::GridData)) {
        nanovdb::GridData g;
        r.read(0, &g, sizeof(g), "grid header");
        if (magic == NANOVDB_MAGIC_GRID || g.isValid()) return rawLayout(r);
    }
    if (magic == NANOVDB_MAGIC_GRID) return rawLayout(r); // throws: too short for a grid
    std::vector<FileGridSpan> spans;
    for (uint64_t off = 0; off < fileSize;)
        off = readSegment(r, off, spans.empty(), spans);
    return spans;
}

} // namespace vbm
