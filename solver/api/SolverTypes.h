// SPDX-License-Identifier: Apache-2.0
// The solver's public vocabulary: backends, resolver choices, parameters, timings, memory.
#pragma once

#include "vbm/Resolver.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace vbm {

/// A field stopped being finite (NaN or infinity): the run stops, naming the step and the field.
struct NonFiniteError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class Backend { Cpu, Cuda };
enum class SimulationKind { Heat, Smoke };
enum class HeatScheme { Explicit, Implicit };
/// Smoke's advection: semi-Lagrangian, or MacCormack's limited correction of it (sharper).
enum class AdvectionScheme { SemiLagrangian, MacCormack };
/// How smoke stores density and temperature: a float each, or (opt-in) a half each, the pair in
/// one 32-bit element (4 B per voxel less; docs/solver.md states the error against float).
enum class ScalarStorage { Float, Half };
/// Preconditioner of the pressure CG.
enum class Preconditioner { Multigrid, Jacobi };
/// The fine level's stored cross taps (docs/solver.md, "The voxel tap table"): the same bits
/// either way; auto (the default) turns them on when they fit (MemoryPlan.h).
enum class TapTableMode { Auto, Off, On };

inline const char* backendName(Backend b) { return b == Backend::Cuda ? "cuda" : "cpu"; }

/// Which resolver each step kind uses, and the block width (128 or 512).
struct StencilChoice {
    /// Laplacian-type steps (diffusion, divergence, Poisson matrix-vector product, gradient,
    /// face/centre averaging): any of the seven.
    Resolver laplacian = Resolver::computeCrossStencilCached;
    /// Advection: a box resolver (NanoVDB13 or one of our four).
    Resolver advection = Resolver::forEachBoxStencilCached;
    int log2BlockWidth = 7;
    bool operator==(const StencilChoice&) const = default;
};

/// The largest max_cfl: the reach of a wide advection substep (kernels/WideAdvectionBodies.h),
/// whose trilinear corners must stay within the 27 leaves around a voxel's leaf.
inline constexpr double MaxCfl = 7.0;

struct SimulationParams {
    double dt = 1.0;        ///< time step (seconds)
    double voxelSize = 1.0; ///< h
    // heat
    double alpha = 1.0; ///< diffusivity
    HeatScheme scheme = HeatScheme::Explicit;
    // smoke
    double buoyancy = 0.5; ///< upward acceleration per unit temperature
    double weight = 0.1;   ///< downward acceleration per unit density
    double emitDensity = 1.0;
    double emitTemperature = 1.0;
    double vorticity = 0.0; ///< vorticity confinement strength eps (0: off)
    double maxCfl = MaxCfl; ///< advection substeps keep the CFL number at most this (> 1: wide; <= 1: box taps)
    AdvectionScheme advection = AdvectionScheme::MacCormack; ///< of density, temperature, fuel
    // fire: fuel is emitted like density and burns where the temperature exceeds `ignition`
    double emitFuel = 0.0;    ///< fuel the emitter holds (0: no fire, no fuel channel)
    double ignition = 0.5;    ///< temperature above which fuel burns
    double burnRate = 0.5;    ///< fuel burnt per unit time where it burns (at most what is there)
    double burnHeat = 2.0;    ///< temperature released per unit of fuel burnt
    double burnSmoke = 0.5;   ///< density (smoke) released per unit of fuel burnt
    double cooling = 0.0;     ///< the fraction of its temperature the gas loses per unit time
    double dissipation = 0.0; ///< the fraction of its smoke (density) the gas loses per unit time
    double emitNoise = 0.0;   ///< the emitter's values vary by up to this fraction (kernels/EmitterNoise.h)
    uint32_t seed = 0;        ///< the emitter noise's seed (scene `seed N`, --seed N)
    // linear solves
    double cgTolerance = 1e-5;                                         ///< relative residual ||r|| / ||b||
    Preconditioner pressurePreconditioner = Preconditioner::Multigrid; ///< smoke's pressure solve
    int cgMaxIterations = 500;
};

/// A fire scene: smoke whose emitter also emits fuel.
inline bool isFire(const SimulationParams& p) { return p.emitFuel > 0; }

/// The largest explicit heat step that is stable: h^2 / (6 alpha).
inline double explicitStableDt(const SimulationParams& p) { return p.voxelSize * p.voxelSize / (6.0 * p.alpha); }

/// Bytes the solver holds, on the device for the CUDA backend, on the host for the CPU one
/// (docs/solver.md, "Memory", has the table per array).
struct MemoryReport {
    uint64_t activeVoxels = 0;
    uint64_t gridAndVbm = 0;  ///< the fine grid and its VBMs at both widths
    uint64_t fields = 0;      ///< the channels (the emitter as bits), the 1-byte diagonal, air cells (adaptive)
    uint64_t temporaries = 0; ///< workspace slots, the coarse levels' tables, the executor's partial sums
    uint64_t total() const { return gridAndVbm + fields + temporaries; }
    double perVoxel(uint64_t part) const { return activeVoxels ? double(part) / double(activeVoxels) : 0; }
};

} // namespace vbm
