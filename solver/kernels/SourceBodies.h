// SPDX-License-Identifier: Apache-2.0
// Kernel bodies of smoke's sources step: the emitter, combustion (fire scenes), buoyancy, the
// face-to-centre velocity (fused with them when nothing runs between them), and vorticity
// confinement.
//
// Velocity is staggered (MAC): u[i] is the x-velocity on the +x face of voxel i, v[i] the +y
// face, w[i] the +z face; a face shared with an inactive voxel is a solid wall and holds 0.
#pragma once

#include "kernels/ActiveSetBodies.h"
#include "kernels/EmitterNoise.h"
#include "kernels/ScalarPairs.h"
#include "vbm/TreeWalkStencils.h"
#include <cmath>

#include <cstdint>

namespace vbm::solver {

struct Emit {
    const uint32_t* emitter; ///< bits (flagAt): set inside
    ScalarPairs scalars;     ///< density and temperature
    float densityValue, temperatureValue;
    float* fuel = nullptr; ///< fire scenes: raised to fuelValue too
    float fuelValue = 0.f;
    __hostdev__ void operator()(uint64_t i) const
    {
        if (emitter && flagAt(emitter, i)) { // the loads before the stores (null emitter: none)
            const DensityTemperature s = scalars.load(i);
            const float f = fuel ? fuel[i] : 0.f;
            scalars.store(i, {s.density > densityValue ? s.density : densityValue,
                              s.temperature > temperatureValue ? s.temperature : temperatureValue});
            if (fuel) fuel[i] = f > fuelValue ? f : fuelValue;
        }
    }
};

/// The emitter with seeded noise on its values (EmitterNoise.h): the noise needs the voxel's
/// coordinate, so this is a voxel body, run before the sources' other passes (Emit's values are
/// read nowhere else in them). Only emitter voxels do more than test a bit.
struct EmitWithNoise {
    const IndexGrid* grid;
    Emit emit;
    EmitterNoise noise;
    __hostdev__ void operator()(uint64_t i, uint32_t leafIndex, uint16_t voxelOffset) const
    {
        if (!flagAt(emit.emitter, i)) return;
        const float s = noise.scale(voxelCoord(grid, leafIndex, voxelOffset));
        Emit e = emit;
        e.densityValue *= s, e.temperatureValue *= s, e.fuelValue *= s;
        e(i);
    }
};

/// Smoke's decay (temperature times `keepHeat`, 1 - dt*cooling; density times `keepSmoke`,
/// 1 - dt*dissipation) in scenes without fuel: Burn without the burning.
__hostdev__ inline DensityTemperature decayed(const DensityTemperature& s, float keepHeat, float keepSmoke)
{
    return {keepSmoke == 1.f ? s.density : s.density * keepSmoke,
            keepHeat == 1.f ? s.temperature : s.temperature * keepHeat};
}

/// Combustion: the gas first cools and its smoke thins (temperature times `keepHeat`, 1 -
/// dt*cooling; density times `keepSmoke`, 1 - dt*dissipation), then where the temperature
/// exceeds `ignition`, b = min(fuel, dtRate) of the fuel burns and releases heat*b of temperature
/// and smoke*b of density. fuel null: no fire, only the decay (a no-op when both keeps are 1).
struct Burn {
    float* fuel = nullptr;
    ScalarPairs scalars; ///< density and temperature
    float ignition = 0.f, dtRate = 0.f, heat = 0.f, smoke = 0.f;
    float keepHeat = 1.f, keepSmoke = 1.f;
    __hostdev__ void operator()(uint64_t i) const
    {
        if (!fuel) {
            if (keepHeat != 1.f || keepSmoke != 1.f) scalars.store(i, decayed(scalars.load(i), keepHeat, keepSmoke));
            return;
        }
        const DensityTemperature s = scalars.load(i);
        const DensityTemperature k = decayed(s, keepHeat, keepSmoke);
        const float t = k.temperature, d = k.density;
        const float f = fuel[i];
        if (!(f > 0.f) || !(t > ignition)) {
            scalars.store(i, {d, t});
            return;
        }
        const float b = f < dtRate ? f : dtRate;
        fuel[i] = f - b;
        scalars.store(i, {d + smoke * b, t + heat * b});
    }
};

/// Buoyancy on the centred y velocity: dt * (buoyancy*T - weight*density).
struct Buoyancy {
    ScalarPairs scalars; ///< density and temperature
    float* cv;
    float dtBuoyancy, dtWeight;
    __hostdev__ void operator()(uint64_t i) const
    {
        const DensityTemperature s = scalars.load(i);
        cv[i] += dtBuoyancy * s.temperature - dtWeight * s.density;
    }
};

/// Cell-centred velocity: the mean of each axis's two faces (a wall face counts 0).
template <bool FromBox>
struct CentresFromFaces {
    const float *u, *v, *w;
    float *cu, *cv, *cw;
    /// With fused set, also the step's emitter, combustion and buoyancy (element bodies of voxel i that read
    /// and write nothing the centres do): two passes over the grid fewer. Used when nothing runs
    /// between them (vorticity confinement off).
    bool fused = false;
    Emit emit{};
    Buoyancy buoyancy{};
    Burn burn{};
    /// Adaptive scenes: the air cells' open faces (ActiveSetBodies.h); an open -x face carries
    /// the voxel's own +x face velocity (null: every inactive neighbour is a wall).
    const float* air = nullptr;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        const auto lower = [&](const float* f, int t) {
            return c.n[t] ? f[c.n[t]] : (openFace(air, i, t) ? f[i] : 0.f);
        };
        const float ui = 0.5f * (u[i] + lower(u, 1)), vi = 0.5f * (v[i] + lower(v, 3)),
                    wi = 0.5f * (w[i] + lower(w, 5)); // the loads before the stores
        cu[i] = ui, cv[i] = vi, cw[i] = wi;
        if (fused) {
            emit(i);
            burn(i);
            buoyancy(i);
        }
    }
};

// ---------------------------------------------------------- vorticity confinement
//
// On the centred velocity: w = curl u by central differences (an inactive neighbour reads
// the voxel's own value, a one-sided zero gradient), then a force eps*h*(N x w) with N the
// unit gradient of |w|, which puts back the small swirls that advection smooths away.

/// w = curl(u) and |w| at voxel i.
template <bool FromBox>
struct Vorticity {
    const float *cu, *cv, *cw;
    float *wx, *wy, *wz, *magnitude;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        const auto at = [&](const float* a, int t) { return c.n[t] ? a[c.n[t]] : a[i]; };
        // taps: 1 -x, 2 +x, 3 -y, 4 +y, 5 -z, 6 +z
        const float x = 0.5f * ((at(cw, 4) - at(cw, 3)) - (at(cv, 6) - at(cv, 5)));
        const float y = 0.5f * ((at(cu, 6) - at(cu, 5)) - (at(cw, 2) - at(cw, 1)));
        const float z = 0.5f * ((at(cv, 2) - at(cv, 1)) - (at(cu, 4) - at(cu, 3)));
        wx[i] = x, wy[i] = y, wz[i] = z;
        magnitude[i] = sqrtf(x * x + y * y + z * z);
    }
};

/// u += dt * eps * h * (N x w), N = grad|w| / |grad|w||; with w in voxel units that is scale = dt * eps.
template <bool FromBox>
struct ConfinementForce {
    const float *wx, *wy, *wz, *magnitude;
    float *cu, *cv, *cw;
    float scale;
    template <typename Taps>
    __hostdev__ void operator()(uint64_t i, Taps&& taps) const
    {
        const auto c = gatherCross<FromBox>(taps);
        const auto at = [&](int t) { return c.n[t] ? magnitude[c.n[t]] : magnitude[i]; };
        const float gx = 0.5f * (at(2) - at(1)), gy = 0.5f * (at(4) - at(3)), gz = 0.5f * (at(6) - at(5));
        const float len = sqrtf(gx * gx + gy * gy + gz * gz);
        if (!(len > 1e-20f)) return;
        const float nx = gx / len, ny = gy / len, nz = gz / len;
        const float x = wx[i], y = wy[i], z = wz[i], u = cu[i], v = cv[i], w = cw[i]; // loads, then stores
        cu[i] = u + scale * (ny * z - nz * y);
        cv[i] = v + scale * (nz * x - nx * z);
        cw[i] = w + scale * (nx * y - ny * x);
    }
};

} // namespace vbm::solver
