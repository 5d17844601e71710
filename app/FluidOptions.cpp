// SPDX-License-Identifier: Apache-2.0
// vbm-fluid's command line (see FluidOptions.h).
#include "FluidOptions.h"

#include "CommandLine.h"
#include "FrameExport.h"
#include "ResolverChoice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

namespace vbm::app {

const char* Usage = R"(usage: vbm-fluid [options]

Sparse-grid heat diffusion and smoke on NanoVDB's VoxelBlockManager. Every stencil step goes
through a selectable resolver; the results are bitwise the same whichever is chosen, only
the time changes.

With no --headless, vbm-fluid opens a window: the volume, and panels to pick the scene, the
backend and the resolvers live, edit parameters and watch per-phase frame times (docs/gui.md).
Mouse: drag to orbit, right or middle drag to pan, wheel to zoom. Keys: space pause, S step,
R reset, 1-7 resolver, F12 screenshot, Esc quit. Where no display can be opened it says so
and runs headless. --headless steps a scene without a window, renders offscreen with Vulkan
(a GPU, or Mesa's lavapipe on the CPU) and reports timings.

options (on/off settings take on or off, and the bare flag means on: --fields-hash is
--fields-hash on; a flag given twice keeps the last value):
  --headless              run without a window, for profiling (see --steps, --json)
  --script FILE           window: run timed commands from FILE (docs/gui.md), e.g. to cycle
                          through resolvers, take screenshots, export fields and quit
  --steps N               headless: simulation steps to run, one per frame (default 100);
                          --frames N is the same
  --scene NAME|FILE       a built-in scene (heat-shell, heat-block, smoke-plume,
                          smoke-plume-4m, smoke-open, smoke-open-4m, smoke-mesh, fire,
                          fire-small) or a .scene file (assets/scenes/README.md);
                          default: smoke-open-4m on CUDA, fire-small on the CPU (both in
                          open air)
  --backend cpu|cuda      where to run (default: cuda when a GPU is usable, else cpu)
  --resolver NAME|all     resolver for the Laplacian-type steps (and for advection when it
                          is a box resolver): NanoVDB13 (CUDA only), computeBoxStencil,
                          forEachBoxStencil, computeBoxStencilCached,
                          forEachBoxStencilCached, computeCrossStencil,
                          computeCrossStencilCached (default); all = every one in turn,
                          frame by frame from the same state, checked bitwise identical
  --advection-resolver NAME  a box resolver for advection (default forEachBoxStencilCached)
  --block-width 128|512   VBM block width (default 128)
  --scalars float|half    smoke: store density and temperature as floats, or as half pairs
                          (4 B per voxel less, each value rounded to the nearest half; results
                          differ from float's: docs/solver.md "Half storage"); default: the
                          scene's scalar_storage (float)
  --max-cfl X             smoke: the CFL number each advection substep may reach, in (0, 7];
                          above 1, wide substeps that reach up to 7 voxels where they cost less
                          (one where the box taps need seven: docs/solver.md "Wide substeps");
                          1 or less, box substeps only; default: the scene's max_cfl (7)
  --tap-table auto|on|off store each voxel's 6 cross neighbours once (24 B per voxel more) and
                          read them in every Laplacian-type pass instead of resolving them
                          again: faster, bitwise the same results (docs/solver.md "The voxel
                          tap table"); auto (the scenes' default) turns it on when every
                          configuration's solver fits in 95% of the free memory with it
                          (90% where the active set rebuilds, to leave it room to grow);
                          off trades that speed for 24 B per voxel of room
  --render offscreen|none render each frame offscreen with Vulkan (default), or not at all
  --interop auto|on|off   how the field reaches the renderer: shared CUDA-Vulkan memory
                          (no host copies; needs the CUDA backend and the Vulkan device to be
                          the CUDA GPU), or the staging path through host memory; auto
                          (default) shares when it can, on insists, off always stages
  --size WxH              image size (default 640x480; the window: 1280x800)
  --screenshot FILE.png   write the last frame; %04d in the name writes every frame
  --export FILE.nvdb      headless: after the last frame, write every field as a NanoVDB
                          float grid named after it (the window exports from its panel)
  --export-every K FILE   headless: every Kth frame, write the fields as FILE: .vdb (OpenVDB:
                          Blender, Houdini; float FogVolume grids density, temperature, fuel,
                          pressure, heat for heat scenes, and the cell-centred velocity vel;
                          time and frame in the file's metadata) or .nvdb (NanoVDB, as
                          --export); %04d in the name is the frame number (needed when more
                          than one file is written). Written on a background thread while the
                          run goes on, each under a temporary name renamed when complete
                          (docs/export.md)
  --export-writers N      files --export-every writes at once, each on its own thread
                          (default: on CUDA a quarter of the cores, at most 4; on the CPU 1)
  --export-compression blosc|none  how --export-every's .vdb files store their values:
                          blosc (default, OpenVDB's own) or none: about twice the bytes,
                          written faster (measured in docs/export.md)
  --export-precision float|half  how --export-every's .vdb files store float values: float
                          (default: every bit) or half (16-bit: half the values' bytes, each value
                          rounded to the nearest half; readers get floats back)
  --fields-hash [on|off]  headless: after the last frame, print a 64-bit hash of every
                          field's bits (FNV-1a, in value-index order): two runs print the
                          same hash when their fields are bitwise the same; no grid is
                          built or written, where --export took over 200 s at a billion voxels
  --checkpoint-every K DIR  headless: every Kth frame, write the solver's whole state to
                          DIR/checkpoint-NNNNNNNN.vbmck (NNNNNNNN: the frames done; DIR is
                          made if missing), atomically, keeping the last two; SIGTERM or
                          SIGINT (Ctrl-C) then writes a final one before the run exits
  --resume FILE           headless: go on from a checkpoint for --steps more frames, bitwise
                          as the run that wrote it would have (its scene and settings come
                          from the file: no --scene, --scalars, --max-cfl or --seed);
                          resolvers, backend and --tap-table may differ (the same bits)
  --look NAME             density (lit smoke), emission (colormap), fire (lit smoke and
                          blackbody flames from the temperature) or blocks; default: fire
                          for scenes that burn fuel, density for smoke, emission for heat
  --range auto|LO:HI      the colormap's ends (emission look, slice plane): auto (default)
                          follows the field's range every frame; LO:HI fixes them
  --light AZ:EL           the sun's azimuth and elevation in degrees (default -52:34)
  --render-scale 1|2|4    march one ray per NxN pixels and filter up (default 1 on a GPU; on a
                          CPU Vulkan device such as lavapipe 2, or 4 above 800x600)
  --ground on|off         the checkered ground plane under the domain (default on)
  --light-cells N         cells of the light volume (shadows) along the box's longest side:
                          default 96 on a GPU, 32 on a CPU device; 0 turns shadows off
  --ray-step S            the ray march's step in voxels, 0.1 to 4 (default 0.5)
  --density-scale X       smoke's extinction per unit density per voxel (default 1.5; fire
                          0.5), or the colormap look's opacity (default 0.25)
  --slice AXIS[:POS]      also show the field on a plane: x, y or z, at index POS
                          (default: the middle of the grid), for example --slice z:64
  --overlay blocks        colour every active voxel by its VBM block instead of the field,
                          to see the blocks and the leaves they span
  --json FILE.json        per-frame, per-phase timings as JSON
  --timings FILE          the same timings as .csv or .json (one file: --json or --timings)
  --seed N                the seed of the emitter's noise (scene 'emit_noise'): another seed,
                          another plume; the same seed, the same bits (default: the scene's
                          'seed', 0 when it has none); recorded in the timings
  -h, --help              this text

exit codes: 0 done, 1 a run failed (or --resolver all saw fields differ), 2 bad usage or input
)";

namespace {

using cli::ArgReader;
using cli::UsageError;

void readResolver(ArgReader& r, Options& o)
{
    const std::string v = r.value();
    if (v == "all")
        o.allResolvers = true;
    else
        o.resolver = ArgReader(r.flag(), v).resolver();
}

void readAdvectionResolver(ArgReader& r, Options& o)
{
    o.advection = r.resolver();
    if (const std::string why = stepKindRefusal(*o.advection, StepKind::Advection); !why.empty())
        throw UsageError(r.flag() + ": " + why);
}

/// --checkpoint-every K DIR: DIR is made when missing (not its parents), and must be writable.
void readCheckpointEvery(ArgReader& r, Options& o)
{
    o.checkpointEvery = int(r.integer(1, 10000000));
    o.checkpointDir = r.value();
    const std::filesystem::path dir(o.checkpointDir);
    std::error_code ec;
    if (!std::filesystem::exists(dir, ec)) std::filesystem::create_directory(dir, ec);
    if (!std::filesystem::is_directory(dir, ec))
        throw UsageError("--checkpoint-every: '" + o.checkpointDir + "' is not a folder and cannot be made one" +
                         (ec ? " (" + ec.message() + ")" : ""));
    if (access(o.checkpointDir.c_str(), W_OK) != 0)
        throw UsageError("--checkpoint-every: the folder '" + o.checkpointDir + "' is not writable");
}

/// The options a checkpoint fixes, or that only the headless run has.
void checkResumeAndCheckpoints(const Options& o)
{
    if (!o.headless && (o.checkpointEvery || !o.resume.empty()))
        throw UsageError(std::string(o.resume.empty() ? "--checkpoint-every" : "--resume") +
                         " is for the headless run: add --headless");
    if (o.resume.empty()) return;
    const std::pair<bool, const char*> fixed[] = {{!o.scene.empty(), "--scene"},
                                                  {o.scalars.has_value(), "--scalars"},
                                                  {o.maxCfl.has_value(), "--max-cfl"},
                                                  {o.seed.has_value(), "--seed"}};
    for (const auto& [given, flag] : fixed)
        if (given)
            throw UsageError(std::string("--resume goes on with the checkpoint's scene and settings: leave out ") +
                             flag);
}

void readSize(ArgReader& r, Options& o)
{
    const std::string v = r.value();
    const size_t x = v.find('x');
    if (x == std::string::npos) throw UsageError("--size takes WxH, for example 640x480, got '" + v + "'");
    o.width = uint32_t(ArgReader(r.flag(), v.substr(0, x)).integer(16, 8192));
    o.height = uint32_t(ArgReader(r.flag(), v.substr(x + 1)).integer(16, 8192));
    o.sizeExplicit = true;
}

void readSlice(ArgReader& r, Options& o)
{
    const std::string v = r.value();
    const size_t colon = v.find(':');
    const std::string axis = v.substr(0, colon);
    if (axis != "x" && axis != "y" && axis != "z")
        throw UsageError("--slice takes x, y or z, optionally :POS, got '" + v + "'");
    o.sliceAxis = axis[0] - 'x';
    if (colon == std::string::npos) return;
    const double pos = ArgReader("--slice position", v.substr(colon + 1)).real();
    if (std::fabs(pos) > double(1 << 30))
        throw UsageError("--slice position must be an index coordinate within +-2^30, got '" + v.substr(colon + 1) +
                         "'");
    o.slicePosition = pos;
}

/// A pair of numbers A:B (of --range, --light).
std::pair<double, double> readPair(const ArgReader& r, const std::string& v, const char* form)
{
    const size_t colon = v.find(':');
    if (colon == std::string::npos) throw UsageError(r.flag() + " takes " + form + ", got '" + v + "'");
    return {ArgReader(r.flag(), v.substr(0, colon)).real(), ArgReader(r.flag(), v.substr(colon + 1)).real()};
}

void readRange(ArgReader& r, Options& o)
{
    const std::string v = r.value();
    if (v == "auto") {
        o.range.reset();
        return;
    }
    const auto [lo, hi] = readPair(r, v, "auto or LO:HI");
    if (!(hi > lo)) throw UsageError("--range LO:HI needs HI above LO");
    o.range = std::make_pair(lo, hi);
}

void readLight(ArgReader& r, Options& o)
{
    const auto [azimuth, elevation] = readPair(r, r.value(), "AZIMUTH:ELEVATION in degrees");
    if (std::fabs(azimuth) > 360 || elevation < -90 || elevation > 90)
        throw UsageError("--light: azimuth within +-360 and elevation within +-90 degrees");
    o.light = std::make_pair(azimuth, elevation);
}

/// --timings FILE (.csv or .json) and --json FILE (.json): the one timings file, named once.
void readTimings(ArgReader& r, Options& o, const std::vector<std::string>& suffixes)
{
    const std::string flag = r.flag() == "--json" ? "--json" : "--timings";
    if (!o.timingsFlag.empty() && o.timingsFlag != flag)
        throw UsageError("--timings and --json both name the timings file: give one (--timings F.csv for CSV, "
                         "--json F.json for JSON)");
    o.timings = r.outputPath(suffixes);
    o.timingsFlag = flag;
}

using FlagReader = void (*)(ArgReader&, Options&);

/// Every flag and what it sets; the value readers word every mistake the same way.
const std::pair<const char*, FlagReader> Flags[] = {
    {"-h", [](ArgReader&, Options& o) { o.help = true; }},
    {"--help", [](ArgReader&, Options& o) { o.help = true; }},
    {"--headless", [](ArgReader& r, Options& o) { o.headless = r.onOff(); }},
    {"--script", [](ArgReader& r, Options& o) { o.script = r.value(); }},
    {"--steps", [](ArgReader& r, Options& o) { o.frames = int(r.integer(1, 10000000)); }},
    {"--scene",
     [](ArgReader& r, Options& o) {
         o.scene = r.value();
         if (o.scene.empty()) throw UsageError("--scene needs a built-in name or a .scene file, got ''");
     }},
    {"--backend", [](ArgReader& r, Options& o) { o.backend = r.backend(); }},
    {"--resolver", readResolver},
    {"--advection-resolver", readAdvectionResolver},
    {"--block-width",
     [](ArgReader& r, Options& o) {
         o.log2BlockWidth = r.blockWidth({128, 512});
     }},
    {"--scalars",
     [](ArgReader& r, Options& o) {
         o.scalars = r.choice({"float", "half"}) == "half" ? ScalarStorage::Half : ScalarStorage::Float;
     }},
    {"--max-cfl",
     [](ArgReader& r, Options& o) {
         const double x = r.real();
         if (!(x > 0 && x <= MaxCfl)) {
             char what[96];
             std::snprintf(what, sizeof what, "--max-cfl must be above 0 and at most 7, got %g", x);
             throw UsageError(what);
         }
         o.maxCfl = x;
     }},
    {"--tap-table",
     [](ArgReader& r, Options& o) {
         const std::string c = r.switchChoice({"auto", "off", "on"});
         o.tapTable = c == "auto" ? TapTableMode::Auto : c == "on" ? TapTableMode::On : TapTableMode::Off;
     }},
    {"--interop",
     [](ArgReader& r, Options& o) {
         o.interop = r.switchChoice({"auto", "on", "off"});
     }},
    {"--render",
     [](ArgReader& r, Options& o) {
         o.render = r.choice({"offscreen", "none"});
         o.renderExplicit = true;
     }},
    {"--size", readSize},
    {"--screenshot", [](ArgReader& r, Options& o) { o.screenshot = r.outputPath({".png"}); }},
    {"--export", [](ArgReader& r, Options& o) { o.exportPath = r.outputPath({".nvdb"}); }},
    {"--export-every",
     [](ArgReader& r, Options& o) {
         o.exportEvery = int(r.integer(1, 10000000));
         o.exportPattern = r.outputPath({".vdb", ".nvdb"});
     }},
    {"--export-writers", [](ArgReader& r, Options& o) { o.exportWriters = int(r.integer(1, 64)); }},
    {"--export-compression",
     [](ArgReader& r, Options& o) {
         o.exportStorage.compression =
             r.choice({"blosc", "none"}) == "blosc" ? VdbCompression::Default : VdbCompression::None;
         o.exportVdbFlag = "--export-compression";
     }},
    {"--export-precision",
     [](ArgReader& r, Options& o) {
         o.exportStorage.halfFloats = r.choice({"float", "half"}) == "half";
         o.exportVdbFlag = "--export-precision";
     }},
    {"--fields-hash", [](ArgReader& r, Options& o) { o.fieldsHash = r.onOff(); }},
    {"--checkpoint-every", readCheckpointEvery},
    {"--resume", [](ArgReader& r, Options& o) { o.resume = r.value(); }},
    {"--timings",
     [](ArgReader& r, Options& o) {
         readTimings(r, o, {".csv", ".json"});
     }},
    {"--json", [](ArgReader& r, Options& o) { readTimings(r, o, {".json"}); }},
    {"--overlay",
     [](ArgReader& r, Options& o) {
         r.choice({"blocks"});
         o.blockOverlay = true;
     }},
    {"--look",
     [](ArgReader& r, Options& o) {
         o.look = r.choice({"density", "emission", "fire", "blocks"});
     }},
    {"--range", readRange},
    {"--light", readLight},
    {"--render-scale",
     [](ArgReader& r, Options& o) {
         o.renderScale = uint32_t(std::stoi(r.choice({"1", "2", "4"})));
     }},
    {"--light-cells", [](ArgReader& r, Options& o) { o.lightCells = uint32_t(r.integer(0, 1024)); }},
    {"--ray-step",
     [](ArgReader& r, Options& o) {
         const double s = r.real();
         if (s < 0.1 || s > 4) {
             char what[96];
             std::snprintf(what, sizeof what, "--ray-step takes a step from 0.1 to 4 voxels, got %g", s);
             throw UsageError(what);
         }
         o.rayStep = s;
     }},
    {"--density-scale",
     [](ArgReader& r, Options& o) {
         const double s = r.real();
         if (!(s > 0) || s > 1000) throw UsageError("--density-scale takes a positive number up to 1000");
         o.densityScale = s;
     }},
    {"--ground", [](ArgReader& r, Options& o) { o.ground = r.onOff(); }},
    {"--slice", readSlice},
    {"--seed", [](ArgReader& r, Options& o) { o.seed = uint32_t(r.integer(0, 2147483647)); }},
};

} // namespace

Options parseOptions(int argc, char** argv)
{
    Options o;
    ArgReader r("vbm-fluid", argc, argv);
    while (const auto arg = r.next()) {
        const auto flag =
            std::find_if(std::begin(Flags), std::end(Flags), [&](const auto& f) { return *arg == f.first; });
        if (flag == std::end(Flags)) throw UsageError("unknown option '" + *arg + "'");
        flag->second(r, o);
    }
    if (o.headless && !o.script.empty()) throw UsageError("--script drives the window: leave out --headless");
    if (o.exportEvery) checkExportPattern(o.exportPattern, o.exportEvery, o.frames);
    if (!o.exportVdbFlag.empty() && (!o.exportEvery || !isVdbPath(o.exportPattern)))
        throw UsageError(o.exportVdbFlag + " sets how .vdb files are stored: it needs --export-every K FILE.vdb");
    checkResumeAndCheckpoints(o);
    r.printNotes();
    return o;
}

} // namespace vbm::app
