// The simulation's fields: named channels (its state, one float per value index, index 0 the
// background) and a named workspace of temporaries. Temporaries whose lifetimes never overlap
// share an array; slotOf() below is the one place that says which, and why it is safe.
#pragma once

#include "Scene.h"
#include "kernels/ActiveSetBodies.h"

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

/// The temporaries of the steps, by what they hold.
enum class Temp : uint8_t {
    // heat
    NewTemperature, ///< explicit: the step's output; implicit: the solve's right-hand side
    HeatSolution,   ///< implicit: the unknowns
    // smoke, from the sources to the faces
    CentreU,
    CentreV,
    CentreW, ///< the cell-centred velocity
    VorticityX,
    VorticityY,
    VorticityZ,
    VorticityMagnitude, ///< vorticity confinement's curl and |curl|
    AdvectedDensity,
    AdvectedTemperature,
    AdvectedU,
    AdvectedV,
    AdvectedW,       ///< advection's outputs, swapped with what they advect after each substep
    PressureRhs,     ///< -div u, the pressure solve's right-hand side
    DivergenceCheck, ///< div u after the step (a diagnostic)
    // the CG solves (heat's and the pressure's)
    CgResidual,
    CgPreconditioned,
    CgDirectionOld,
    CgDirection, ///< the direction ping-pongs between these two
    CgProduct,   ///< A d
    // the multigrid preconditioner, on the fine level
    MultigridSweep,
    MultigridResidual,
    // fire
    AdvectedFuel, ///< advection's fuel output (its own slot: fire scenes only)
};

/// The array (slot) each temporary lives in. Names on one slot are never live at once:
/// - slots 0-4 are advection's outputs; before advection they hold vorticity (0-3), after it the
///   pressure solve's right-hand side (0, the old density once swapped) and CG's r, z and its two
///   directions (1-4); heat uses them for its output and its CG;
/// - slots 5-7 hold the centred velocity from the sources until the faces are made from it;
///   then 5 is CG's A d, shared with the V-cycle's first sweep (UpdateSolution reads q[i]
///   before it writes the sweep there), and 6 the V-cycle's residual; heat's unknowns use 6;
/// - slot 8 (fire scenes) holds advection's fuel output.
constexpr int slotOf(Temp t)
{
    switch (t) {
    case Temp::NewTemperature:
    case Temp::VorticityX:
    case Temp::AdvectedDensity:
    case Temp::PressureRhs:
    case Temp::DivergenceCheck:
        return 0;
    case Temp::VorticityY:
    case Temp::AdvectedTemperature:
    case Temp::CgResidual:
        return 1;
    case Temp::VorticityZ:
    case Temp::AdvectedU:
    case Temp::CgPreconditioned:
        return 2;
    case Temp::VorticityMagnitude:
    case Temp::AdvectedV:
    case Temp::CgDirectionOld:
        return 3;
    case Temp::AdvectedW:
    case Temp::CgDirection:
        return 4;
    case Temp::CentreU:
    case Temp::CgProduct:
    case Temp::MultigridSweep:
        return 5;
    case Temp::CentreV:
    case Temp::HeatSolution:
    case Temp::MultigridResidual:
        return 6;
    case Temp::CentreW:
        return 7;
    case Temp::AdvectedFuel:
        return 8;
    }
    return -1;
}
/// Workspace slots a simulation of `kind` allocates (a fire scene one more: slot 8).
constexpr int slotCount(SimulationKind kind, bool fire = false)
{
    return kind == SimulationKind::Heat ? 7 : fire ? 9 : 8;
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
        make(Channel::Temperature, scene.temperature);
        if (scene.kind == SimulationKind::Heat) {
            make(Channel::Fixed, scene.fixed);
        } else {
            make(Channel::Density, scene.density);
            make(Channel::Emitter, scene.emitter);
            make(Channel::U, scene.u), make(Channel::V, scene.v), make(Channel::W, scene.w);
            make(Channel::Pressure, scene.pressure);
            if (isFire(scene.params)) make(Channel::Fuel, {});
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
    /// through `oldIndex` (retained voxels keep their bits, new ones take 0: zero density,
    /// temperature and pressure, the scene's wind for velocity), the workspace made anew. Arrays are allocated with
    /// a quarter more room than needed and kept while the count fits (and is above half of
    /// them), so a settled active count stops reallocating.
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
        for (Array<float>& s : mSlots) {
            s = Array<float>();
            s = Exec::template allocate<float>(mCapacity);
        }
        mCount = count;
        mChannelBytes = (mChannels.size() - countEmpty()) * mCapacity * sizeof(float);
        mWorkspaceBytes = mSlots.size() * mCapacity * sizeof(float);
    }

    bool has(Channel c) const { return mChannels[size_t(c)].size() != 0; }
    float* operator[](Channel c) { return mChannels[size_t(c)].data(); }
    const float* operator[](Channel c) const { return mChannels[size_t(c)].data(); }
    const Array<float>& array(Channel c) const { return mChannels[size_t(c)]; }
    float* operator[](Temp t) { return mSlots[size_t(slotOf(t))].data(); }

    /// A step's output becomes the channel; the channel's old values go to the temporary's slot.
    void swap(Channel c, Temp t) { std::swap(mChannels[size_t(c)], mSlots[size_t(slotOf(t))]); }
    void swap(Temp a, Temp b) { std::swap(mSlots[size_t(slotOf(a))], mSlots[size_t(slotOf(b))]); }
    void swap(Channel a, Channel b) { std::swap(mChannels[size_t(a)], mChannels[size_t(b)]); }

    uint64_t valueCount() const { return mCount; }
    /// Bytes per value index of every channel and workspace array.
    uint64_t bytesPerValue() const { return (mChannels.size() - countEmpty() + mSlots.size()) * sizeof(float); }
    uint64_t channelBytes() const { return mChannelBytes; }
    uint64_t workspaceBytes() const { return mWorkspaceBytes; }

private:
    size_t countEmpty() const
    {
        size_t n = 0;
        for (const Array<float>& a : mChannels)
            n += a.size() == 0;
        return n;
    }

    uint64_t mCount = 0, mCapacity = 0, mChannelBytes = 0, mWorkspaceBytes = 0;
    std::array<Array<float>, ChannelCount> mChannels;
    std::array<float, ChannelCount> mAmbient{}; ///< what a new voxel takes, per channel
    std::vector<Array<float>> mSlots;
};

} // namespace vbm::solver
