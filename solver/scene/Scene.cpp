// SPDX-License-Identifier: Apache-2.0
// Scene text format and built-in scenes (see Scene.h); the domain statements are
// SceneDomain.cpp's and OpenDomain.cpp's.
#include "Scene.h"

#include "scene/OpenDomain.h"
#include "scene/SceneDomain.h"
#include "scene/SceneMeshes.h"
#include "scene/SceneText.h"
#include "kernels/ActiveSetBodies.h"
#include "vbm/BuildVoxelBlockManager.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

namespace vbm {

namespace {

using namespace scenetext;

// The files of assets/scenes/, compiled in by CMake (BuiltinScenes.inc: {name, text} pairs).
const std::pair<const char*, const char*> BuiltinScenes[] = {
#include "BuiltinScenes.inc"
};

/// parseScene, and with `runnable` the checks of a scene about to run (defined below).
Scene parseText(const std::string& text, const std::string& source, const std::string& baseDir, bool runnable,
                const SceneBuildHooks& hooks);

} // namespace

std::vector<std::string> builtinSceneNames()
{
    std::vector<std::string> names;
    for (const auto& s : BuiltinScenes)
        names.push_back(s.first);
    return names;
}

Scene loadScene(const std::string& nameOrPath, const SceneBuildHooks& hooks)
{
    for (const auto& s : BuiltinScenes)
        if (nameOrPath == s.first) {
            Scene scene = parseText(s.second, std::string("built-in scene ") + s.first, ".", true, hooks);
            scene.name = s.first;
            return scene;
        }
    if (nameOrPath.empty()) throw SceneError("the scene name is empty: give a built-in name or a .scene file");
    std::error_code ec;
    if (std::filesystem::is_directory(nameOrPath, ec))
        throw SceneError(printableText(nameOrPath) + ": is a directory, not a scene file");
    std::ifstream in(nameOrPath);
    if (!in) {
        std::string names;
        for (const auto& n : builtinSceneNames())
            names += (names.empty() ? "" : ", ") + n;
        throw SceneError(printableText(nameOrPath) + ": no such scene file or built-in scene (built-ins: " + names +
                         ")");
    }
    std::stringstream text;
    text << in.rdbuf();
    const std::filesystem::path p(nameOrPath);
    Scene scene = parseText(text.str(), nameOrPath, p.has_parent_path() ? p.parent_path().string() : ".", true, hooks);
    scene.name = p.stem().string();
    return scene;
}

namespace {

/// The statements of a scene text, one per non-empty line, comments removed.
std::vector<Line> splitLines(const std::string& text)
{
    std::vector<Line> lines;
    // a UTF-8 byte-order mark (some editors write one) is not part of the first statement
    std::istringstream in(text.rfind("\xEF\xBB\xBF", 0) == 0 ? text.substr(3) : text);
    std::string raw;
    int n = 0;
    while (std::getline(in, raw)) {
        ++n;
        if (const size_t hash = raw.find('#'); hash != std::string::npos) raw.erase(hash);
        std::istringstream words(raw);
        Line l{n, {}};
        for (std::string w; words >> w;)
            l.words.push_back(w);
        if (!l.words.empty()) lines.push_back(std::move(l));
    }
    return lines;
}

/// The statements that need the domain first: they are applied after all lines are read.
struct DeferredLines {
    const Line* domain = nullptr;
    const Line* adapt = nullptr;
    const Line* floor = nullptr;
    std::vector<const Line*> removes, fields;
    std::map<std::string, int> settingLines; ///< where each numeric setting was given
};

/// One of the word-valued settings (kind, scheme, advection, pressure_preconditioner).
template <typename T>
T pick(const std::string& source, const Line& l, const std::vector<std::pair<const char*, T>>& choices)
{
    expectCount(source, l, 2);
    for (const auto& [word, value] : choices)
        if (l.words[1] == word) return value;
    std::string names;
    for (size_t i = 0; i < choices.size(); ++i)
        names += std::string(i ? (i + 1 == choices.size() ? " or " : ", ") : "") + choices[i].first;
    fail(source, l.number, l.words[0] + " must be " + names + ", not '" + l.words[1] + "'");
}

/// A numeric setting; false when `l` is not one.
bool readNumber(const std::string& source, const Line& l, SimulationParams& params)
{
    static const std::map<std::string, double SimulationParams::*> numbers = {
        {"dt", &SimulationParams::dt},
        {"alpha", &SimulationParams::alpha},
        {"voxel_size", &SimulationParams::voxelSize},
        {"buoyancy", &SimulationParams::buoyancy},
        {"weight", &SimulationParams::weight},
        {"emit_density", &SimulationParams::emitDensity},
        {"emit_temperature", &SimulationParams::emitTemperature},
        {"max_cfl", &SimulationParams::maxCfl},
        {"vorticity", &SimulationParams::vorticity},
        {"cg_tolerance", &SimulationParams::cgTolerance},
        {"emit_fuel", &SimulationParams::emitFuel},
        {"ignition", &SimulationParams::ignition},
        {"burn_rate", &SimulationParams::burnRate},
        {"burn_heat", &SimulationParams::burnHeat},
        {"burn_smoke", &SimulationParams::burnSmoke},
        {"cooling", &SimulationParams::cooling},
        {"dissipation", &SimulationParams::dissipation},
        {"emit_noise", &SimulationParams::emitNoise},
    };
    const std::string& key = l.words[0];
    if (key == "cg_max_iterations") {
        expectCount(source, l, 2);
        const double v = number(source, l, 1);
        if (v < 1 || v > 1e6 || v != std::floor(v))
            fail(source, l.number, "cg_max_iterations must be a whole number from 1");
        params.cgMaxIterations = int(v);
        return true;
    }
    if (key == "seed") {
        expectCount(source, l, 2);
        const double v = number(source, l, 1);
        if (v < 0 || v > 2147483647 || v != std::floor(v))
            fail(source, l.number, "seed must be a whole number from 0 to 2147483647");
        params.seed = uint32_t(v);
        return true;
    }
    const auto it = numbers.find(key);
    if (it == numbers.end()) return false;
    expectCount(source, l, 2);
    const double v = number(source, l, 1);
    const bool mayBeZero = key == "buoyancy" || key == "weight" || key == "emit_density" || key == "emit_fuel" ||
                           key == "ignition" || key == "burn_heat" || key == "burn_smoke" || key == "cooling" ||
                           key == "dissipation" || key == "emit_noise";
    if (mayBeZero ? !(v >= 0) : !(v > 0))
        fail(source, l.number, key + (mayBeZero ? " must be 0 or more" : " must be positive"));
    params.*(it->second) = v;
    return true;
}

/// The line of a numeric setting, or where its default applies (the 'kind' line).
int settingLine(const DeferredLines& d, const std::vector<Line>& lines, const std::string& key)
{
    if (const auto it = d.settingLines.find(key); it != d.settingLines.end()) return it->second;
    for (const Line& l : lines)
        if (l.words[0] == "kind") return l.number;
    return lines.empty() ? 1 : lines.front().number;
}

/// The settings that bound each other.
void checkSettings(const std::string& source, const std::vector<Line>& lines, const DeferredLines& d,
                   const Scene& scene)
{
    if (scene.params.maxCfl > MaxCfl)
        fail(source, settingLine(d, lines, "max_cfl"),
             "max_cfl must be at most 7 (a wide advection substep reaches 7 voxels; at most 1 keeps the box taps)");
    if (scene.params.emitNoise > 1)
        fail(source, settingLine(d, lines, "emit_noise"),
             "emit_noise must be from 0 to 1 (the fraction by which the emitter's values vary)");
    if (isFire(scene.params) && scene.kind != SimulationKind::Smoke)
        fail(source, settingLine(d, lines, "emit_fuel"), "emit_fuel (fire) is for smoke scenes");
    if (scene.scalars == ScalarStorage::Half && scene.kind != SimulationKind::Smoke)
        fail(source, settingLine(d, lines, "scalar_storage"),
             "scalar_storage half is for smoke scenes (heat's temperature is always float)");
}

/// What would stop a run at its first step, for a scene about to run (loadScene): the explicit
/// heat scheme's stability bound. (parseScene leaves it: tests and tools set dt afterwards.)
void checkRunnable(const std::string& source, const std::vector<Line>& lines, const DeferredLines& d,
                   const Scene& scene)
{
    const SimulationParams& p = scene.params;
    if (scene.kind == SimulationKind::Heat && p.scheme == HeatScheme::Explicit && p.dt > explicitStableDt(p)) {
        const bool given = d.settingLines.count("dt") != 0;
        char what[200];
        std::snprintf(what, sizeof what,
                      "the explicit heat scheme needs dt <= voxel_size^2 / (6 alpha) = %g; dt is %g%s: lower dt "
                      "or use 'scheme implicit'",
                      explicitStableDt(p), p.dt, given ? "" : " (the default)");
        fail(source, settingLine(d, lines, "dt"), what);
    }
    for (const auto& [key, rate] :
         {std::pair<const char*, double>{"cooling", p.cooling}, {"dissipation", p.dissipation}})
        if (p.dt * rate > 1) {
            char what[160];
            std::snprintf(what, sizeof what,
                          "%s %g with dt %g would take away more than there is in a step: "
                          "dt * %s must be at most 1",
                          key, rate, p.dt, key);
            fail(source, settingLine(d, lines, key), what);
        }
}

/// Reads the settings into `scene` and sets the statements that need the domain aside.
DeferredLines readStatements(const std::string& source, const std::vector<Line>& lines, Scene& scene)
{
    DeferredLines deferred;
    bool haveKind = false;
    for (const Line& l : lines) {
        const std::string& key = l.words[0];
        if (key == "kind") {
            scene.kind =
                pick<SimulationKind>(source, l, {{"heat", SimulationKind::Heat}, {"smoke", SimulationKind::Smoke}});
            haveKind = true;
        } else if (key == "domain") {
            if (deferred.domain)
                fail(source, l.number,
                     "a second 'domain' (the first is on line " + std::to_string(deferred.domain->number) + ")");
            deferred.domain = &l;
        } else if (key == "floor") {
            if (deferred.floor)
                fail(source, l.number,
                     "a second 'floor' (the first is on line " + std::to_string(deferred.floor->number) + ")");
            deferred.floor = &l;
        } else if (key == "remove") {
            deferred.removes.push_back(&l);
        } else if (key == "adapt") {
            if (deferred.adapt)
                fail(source, l.number,
                     "a second 'adapt' (the first is on line " + std::to_string(deferred.adapt->number) + ")");
            deferred.adapt = &l;
        } else if (key == "temperature" || key == "fixed" || key == "emitter" || key == "density") {
            deferred.fields.push_back(&l);
        } else if (key == "wind") {
            expectCount(source, l, 4);
            for (int a = 0; a < 3; ++a)
                scene.wind[a] = float(numberIn(source, l, 1 + a, -100, 100, "a wind component (a face velocity, in world units per unit time)"));
        } else if (key == "scheme") {
            scene.params.scheme =
                pick<HeatScheme>(source, l, {{"explicit", HeatScheme::Explicit}, {"implicit", HeatScheme::Implicit}});
        } else if (key == "advection") {
            scene.params.advection = pick<AdvectionScheme>(
                source, l,
                {{"maccormack", AdvectionScheme::MacCormack}, {"semi-lagrangian", AdvectionScheme::SemiLagrangian}});
        } else if (key == "scalar_storage") {
            scene.scalars =
                pick<ScalarStorage>(source, l, {{"float", ScalarStorage::Float}, {"half", ScalarStorage::Half}});
            deferred.settingLines[key] = l.number;
        } else if (key == "tap_table") {
            scene.tapTable = pick<TapTableMode>(
                source, l, {{"auto", TapTableMode::Auto}, {"off", TapTableMode::Off}, {"on", TapTableMode::On}});
        } else if (key == "pressure_preconditioner") {
            scene.params.pressurePreconditioner = pick<Preconditioner>(
                source, l, {{"multigrid", Preconditioner::Multigrid}, {"jacobi", Preconditioner::Jacobi}});
        } else if (readNumber(source, l, scene.params)) {
            deferred.settingLines[key] = l.number;
        } else {
            fail(source, l.number, "unknown statement '" + key + "'");
        }
    }
    if (!haveKind) fail(source, lines.empty() ? 1 : lines.back().number, "no 'kind' line (heat or smoke)");
    if (!deferred.domain) fail(source, lines.empty() ? 1 : lines.back().number, "no 'domain' line");
    checkSettings(source, lines, deferred, scene);
    if (deferred.adapt && scene.kind != SimulationKind::Smoke)
        fail(source, deferred.adapt->number, "'adapt' is for smoke scenes");
    return deferred;
}

/// `emitter mesh ...`: the emitter is 1 at the domain's voxels among the line's mesh voxels.
void applyMeshEmitter(const std::string& source, const Line& l, const CoordList& voxels, Scene& scene)
{
    if (scene.kind != SimulationKind::Smoke) fail(source, l.number, "'emitter' is for smoke scenes");
    const IndexGrid* g = scene.grid.grid<nanovdb::ValueOnIndex>();
    if (scene.emitter.empty()) scene.emitter.assign(vbmExtent(g, 7).lastOffset + 1, 0.f);
    auto acc = g->getAccessor();
    const IndexGrid* solid = scene.region.solid ? scene.region.solid.grid<nanovdb::ValueOnIndex>() : nullptr;
    uint64_t hit = 0;
    for (const nanovdb::Coord& c : voxels) {
        const uint64_t i = acc.getValue(c);
        if (i == 0 || (solid && solid->tree().isActive(c))) continue; // the test a rebuild's emitters use
        scene.emitter[i] = 1.f, ++hit;
    }
    if (!hit) fail(source, l.number, "the mesh holds no voxel of the domain");
}

/// Applies one initial-field statement (temperature, fixed, emitter) at every active voxel.
void applyFieldLine(const std::string& source, const Line& l, Scene& scene)
{
    const IndexGrid* g = scene.grid.grid<nanovdb::ValueOnIndex>();
    const uint64_t n = vbmExtent(g, 7).lastOffset + 1;
    // f at every voxel of the leaves that reach `within` (a billion-voxel domain's emitter
    // touches a few of its leaves: visiting only those keeps the set-up short).
    const auto forEachVoxel = [&](const nanovdb::CoordBBox& within,
                                  const std::function<void(uint64_t, const nanovdb::Coord&)>& f) {
        for (uint32_t i = 0; i < g->tree().nodeCount(0); ++i) {
            const nanovdb::Coord o = leaves(g)[i].origin();
            if (!within.hasOverlap(nanovdb::CoordBBox(o, o + nanovdb::Coord(7)))) continue;
            for (auto on = leaves(g)[i].valueMask().beginOn(); on; ++on)
                f(leaves(g)[i].getValue(*on), leaves(g)[i].offsetToGlobalCoord(*on));
        }
    };
    const std::string& key = l.words[0];
    if (l.words.size() < 2) fail(source, l.number, "'" + key + "' needs a shape");
    const std::string& kind = l.words[1];
    std::vector<float>* target = key == "temperature" ? &scene.temperature
                                 : key == "fixed"     ? &scene.fixed
                                 : key == "density"   ? &scene.density
                                                      : &scene.emitter;
    if (key == "density" && scene.kind != SimulationKind::Smoke)
        fail(source, l.number, "'density' is for smoke scenes");
    if (key == "density" && kind != "sphere") fail(source, l.number, "only 'density sphere CX CY CZ R VALUE'");
    if (key == "fixed" && scene.kind != SimulationKind::Heat) fail(source, l.number, "'fixed' is for heat scenes");
    if (key == "emitter" && scene.kind != SimulationKind::Smoke)
        fail(source, l.number, "'emitter' is for smoke scenes");
    if (target->empty()) target->assign(n, 0.f);
    if (key == "fixed" && scene.temperature.empty()) scene.temperature.assign(n, 0.f);
    if (kind == "gaussian" && key == "temperature") {
        expectCount(source, l, 7);
        const Sphere s = sphereOf(source, l, 2);
        const double amp = number(source, l, 6);
        if (!(s[3] > 0)) fail(source, l.number, "sigma must be positive");
        forEachVoxel(g->indexBBox(), [&](uint64_t i, const nanovdb::Coord& c) {
            const double r2 =
                (c[0] - s[0]) * (c[0] - s[0]) + (c[1] - s[1]) * (c[1] - s[1]) + (c[2] - s[2]) * (c[2] - s[2]);
            (*target)[i] += float(amp * std::exp(-r2 / (2 * s[3] * s[3])));
        });
    } else if (kind == "sphere") {
        expectCount(source, l, key == "emitter" ? 6 : 7);
        const Sphere s = sphereOf(source, l, 2);
        const float value = key == "emitter" ? 1.f : float(number(source, l, 6));
        uint64_t hit = 0;
        const nanovdb::CoordBBox ballBox{
            nanovdb::Coord(int(std::floor(s[0] - s[3])), int(std::floor(s[1] - s[3])), int(std::floor(s[2] - s[3]))),
            nanovdb::Coord(int(std::ceil(s[0] + s[3])), int(std::ceil(s[1] + s[3])), int(std::ceil(s[2] + s[3])))};
        forEachVoxel(ballBox, [&](uint64_t i, const nanovdb::Coord& c) {
            if (!solver::insideBall({s[0], s[1], s[2], s[3]}, c)) return; // the test a rebuild's emitters use
            ++hit;
            if (key == "fixed")
                scene.fixed[i] = 1.f, scene.temperature[i] = value;
            else
                (*target)[i] = value;
        });
        if (!hit) fail(source, l.number, "the sphere holds no voxel of the domain");
    } else {
        fail(source, l.number, "unknown shape '" + kind + "' for '" + key + "'");
    }
}

/// parseScene, and with `runnable` checkRunnable too.
Scene parseText(const std::string& text, const std::string& source, const std::string& baseDir, bool runnable,
                const SceneBuildHooks& hooks)
{
    const std::vector<Line> lines = splitLines(text);
    Scene scene;
    const DeferredLines deferred = readStatements(source, lines, scene);
    std::vector<Ball> smoke;
    collectBalls(source, deferred.removes, deferred.fields, scene.region, smoke);
    MeshVoxelLists meshes;
    collectMeshes(source, deferred.removes, deferred.fields, baseDir, scene.region, meshes);
    const Line& d = *deferred.domain;
    const bool open = d.words.size() >= 2 && d.words[1] == "open";
    if (deferred.adapt) scene.adapt = readAdapt(source, *deferred.adapt);
    if (open) {
        if (scene.kind != SimulationKind::Smoke) fail(source, d.number, "an open domain is for smoke scenes");
        if (!deferred.adapt) scene.adapt = DefaultOpenAdaptation;
        scene.grid = openDomain(source, d, deferred.floor, scene, smoke);
        if (hooks.beforeBuild)
            hooks.beforeBuild(scene, double(scene.grid.grid<nanovdb::ValueOnIndex>()->activeVoxelCount()));
    } else {
        if (deferred.floor)
            fail(source, deferred.floor->number, "'floor' is for open domains ('domain open'): other domains have walls");
        const DomainHooks domainHooks{[&](double voxels) {
                                          if (hooks.beforeBuild) hooks.beforeBuild(scene, voxels);
                                      },
                                      hooks.progress};
        scene.grid = buildDomain(source, d, deferred.removes, baseDir, scene.region, meshes, domainHooks);
        if (scene.adapt.enabled()) { // the loaded domain bounds where voxels may become active
            scene.region.within = scene.grid.copy<nanovdb::HostBuffer>();
            scene.region.box = scene.grid.grid<nanovdb::ValueOnIndex>()->indexBBox();
        }
    }
    if (open) checkMeshSizes(source, meshes, scene.region.box); // fixed domains: buildDomain checks
    for (const Line* l : deferred.fields) {
        if (const auto m = meshes.find(l); m != meshes.end())
            applyMeshEmitter(source, *l, m->second, scene);
        else
            applyFieldLine(source, *l, scene);
    }
    if (scene.kind == SimulationKind::Smoke && scene.emitter.empty() && scene.density.empty())
        fail(source, lines.back().number, "a smoke scene needs an 'emitter' or an initial 'density'");
    if (scene.kind == SimulationKind::Smoke && scene.emitter.empty()) scene.emitter.assign(scene.density.size(), 0.f);
    if (runnable) checkRunnable(source, lines, deferred, scene); // after the structure's own errors
    return scene;
}

} // namespace

Scene parseScene(const std::string& text, const std::string& source, const std::string& baseDir,
                 const SceneBuildHooks& hooks)
{
    return parseText(text, source, baseDir, false, hooks);
}

} // namespace vbm
