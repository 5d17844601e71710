// SPDX-License-Identifier: Apache-2.0
// The simulation's fields: named channels (its state, one float per value index, index 0 the
// background) and a named workspace of temporaries. Temporaries whose lifetimes never overlap
// share an array; slotOf() below is the one place that says which, and why it is safe.
#pragma once

#include "Scene.h"
#include "kernels/ActiveSetBodies.h"
#include "kernels/ScalarPairs.h"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace vbm::solver {

/// The state channels.
enum class Channel : uint8_t { Temperature, Density, U, V, W, Pressure, Emitter, Fixed, Fuel };
inline constexpr int ChannelCount = int(Channel::Fuel) + 1;

/// The name users see (Solver::fieldNames, exports, the renderer's choice).
constexpr const char* channelName(Channel c)
{
    constexpr const char* names[ChannelCount] = {"temperature", "density", "u",     "v",   "w",
                                                 "pressure",    "emitter", "fixed", "fuel"};
    return names[int(c)];
}
/// The channels a simulation of `kind` exposes to users, in the order Solver::fieldNames lists
/// them (fire scenes: fuel last).
inline std::vector<Channel> userChannels(SimulationKind kind, bool fire = false)
{
    if (kind == SimulationKind::Heat) return {Channel::Temperature};
    std::vector<Channel> c = {Channel::Density, Channel::Temperature, Channel::U,
                              Channel::V,       Channel::W,           Channel::Pressure};
    if (fire) c.push_back(Channel::Fuel);
    return c;
}
/// The user channel of a name, if `kind` (and fire) has it.
inline std::optional<Channel> parseChannel(const std::string& name, SimulationKind kind, bool fire = false)
{
    for (Channel c : userChannels(kind, fire))
        if (name == channelName(c)) return c;
    return std::nullopt;
}

/// The temporaries of the steps, by what they hold. The face channels U, V and W are dead
/// from SmokeSources' centring until Projection makes the faces again, and the steps between
/// use them as scratch by name (Channel::U, V, W), not through a temporary: vorticity's z and
/// |curl|, advection's forward density, temperature and w.
enum class Temp : uint8_t {
    // heat
    NewTemperature, ///< explicit: the step's output; implicit: the solve's right-hand side
    HeatSolution,   ///< implicit: the unknowns
    // smoke, from the sources to the faces
    CentreU,
    CentreV,
    CentreW, ///< the cell-centred velocity (MacCormack's corrections go here: Advection.h)
    VorticityX,
    VorticityY, ///< vorticity confinement's curl (its z and |curl|: the faces U and V)
    AdvectedU,
    AdvectedV,       ///< advection's u and v outputs (w's: the face W), swapped with the centres
    PressureRhs,     ///< -div u, the pressure solve's right-hand side
    DivergenceCheck, ///< div u after the step (a diagnostic)
    // the CG solves (heat's and the pressure's)
    CgResidual,
    CgPreconditioned,
    CgDirectionOld,
    CgDirection, ///< the direction ping-pongs between these two; the V-cycle keeps every coarse
                 ///< level's x, sweep and right-hand side in the dead one (MultigridHierarchy)
    CgProduct,   ///< A d
    // the multigrid preconditioner
    MultigridSweep,    ///< the fine level's sweep
    MultigridResidual, ///< the fine level's residual
    // adaptive scenes' rebuild
    EmitterMarks, ///< MarkEmitters' 0/1 per voxel, before they are packed into the emitter's bits
    // fire
    AdvectedFuel, ///< advection's fuel output (its own slot: fire scenes only)
};

/// The array (slot) each temporary lives in. Names on one slot are never live at once, but
/// where an element's last read comes before the write that reuses its array:
/// - slots 0-1 are vorticity's x and y, then advection's u and v outputs; CG's z and r after;
///   heat's output, its right-hand side and its CG's z use 0;
/// - slots 2-4 hold the centred velocity from the sources until the faces are made from it
///   (and advection's MacCormack corrections: it reads the velocity only at its own voxel);
///   then 2 and 4 are CG's two directions (and the coarse levels' arrays in the dead one), 3
///   its A d, shared with the V-cycle's first sweep (UpdateSolution reads q[i] before it writes
///   the sweep there);
/// - the right-hand side (0) is dead once CG has made r from it: z then uses its array, and so
///   does the V-cycle's fine residual, which is dead once restricted, before the cycle's last
///   sweep writes z;
/// - a rebuild, before any step's temporaries exist, marks the emitters in 0;
/// - slot 5 holds heat's unknowns, or (fire scenes) advection's fuel output.
constexpr int slotOf(Temp t)
{
    switch (t) {
    case Temp::NewTemperature:
    case Temp::VorticityX:
    case Temp::AdvectedU:
    case Temp::PressureRhs:
    case Temp::CgPreconditioned:
    case Temp::MultigridResidual:
    case Temp::DivergenceCheck:
    case Temp::EmitterMarks:
        return 0;
    case Temp::VorticityY:
    case Temp::AdvectedV:
    case Temp::CgResidual:
        return 1;
    case Temp::CentreU:
    case Temp::CgDirection:
        return 2;
    case Temp::CentreV:
    case Temp::CgProduct:
    case Temp::MultigridSweep:
        return 3;
    case Temp::CentreW:
    case Temp::CgDirectionOld:
        return 4;
    case Temp::HeatSolution:
    case Temp::AdvectedFuel:
        return 5;
    }
    return -1;
}
/// Workspace slots a simulation of `kind` allocates: smoke 5, fire and heat 6.
constexpr int slotCount(SimulationKind kind, bool fire = false)
{
    return kind == SimulationKind::Smoke && !fire ? 5 : 6;
}

template <class Exec>
class Fields {
    template <typename T>
    using Array = typename Exec::template Array<T>;

public:
    /// The channels of `scene.kind` on a domain of `valueCount` value indices, with the scene's
    /// initial values (zero where it gives none), and the workspace.
    Fields(const Scene& scene, uint64_t valueCount) : mCount(valueCount), mCapacity(valueCount)
    {
        const auto make = [&](Channel c, const std::vector<float>& init) {
            Array<float>& a = mChannels[size_t(c)];
            a = Exec::template allocate<float>(valueCount);
            if (!init.empty()) {
                if (init.size() != valueCount) throw std::invalid_argument("scene field has the wrong size");
                Exec::upload(a, init);
            }
            mChannelBytes += valueCount * sizeof(float);
        };
        mHalf = scene.kind == SimulationKind::Smoke && scene.scalars == ScalarStorage::Half;
        if (!mHalf) make(Channel::Temperature, scene.temperature);
        if (scene.kind == SimulationKind::Heat) {
            make(Channel::Fixed, scene.fixed);
        } else if (mHalf) {
            make(Channel::Density, packedPairs(scene.density, scene.temperature, valueCount));
        } else {
            make(Channel::Density, scene.density);
        }
        if (scene.kind == SimulationKind::Smoke) {
            if (!scene.emitter.empty() && scene.emitter.size() != valueCount)
                throw std::invalid_argument("scene field has the wrong size");
            mEmitter = Exec::template allocate<uint32_t>(flagWords(valueCount));
            Exec::upload(mEmitter, packNonzero(scene.emitter, flagWords(valueCount)));
            mChannelBytes += flagWords(valueCount) * sizeof(uint32_t);
            make(Channel::U, scene.u), make(Channel::V, scene.v), make(Channel::W, scene.w);
            make(Channel::Pressure, scene.pressure);
            if (isFire(scene.params)) make(Channel::Fuel, scene.fuel);
            const std::vector<float>* given[3] = {&scene.u, &scene.v, &scene.w};
            for (int a = 0; a < 3; ++a) {
                mAmbient[size_t(Channel::U) + a] = scene.wind[a];
                if (scene.wind[a] != 0.f && given[a]->empty()) {
                    std::vector<float> wind(valueCount, scene.wind[a]);
                    wind[0] = 0.f;
                    Exec::upload(mChannels[size_t(Channel::U) + a], wind);
                }
            }
        }
        mSlots.resize(size_t(slotCount(scene.kind, isFire(scene.params))));
        for (Array<float>& s : mSlots)
            s = Exec::template allocate<float>(valueCount);
        mWorkspaceBytes = mSlots.size() * valueCount * sizeof(float);
    }

    /// The fields on a new topology of `count` value indices (a rebuild): every channel copied
    /// through `oldIndex` (the emitter's bits only made room for: the rebuild marks them anew) (retained voxels keep
    /// their bits, new ones take 0: zero density, temperature and pressure, the scene's wind for velocity), the
    /// workspace made anew. Arrays are allocated with a quarter more room than needed and kept while the count fits
    /// (and is above half of them), so a settled active count stops reallocating.
    void remap(Exec& exec, const uint64_t* oldIndex, uint64_t count)
    {
        if (count > mCapacity || count < mCapacity / 2) mCapacity = count + count / 4;
        for (size_t c = 0; c < mChannels.size(); ++c) {
            Array<float>& a = mChannels[c];
            if (a.size() == 0) continue;
            Array<float> moved = Exec::template allocate<float>(mCapacity);
            exec.elements(count, CopyRemapped{oldIndex, a.data(), moved.data(), mAmbient[c]});
            exec.synchronize(); // the old array may go
            a = std::move(moved);
        }
        if (mEmitter.size() != 0) {
            mEmitter = Array<uint32_t>();
            mEmitter = Exec::template allocate<uint32_t>(flagWords(mCapacity));
        }
        for (Array<float>& s : mSlots) {
            s = Array<float>();
            s = Exec::template allocate<float>(mCapacity);
        }
        mCount = count;
        mChannelBytes =
            (mChannels.size() - countEmpty()) * mCapacity * sizeof(float) + mEmitter.size() * sizeof(uint32_t);
        mWorkspaceBytes = mSlots.size() * mCapacity * sizeof(float);
    }

    /// Whether the simulation has channel c as an array of its own (the emitter never:
    /// emitter(); half storage's temperature never: it is packed with the density, scalars()).
    bool has(Channel c) const { return mChannels[size_t(c)].size() != 0; }
    /// Whether density and temperature are stored as half pairs in Channel::Density's array.
    bool halfScalars() const { return mHalf; }
    /// Density and temperature as the kernels take them (ScalarPairs.h).
    ScalarPairs scalars() { return {(*this)[Channel::Density], mHalf ? nullptr : (*this)[Channel::Temperature]}; }
    /// The emitter as bits (flagAt, kernels/ActiveSetBodies.h): only whether it is nonzero is
    /// ever read (Emit), so 1 bit per value index holds it exactly; null in heat.
    uint32_t* emitter() { return mEmitter.data(); }
    /// A host copy of the emitter: 1 where it is set, else 0.
    std::vector<float> downloadEmitter() const
    {
        const std::vector<uint32_t> bits = Exec::download(mEmitter);
        std::vector<float> out(mCount, 0.f);
        for (uint64_t i = 0; i < mCount; ++i)
            out[i] = flagAt(bits.data(), i) ? 1.f : 0.f;
        return out;
    }
    float* operator[](Channel c) { return mChannels[size_t(c)].data(); }
    const float* operator[](Channel c) const { return mChannels[size_t(c)].data(); }
    const Array<float>& array(Channel c) const { return mChannels[size_t(c)]; }
    float* operator[](Temp t) { return mSlots[size_t(slotOf(t))].data(); }

    /// A step's output becomes the channel; the channel's old values go to the temporary's slot.
    void swap(Channel c, Temp t) { std::swap(mChannels[size_t(c)], mSlots[size_t(slotOf(t))]); }
    void swap(Temp a, Temp b) { std::swap(mSlots[size_t(slotOf(a))], mSlots[size_t(slotOf(b))]); }
    void swap(Channel a, Channel b) { std::swap(mChannels[size_t(a)], mChannels[size_t(b)]); }

    uint64_t valueCount() const { return mCount; }
    /// Bytes per value index of every channel and workspace array (the emitter's bits rounded up to 1).
    uint64_t bytesPerValue() const
    {
        return (mChannels.size() - countEmpty() + mSlots.size()) * sizeof(float) + (mEmitter.size() ? 1 : 0);
    }
    uint64_t channelBytes() const { return mChannelBytes; }
    uint64_t workspaceBytes() const { return mWorkspaceBytes; }

private:
    /// Words of a bit array over [0, n).
    static uint64_t flagWords(uint64_t n) { return n / 32 + 1; }
    /// Bit i set where values[i] != 0 (none when values is empty).
    static std::vector<uint32_t> packNonzero(const std::vector<float>& values, uint64_t words)
    {
        std::vector<uint32_t> bits(words, 0u);
        for (uint64_t i = 0; i < values.size(); ++i)
            if (values[i] != 0.f) bits[i / 32] |= 1u << (i % 32);
        return bits;
    }

    /// The half pairs of the scene's initial density and temperature (empty: zeros).
    static std::vector<float> packedPairs(const std::vector<float>& density, const std::vector<float>& temperature,
                                          uint64_t n)
    {
        if (density.empty() && temperature.empty()) return {};
        if ((!density.empty() && density.size() != n) || (!temperature.empty() && temperature.size() != n))
            throw std::invalid_argument("scene field has the wrong size");
        std::vector<float> packed(n);
        for (uint64_t i = 0; i < n; ++i)
            packed[i] = packPair(density.empty() ? 0.f : density[i], temperature.empty() ? 0.f : temperature[i]);
        return packed;
    }

    size_t countEmpty() const
    {
        size_t n = 0;
        for (const Array<float>& a : mChannels)
            n += a.size() == 0;
        return n;
    }

    uint64_t mCount = 0, mCapacity = 0, mChannelBytes = 0, mWorkspaceBytes = 0;
    bool mHalf = false; ///< density and temperature as half pairs in Channel::Density's array
    std::array<Array<float>, ChannelCount> mChannels;
    std::array<float, ChannelCount> mAmbient{}; ///< what a new voxel takes, per channel
    std::vector<Array<float>> mSlots;
    Array<uint32_t> mEmitter; ///< smoke: the emitter's bits
};

} // namespace vbm::solver
