// SPDX-License-Identifier: Apache-2.0
// Checkpoint files (see Checkpoint.h). The layout, in order: 8 magic bytes, the format version,
// the run's info, the scene's settings (one field list, visitSettings, read and written alike),
// the grid, the adaptive region, the fields, then a 64-bit hash of every byte before it.
#include "Checkpoint.h"

#include "GridFile.h"
#include "grids/GridValidation.h"
#include "vbm/BuildVoxelBlockManager.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <type_traits>
#include <unistd.h>

namespace vbm {

namespace {

constexpr char Magic[8] = {'V', 'B', 'M', 'C', 'K', 'P', 'T', '\n'};

/// A running hash of a byte stream, a 64-bit word at a time (FNV-1a's multiply on words): any
/// change of one word changes it, which is what a check against corruption needs.
class StreamHash {
public:
    void add(const void* data, size_t n)
    {
        if (n == 0) return; // an empty array's data() may be null: nothing to copy from it
        const auto* p = static_cast<const unsigned char*>(data);
        mTotal += n;
        if (mFill > 0) { // complete the word begun by the last call
            const size_t take = std::min<size_t>(n, 8 - mFill);
            std::memcpy(mTail + mFill, p, take);
            mFill += take, p += take, n -= take;
            if (mFill < 8) return;
            mix(load(mTail)), mFill = 0;
        }
        for (; n >= 8; p += 8, n -= 8)
            mix(load(p));
        std::memcpy(mTail, p, n);
        mFill = n;
    }
    uint64_t value() const
    {
        uint64_t h = mHash;
        for (size_t i = 0; i < mFill; ++i)
            h = (h ^ mTail[i]) * Prime;
        return (h ^ mTotal) * Prime;
    }

private:
    static constexpr uint64_t Prime = 1099511628211ull;
    static uint64_t load(const unsigned char* p)
    {
        uint64_t w;
        std::memcpy(&w, p, 8);
        return w;
    }
    void mix(uint64_t w) { mHash = (mHash ^ w) * Prime; }
    uint64_t mHash = 1469598103934665603ull, mTotal = 0;
    unsigned char mTail[8] = {};
    size_t mFill = 0;
};

/// Closes a FILE* when it goes out of scope.
struct FileCloser {
    void operator()(FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<FILE, FileCloser>;

class Writer {
public:
    explicit Writer(FILE* f) : mFile(f) {}
    void bytes(const void* data, size_t n)
    {
        if (n && std::fwrite(data, 1, n, mFile) != n) throw std::runtime_error("a write failed (is the disk full?)");
        mHash.add(data, n);
    }
    template <class T>
    void operator()(const T& v)
    {
        static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
        bytes(&v, sizeof v);
    }
    void text(const std::string& s)
    {
        (*this)(uint64_t(s.size()));
        bytes(s.data(), s.size());
    }
    void floats(const std::vector<float>& v)
    {
        (*this)(uint64_t(v.size()));
        bytes(v.data(), v.size() * sizeof(float));
    }
    void grid(const HostGridHandle& g)
    {
        (*this)(uint64_t(g ? g.gridSize() : 0));
        if (g) bytes(g.data(), g.gridSize());
    }
    /// The hash of everything so far, itself not hashed.
    void trailer()
    {
        const uint64_t h = mHash.value();
        if (std::fwrite(&h, 1, 8, mFile) != 8) throw std::runtime_error("a write failed (is the disk full?)");
    }

private:
    FILE* mFile;
    StreamHash mHash;
};

/// Reads what Writer wrote, every length checked against the bytes left in the file.
class Reader {
public:
    Reader(FILE* f, uint64_t size) : mFile(f), mLeft(size) {}
    void bytes(void* data, size_t n)
    {
        if (n > mLeft || (n && std::fread(data, 1, n, mFile) != n))
            throw InputError("truncated or corrupt (it ends inside its data)");
        mLeft -= n;
        mHash.add(data, n);
    }
    template <class T>
    void operator()(T& v)
    {
        static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
        bytes(&v, sizeof v);
    }
    /// A bool from its byte, which must be 0 or 1 (any other byte is not a bool to load).
    void operator()(bool& v)
    {
        uint8_t byte = 0;
        bytes(&byte, 1);
        if (byte > 1) throw InputError("corrupt (a yes-or-no setting holds " + std::to_string(byte) + ")");
        v = byte == 1;
    }
    uint64_t length(uint64_t elementBytes)
    {
        uint64_t n = 0;
        (*this)(n);
        if (n > mLeft / elementBytes) throw InputError("truncated or corrupt (a length runs past its end)");
        return n;
    }
    std::string text()
    {
        std::string s(length(1), '\0');
        bytes(s.data(), s.size());
        return s;
    }
    std::vector<float> floats()
    {
        std::vector<float> v(length(sizeof(float)));
        bytes(v.data(), v.size() * sizeof(float));
        return v;
    }
    HostGridHandle grid(const char* what)
    {
        const uint64_t size = length(1);
        if (size == 0) return {};
        auto buffer = nanovdb::HostBuffer::create(size);
        bytes(buffer.data(), size);
        FileGridSpan span;
        span.size = size;
        const GridCheck c = checkGridBuffer(buffer.data(), size, span);
        if (c.kind != GridCheck::Ok) throw InputError(std::string("corrupt: its ") + what + ": " + c.why);
        HostGridHandle handle(std::move(buffer));
        const auto* g = handle.grid<nanovdb::ValueOnIndex>();
        if (!g) throw InputError(std::string("corrupt: its ") + what + " is not an OnIndex grid");
        if (const std::string why = checkVbmGrid(g); !why.empty())
            throw InputError(std::string("corrupt: its ") + what + ": " + why);
        return handle;
    }
    void trailer()
    {
        uint64_t stored = 0;
        if (mLeft != 8 || std::fread(&stored, 1, 8, mFile) != 8)
            throw InputError("truncated or corrupt (its length is not that of its content)");
        if (stored != mHash.value()) throw InputError("corrupt (its bytes do not match the hash it ends with)");
    }

private:
    FILE* mFile;
    uint64_t mLeft;
    StreamHash mHash;
};

/// The scene's settings and the run's info that are plain numbers, in file order: the one list
/// both directions go through.
template <class A, class P>
void visitParams(A& a, P& p)
{
    a(p.dt), a(p.voxelSize), a(p.alpha), a(p.scheme), a(p.buoyancy), a(p.weight), a(p.emitDensity);
    a(p.emitTemperature), a(p.vorticity), a(p.maxCfl), a(p.advection), a(p.emitFuel), a(p.ignition);
    a(p.burnRate), a(p.burnHeat), a(p.burnSmoke), a(p.cooling), a(p.dissipation), a(p.emitNoise), a(p.seed);
    a(p.cgTolerance), a(p.pressurePreconditioner), a(p.cgMaxIterations);
}
template <class A, class S>
void visitSettings(A& a, S& s)
{
    a(s.kind), a(s.scalars), a(s.tapTable), a(s.wind[0]), a(s.wind[1]), a(s.wind[2]), a(s.startStep);
    visitParams(a, s.params);
    a(s.adapt.every), a(s.adapt.margin), a(s.adapt.threshold), a(s.adapt.speedThreshold), a(s.adapt.rebuilds);
    for (int k = 0; k < 3; ++k)
        a(s.region.box.min()[k]), a(s.region.box.max()[k]);
}
template <class A, class I>
void visitInfo(A& a, I& info)
{
    a(info.frame), a(info.time), a(info.choice.laplacian), a(info.choice.advection), a(info.choice.log2BlockWidth);
}

template <class A, class B>
void visitBalls(A& a, B& balls)
{
    for (auto& b : balls)
        a(b.x), a(b.y), a(b.z), a(b.r);
}

/// Throws unless every enum read is one this build knows.
void checkSettings(const Scene& s, const CheckpointInfo& info)
{
    const auto within = [](auto v, auto last) { return uint64_t(v) <= uint64_t(last); };
    const SimulationParams& p = s.params;
    const bool known = within(s.kind, SimulationKind::Smoke) && within(s.scalars, ScalarStorage::Half) &&
                       within(s.tapTable, TapTableMode::On) && within(p.scheme, HeatScheme::Implicit) &&
                       within(p.advection, AdvectionScheme::MacCormack) &&
                       within(p.pressurePreconditioner, Preconditioner::Jacobi) &&
                       uint64_t(info.choice.laplacian) < AllResolvers.size() &&
                       uint64_t(info.choice.advection) < AllResolvers.size() &&
                       (info.choice.log2BlockWidth == 7 || info.choice.log2BlockWidth == 9);
    if (!known) throw InputError("corrupt (a setting holds a value this build does not know)");
}

void readBody(Reader& r, Checkpoint& c)
{
    c.info.scene = r.text();
    c.info.settings = r.text();
    visitInfo(r, c.info);
    Scene& s = c.scene;
    s.name = r.text();
    visitSettings(r, s);
    checkSettings(s, c.info);
    s.grid = r.grid("grid");
    if (!s.grid) throw InputError("corrupt: it holds no grid");
    s.region.within = r.grid("region grid");
    s.region.obstacles.resize(r.length(4 * sizeof(double)));
    visitBalls(r, s.region.obstacles);
    s.region.emitters.resize(r.length(4 * sizeof(double)));
    visitBalls(r, s.region.emitters);
    s.region.solid = r.grid("mesh obstacles grid");
    s.region.emitting = r.grid("mesh emitters grid");
    const uint64_t values = s.grid.grid<nanovdb::ValueOnIndex>()->valueCount();
    for (std::vector<float>* f : sceneFields(s)) {
        *f = r.floats();
        if (!f->empty() && f->size() != values)
            throw InputError("corrupt: a field has " + std::to_string(f->size()) + " values for a grid of " +
                             std::to_string(values));
    }
    r.trailer();
}

} // namespace

void writeCheckpoint(const std::string& path, const Solver& solver, const CheckpointInfo& info)
{
    Scene s = solver.state();
    const std::string temporary = path + ".partial";
    std::error_code ec;
    try {
        File file(std::fopen(temporary.c_str(), "wb"));
        if (!file) throw std::runtime_error("cannot create " + temporary);
        std::setvbuf(file.get(), nullptr, _IOFBF, 8 << 20);
        Writer w(file.get());
        w.bytes(Magic, sizeof Magic);
        w(CheckpointFormat);
        w.text(info.scene), w.text(info.settings);
        CheckpointInfo i = info;
        visitInfo(w, i);
        w.text(s.name);
        visitSettings(w, s);
        w.grid(s.grid);
        w.grid(s.region.within);
        w(uint64_t(s.region.obstacles.size()));
        visitBalls(w, s.region.obstacles);
        w(uint64_t(s.region.emitters.size()));
        visitBalls(w, s.region.emitters);
        w.grid(s.region.solid);
        w.grid(s.region.emitting);
        for (const std::vector<float>* f : sceneFields(s))
            w.floats(*f);
        w.trailer();
        // on the disk before the rename makes it the checkpoint
        if (std::fflush(file.get()) != 0 || fsync(fileno(file.get())) != 0)
            throw std::runtime_error("a write failed (is the disk full?)");
        if (std::fclose(file.release()) != 0) throw std::runtime_error("a write failed (is the disk full?)");
    } catch (const std::exception& e) {
        std::filesystem::remove(temporary, ec);
        throw std::runtime_error("checkpoint: writing " + path + " failed: " + e.what() +
                                 "; nothing was left under its name");
    }
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::filesystem::remove(temporary, ec);
        throw std::runtime_error("checkpoint: cannot rename the finished " + temporary + " to " + path);
    }
}

Checkpoint readCheckpoint(const std::string& path)
{
    const std::string prefix = "--resume " + path + ": ";
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(prefix + "is a folder, not a checkpoint file");
    const uint64_t size = std::filesystem::file_size(path, ec);
    File file(ec ? nullptr : std::fopen(path.c_str(), "rb"));
    if (!file) throw InputError(prefix + "cannot be read (" + (ec ? ec.message() : "no permission?") + ")");
    Checkpoint c;
    try {
        Reader r(file.get(), size);
        char magic[sizeof Magic] = {};
        uint32_t format = 0;
        if (size < sizeof Magic + sizeof format) throw InputError("not a vbm-fluid checkpoint (too short)");
        r.bytes(magic, sizeof magic);
        if (std::memcmp(magic, Magic, sizeof Magic) != 0) throw InputError("not a vbm-fluid checkpoint");
        r(format);
        if (format != CheckpointFormat)
            throw InputError("a checkpoint of format " + std::to_string(format) + "; this vbm-fluid reads format " +
                             std::to_string(CheckpointFormat) + " only (resume it with the version that wrote it)");
        readBody(r, c);
    } catch (const InputError& e) {
        throw InputError(prefix + e.what());
    } catch (const std::bad_alloc&) {
        throw InputError(prefix + "corrupt or too large for this machine's memory");
    }
    return c;
}

} // namespace vbm
