// vbm-fluid's command line (see HeadlessOptions.h).
#include "HeadlessOptions.h"

#include <cmath>
#include <cstdlib>

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

options:
  --headless              run without a window, for profiling (see --frames, --timings)
  --script FILE           window: run timed commands from FILE (docs/gui.md), e.g. to cycle
                          through resolvers, take screenshots, export fields and quit
  --frames N              headless: simulation steps to run (default 100)
  --scene NAME|FILE       a built-in scene (heat-shell, heat-block, smoke-plume,
                          smoke-plume-4m) or a .scene file (assets/scenes/README.md);
                          default: smoke-plume on CUDA, heat-shell on the CPU
  --backend cuda|cpu      where to run (default: cuda when a GPU is usable, else cpu)
  --resolver NAME|all     resolver for the Laplacian-type steps (and for advection when it
                          is a box resolver): NanoVDB13 (CUDA only), computeBoxStencil,
                          forEachBoxStencil, computeBoxStencilCached,
                          forEachBoxStencilCached, computeCrossStencil,
                          computeCrossStencilCached (default); all = every one in turn,
                          frame by frame from the same state, checked bitwise identical
  --advection-resolver NAME  a box resolver for advection (default forEachBoxStencilCached)
  --block-width 128|512   VBM block width (default 128)
  --render offscreen|none render each frame offscreen with Vulkan (default), or not at all
  --interop auto|on|off   how the field reaches the renderer: shared CUDA-Vulkan memory
                          (no host copies; needs the CUDA backend and the Vulkan device to be
                          the CUDA GPU), or the staging path through host memory; auto
                          (default) shares when it can, on insists, off always stages
  --size WxH              image size (default 640x480; the window: 1280x800)
  --screenshot FILE.png   write the last frame; %04d in the name writes every frame
  --export FILE.nvdb      headless: after the last frame, write every field as a NanoVDB
                          float grid named after it (the window exports from its panel)
  --slice AXIS[:POS]      also show the field on a plane: x, y or z, at index POS
                          (default: the middle of the grid), for example --slice z:64
  --overlay blocks        colour every active voxel by its VBM block instead of the field,
                          to see the blocks and the leaves they span
  --timings FILE          per-frame, per-phase timings as .csv or .json
  --seed N                recorded in the timings (the built-in scenes are deterministic)
  -h, --help              this text

exit codes: 0 done, 1 a run failed (or --resolver all saw fields differ), 2 bad usage or input
)";

namespace {

int number(const std::string& flag, const std::string& v, long lo, long hi)
{
    char* end = nullptr;
    const long x = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end || x < lo || x > hi)
        throw UsageError(flag + " takes a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                         ", got '" + v + "'");
    return int(x);
}

Resolver resolver(const std::string& flag, const std::string& v)
{
    if (auto r = parseResolver(v)) return *r;
    std::string names;
    for (Resolver r : AllResolvers)
        names += (names.empty() ? "" : ", ") + std::string(resolverName(r));
    throw UsageError(flag + ": unknown resolver '" + v + "' (one of " + names + ")");
}

} // namespace

Options parseOptions(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw UsageError(a + " needs a value");
            return argv[++i];
        };
        if (a == "-h" || a == "--help")
            o.help = true;
        else if (a == "--headless")
            o.headless = true;
        else if (a == "--script")
            o.script = value();
        else if (a == "--frames")
            o.frames = number(a, value(), 1, 10000000);
        else if (a == "--scene")
            o.scene = value();
        else if (a == "--backend") {
            const std::string v = value();
            if (v == "cuda")
                o.backend = Backend::Cuda;
            else if (v == "cpu")
                o.backend = Backend::Cpu;
            else
                throw UsageError("--backend must be cuda or cpu, got '" + v + "'");
        } else if (a == "--resolver") {
            const std::string v = value();
            if (v == "all")
                o.allResolvers = true;
            else
                o.resolver = resolver(a, v);
        } else if (a == "--advection-resolver") {
            o.advection = resolver(a, value());
            if (!isBoxResolver(*o.advection))
                throw UsageError("--advection-resolver needs a box resolver, not " +
                                 std::string(resolverName(*o.advection)));
        } else if (a == "--block-width") {
            const std::string v = value();
            if (v == "128")
                o.log2BlockWidth = 7;
            else if (v == "512")
                o.log2BlockWidth = 9;
            else
                throw UsageError("--block-width must be 128 or 512, got '" + v + "'");
        } else if (a == "--interop") {
            o.interop = value();
            if (o.interop != "auto" && o.interop != "on" && o.interop != "off")
                throw UsageError("--interop must be auto, on or off, got '" + o.interop + "'");
        } else if (a == "--render") {
            o.render = value();
            o.renderExplicit = true;
            if (o.render != "none" && o.render != "offscreen")
                throw UsageError("--render must be offscreen or none, got '" + o.render + "'");
        } else if (a == "--size") {
            const std::string v = value();
            const size_t x = v.find('x');
            if (x == std::string::npos) throw UsageError("--size takes WxH, for example 640x480, got '" + v + "'");
            o.width = uint32_t(number(a, v.substr(0, x), 16, 8192));
            o.height = uint32_t(number(a, v.substr(x + 1), 16, 8192));
            o.sizeExplicit = true;
        } else if (a == "--screenshot") {
            o.screenshot = value();
            if (o.screenshot.size() < 5 || o.screenshot.substr(o.screenshot.size() - 4) != ".png")
                throw UsageError("--screenshot FILE must end in .png, got '" + o.screenshot + "'");
        } else if (a == "--export") {
            o.exportPath = value();
            if (o.exportPath.size() < 6 || o.exportPath.substr(o.exportPath.size() - 5) != ".nvdb")
                throw UsageError("--export FILE must end in .nvdb, got '" + o.exportPath + "'");
        } else if (a == "--timings") {
            o.timings = value();
            const bool csv = o.timings.size() > 4 && o.timings.substr(o.timings.size() - 4) == ".csv";
            const bool json = o.timings.size() > 5 && o.timings.substr(o.timings.size() - 5) == ".json";
            if (!csv && !json) throw UsageError("--timings FILE must end in .csv or .json, got '" + o.timings + "'");
        } else if (a == "--overlay") {
            const std::string v = value();
            if (v != "blocks") throw UsageError("--overlay takes 'blocks', got '" + v + "'");
            o.blockOverlay = true;
        } else if (a == "--slice") {
            const std::string v = value();
            const std::string axis = v.substr(0, v.find(':'));
            if (axis != "x" && axis != "y" && axis != "z")
                throw UsageError("--slice takes x, y or z, optionally :POS, got '" + v + "'");
            o.sliceAxis = axis[0] - 'x';
            if (v.find(':') != std::string::npos) {
                const std::string pos = v.substr(v.find(':') + 1);
                char* end = nullptr;
                const double x = std::strtod(pos.c_str(), &end);
                if (pos.empty() || *end || !std::isfinite(x))
                    throw UsageError("--slice position '" + pos + "' is not a number");
                o.slicePosition = x;
            }
        } else if (a == "--seed")
            o.seed = uint64_t(number(a, value(), 0, 2147483647));
        else
            throw UsageError("unknown option '" + a + "'");
    }
    if (o.headless && !o.script.empty()) throw UsageError("--script drives the window: leave out --headless");
    return o;
}

} // namespace vbm::app
