// SPDX-License-Identifier: Apache-2.0
// Scenes: a domain (an OnIndex grid), initial fields and parameters, read from the small text
// format of assets/scenes/README.md. The built-in scenes are those files, compiled in.
#pragma once

#include "ActiveRegion.h"
#include "GridGenerators.h"
#include "SolverTypes.h"

#include <array>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace vbm {

/// A malformed or unusable scene: the message names the file and line.
struct SceneError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Scene {
    std::string name;
    SimulationKind kind = SimulationKind::Heat;
    HostGridHandle grid; ///< the domain: a leaf-only OnIndex grid
    /// Initial fields per value index (size lastOffset + 1; index 0 is the background), or empty for zeros.
    std::vector<float> temperature, density, fixed, emitter;
    /// Smoke: initial face velocities and pressure per value index, or empty (Solver::snapshot).
    std::vector<float> u, v, w, pressure;
    /// Fire: initial fuel per value index, or empty (Solver::state).
    std::vector<float> fuel;
    /// Steps already taken (Solver::state, a checkpoint's): the emitter noise and the rebuild
    /// schedule go on from here; 0 for a new scene.
    uint64_t startStep = 0;
    SimulationParams params;
    /// Smoke: density and temperature as floats (default) or half pairs (`scalar_storage half`).
    ScalarStorage scalars = ScalarStorage::Float;
    /// Store the fine level's cross taps, 24 bytes per voxel, for faster Laplacian-type passes
    /// with bitwise the same results (`tap_table auto|on|off`; solver/kernels/StoredTaps.h).
    /// Auto: on when it fits (planTapTable, MemoryPlan.h).
    TapTableMode tapTable = TapTableMode::Auto;
    /// Smoke: the initial face velocity everywhere, and the velocity voxels that become active
    /// take (`wind VX VY VZ`; default still air).
    std::array<float, 3> wind{0.f, 0.f, 0.f};
    /// Adaptive scenes (`adapt`, or `domain open`) rebuild their topology as the smoke moves.
    Adaptation adapt;
    /// Where they may be active; obstacles and emitters are listed for every scene.
    ActiveRegion region;
};

/// Every per-voxel field a Scene carries, in the order checkpoints store them (for a Scene or a
/// const Scene).
template <class S>
auto sceneFields(S& s)
{
    return std::array{&s.temperature, &s.density, &s.fixed, &s.emitter, &s.u, &s.v, &s.w, &s.pressure, &s.fuel};
}

/// What a caller may add to building a scene's domain, which can take minutes at a billion
/// voxels: a check once the voxel count is known (before any voxel of a fixed domain is built;
/// an open domain's first set is small and built first). It refuses by throwing; `scene` holds
/// every setting and no grid yet, and the caller may apply its own overrides to it first. And
/// progress: what is being built and the fraction done, called often (the caller decides what
/// to print).
struct SceneBuildHooks {
    std::function<void(Scene& scene, double voxels)> beforeBuild;
    std::function<void(const char* what, double fraction)> progress;
};

/// Names of the built-in scenes.
std::vector<std::string> builtinSceneNames();

/// A built-in scene, or a scene file when `nameOrPath` is not a built-in name.
Scene loadScene(const std::string& nameOrPath, const SceneBuildHooks& hooks = {});

/// Parses scene text; `source` names it in errors, `baseDir` resolves relative .nvdb paths.
Scene parseScene(const std::string& text, const std::string& source, const std::string& baseDir = ".",
                 const SceneBuildHooks& hooks = {});

} // namespace vbm
