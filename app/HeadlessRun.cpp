// The headless run (see HeadlessRun.h).
#include "HeadlessRun.h"

#include "SceneSetup.h"
#include "Solver.h"
#include "CudaInterop.h"
#include "FieldExport.h"
#include "VolumeRenderer.h"
#include "VulkanContext.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <unistd.h>

namespace vbm::app {

namespace {

struct Config {
    std::string name;
    StencilChoice choice;
};

std::vector<Config> configurations(const Options& o, Backend backend)
{
    std::vector<Config> out;
    const StencilChoice defaults;
    if (o.allResolvers) {
        for (Resolver r : AllResolvers) {
            if (r == Resolver::NanoVDB13 && backend == Backend::Cpu) continue;
            StencilChoice c{r, o.advection.value_or(isBoxResolver(r) ? r : defaults.advection), o.log2BlockWidth};
            out.push_back({resolverName(r), c});
        }
        return out;
    }
    StencilChoice c = defaults;
    c.log2BlockWidth = o.log2BlockWidth;
    if (o.resolver) {
        c.laplacian = *o.resolver;
        if (isBoxResolver(*o.resolver)) c.advection = *o.resolver;
    }
    if (o.advection) c.advection = *o.advection;
    if (backend == Backend::Cpu && (c.laplacian == Resolver::NanoVDB13 || c.advection == Resolver::NanoVDB13))
        throw UsageError("NanoVDB13 is NanoVDB's CUDA-only reference path: use --backend cuda or another resolver");
    out.push_back({resolverName(c.laplacian), c});
    return out;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const double x = p * double(v.size() - 1);
    const size_t i = size_t(x);
    return i + 1 < v.size() ? v[i] + (x - double(i)) * (v[i + 1] - v[i]) : v[i];
}

struct Row {
    int frame;
    std::string config, phase;
    double ms;
    int iterations;
    double residual;
};

void writeTimings(const std::string& path, const std::vector<Row>& rows, const Options& o, const std::string& scene,
                  Backend backend)
{
    std::ofstream f(path);
    if (!f) throw std::runtime_error("cannot write the timings file " + path);
    const bool json = path.size() > 5 && path.substr(path.size() - 5) == ".json";
    if (json) {
        f << "{\"scene\": \"" << scene << "\", \"backend\": \"" << backendName(backend) << "\", \"seed\": " << o.seed
          << ", \"rows\": [\n";
        for (size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            f << "  {\"frame\": " << r.frame << ", \"resolver\": \"" << r.config << "\", \"phase\": \"" << r.phase
              << "\", \"ms\": " << r.ms;
            if (r.iterations >= 0) f << ", \"iterations\": " << r.iterations << ", \"residual\": " << r.residual;
            f << "}" << (i + 1 < rows.size() ? ",\n" : "\n");
        }
        f << "]}\n";
    } else {
        f << "frame,resolver,phase,ms,iterations,residual\n";
        for (const Row& r : rows)
            f << r.frame << "," << r.config << "," << r.phase << "," << r.ms << ","
              << (r.iterations >= 0 ? std::to_string(r.iterations) : "") << ","
              << (r.iterations >= 0 ? std::to_string(r.residual) : "") << "\n";
    }
    if (!f) throw std::runtime_error("writing the timings file " + path + " failed");
}

/// The screenshot path of a frame: "%04d" replaced by the frame number, if present.
std::string screenshotName(const std::string& pattern, int frame)
{
    const size_t at = pattern.find("%04d");
    if (at == std::string::npos) return pattern;
    char num[16];
    std::snprintf(num, sizeof num, "%04d", frame);
    return pattern.substr(0, at) + num + pattern.substr(at + 4);
}

} // namespace

int runHeadless(const Options& o)
{
    const Backend backend = pickBackend(o.backend);
    const std::string sceneName = !o.scene.empty() ? o.scene : defaultSceneName(backend);
    const std::vector<Config> configs = configurations(o, backend);
    const Scene scene = loadScene(sceneName);

    const std::string device = solverDeviceDescription(backend);
    std::vector<std::unique_ptr<Solver>> solvers;
    for (const Config& c : configs)
        solvers.push_back(std::make_unique<Solver>(scene, backend, c.choice));
    const Solver& first = *solvers.front();
    const MemoryReport mem = first.memory();

    // The renderer: the first configuration's density (smoke) or temperature (heat), through shared
    // CUDA-Vulkan memory where it can, else staged through the host.
    std::unique_ptr<render::VulkanContext> vulkan;
    std::unique_ptr<render::VolumeRenderer> renderer;
    render::RenderSettings look;
    render::OrbitCamera camera;
    const std::string renderField = renderFieldName(scene.kind);
    std::string renderLine = "none", interopLine;
    if (o.render == "offscreen") {
        try {
            render::VulkanOptions vo;
            if (backend == Backend::Cuda) vo.preferredDevice = render::cudaDeviceUuid();
            vulkan = std::make_unique<render::VulkanContext>(vo);
            std::string whyNot = o.interop == "off" ? "--interop off"
                                                    : render::sharedPathWhyNot(*vulkan, backend == Backend::Cuda);
            if (o.interop == "on" && !whyNot.empty())
                throw UsageError("--interop on: the shared CUDA-Vulkan path is not possible here: " + whyNot);
            renderer =
                std::make_unique<render::VolumeRenderer>(*vulkan, scene.grid, o.width, o.height, whyNot.empty());
            interopLine = renderer->pathDescription() + (whyNot.empty() ? "" : "; shared path not taken: " + whyNot);
            camera = render::OrbitCamera::framing(renderer->boxMin(), renderer->boxMax());
            look = defaultLook(scene, first);
            if (o.blockOverlay) look.mode = render::RenderMode::Blocks;
            look.log2BlockWidth = o.log2BlockWidth;
            if (o.sliceAxis >= 0) {
                look.sliceAxis = o.sliceAxis;
                look.slicePosition = float(o.slicePosition.value_or(
                    std::floor(0.5 * (renderer->boxMin()[o.sliceAxis] + renderer->boxMax()[o.sliceAxis]))));
            }
            renderLine = "offscreen " + std::to_string(o.width) + "x" + std::to_string(o.height) + " on " +
                         vulkan->deviceName() + (vulkan->validation() ? " (validation on)" : "") + ", " +
                         (o.blockOverlay ? std::string("VBM blocks") : renderField) +
                         (o.sliceAxis >= 0 ? std::string(", slice ") + char('x' + o.sliceAxis) + " = " +
                                                 std::to_string(int(look.slicePosition))
                                           : std::string());
        } catch (const render::VulkanError& e) {
            if (o.renderExplicit) throw;
            renderer.reset(), vulkan.reset();
            renderLine = std::string("none (") + e.what() + ")";
        }
    }
    if (!o.screenshot.empty() && !renderer)
        throw UsageError("--screenshot needs the offscreen render, which is not available here");
    std::printf("vbm-fluid (headless)\n  device:     %s\n  backend:    %s\n  render:     %s\n", device.c_str(),
                backendName(backend), renderLine.c_str());
    if (renderer) std::printf("  interop:    %s\n", interopLine.c_str());
    std::printf("  scene:      %s (%s), %llu active voxels, %llu blocks of %d\n", scene.name.c_str(),
                scene.kind == SimulationKind::Heat ? "heat" : "smoke", (unsigned long long)first.activeVoxels(),
                (unsigned long long)first.blockCount(), 1 << o.log2BlockWidth);
    std::printf("  memory:     %.1f B per voxel (grid+VBM %.1f, fields %.1f, temporaries %.1f) per configuration\n",
                mem.perVoxel(mem.total()), mem.perVoxel(mem.gridAndVbm), mem.perVoxel(mem.fields),
                mem.perVoxel(mem.temporaries));
    for (const Config& c : configs)
        std::printf("  resolvers:  Laplacian-type %s, advection %s\n", resolverName(c.choice.laplacian),
                    resolverName(c.choice.advection));
    if (configs.size() > 1)
        std::printf("  A/B:        %zu configurations step in turns, frame by frame, from the same initial state;\n"
                    "              their fields are compared bitwise after every frame\n",
                    configs.size());
    std::printf("  frames:     %d\n\n", o.frames);
    std::fflush(stdout);

    std::vector<Row> rows;
    uint64_t fieldBytes = 0, maxFieldBytes = 0, imageBytes = 0;
    bool identical = true;
    int firstDifference = -1;
    for (int frame = 0; frame < o.frames; ++frame) {
        double lastMs = 0;
        for (size_t k = 0; k < solvers.size(); ++k) {
            const FrameTimings& r = solvers[k]->step();
            for (const auto& p : r.phases)
                rows.push_back({frame, configs[k].name, phaseName(p.phase), p.ms, p.iterations, p.residual});
            lastMs = r.stepMs();
        }
        if (renderer) {
            const auto t0 = std::chrono::steady_clock::now();
            const bool shot = !o.screenshot.empty() &&
                              (frame + 1 == o.frames || o.screenshot.find("%04d") != std::string::npos);
            renderer->setField(solvers[0]->fieldData(renderField),
                               backend == Backend::Cuda ? render::FieldMemory::CudaDevice : render::FieldMemory::Host,
                               solvers[0]->cudaStream());
            renderer->render(camera, look, shot);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            rows.push_back({frame, configs[0].name, "render", ms, -1, 0});
            // the ray march alone, from GPU timestamps (the row above also holds the field's
            // way in, the submit and the wait)
            if (const auto gpu = renderer->lastRenderGpuMs()) rows.push_back({frame, configs[0].name, "render gpu", *gpu, -1, 0});
            fieldBytes = renderer->takeFieldBytesCopied();
            imageBytes += renderer->takeImageBytesCopied();
            maxFieldBytes = std::max(maxFieldBytes, fieldBytes);
            const auto& pixels = renderer->pixels();
            if (shot)
                render::writePng(screenshotName(o.screenshot, frame), pixels, renderer->width(), renderer->height());
        }
        if (solvers.size() > 1) {
            const uint64_t h = solvers[0]->fieldsHash();
            for (size_t k = 1; k < solvers.size(); ++k)
                if (solvers[k]->fieldsHash() != h && identical) identical = false, firstDifference = frame;
        }
        // whole frame: the steps of every configuration plus the render
        double frameMs = 0;
        for (auto it = rows.rbegin(); it != rows.rend() && it->frame == frame; ++it)
            if (it->phase == "step" || it->phase == "render") frameMs += it->ms;
        rows.push_back({frame, configs[0].name, "frame", frameMs, -1, 0});
        // progress: in place on a terminal, else a line every tenth of the run
        if (isatty(fileno(stderr)))
            std::fprintf(stderr, "\r[vbm-fluid] frame %d/%d, last step %.2f ms   ", frame + 1, o.frames, lastMs);
        else if ((frame + 1) % std::max(1, o.frames / 10) == 0 || frame + 1 == o.frames)
            std::fprintf(stderr, "[vbm-fluid] frame %d/%d, last step %.2f ms\n", frame + 1, o.frames, lastMs);
    }
    if (isatty(fileno(stderr))) std::fprintf(stderr, "\n");

    // Summary: per configuration and phase, median and 95th percentile.
    std::vector<std::string> phases;
    for (const Row& r : rows)
        if (std::find(phases.begin(), phases.end(), r.phase) == phases.end()) phases.push_back(r.phase);
    std::printf("| resolver | phase | median ms | p95 ms |\n|---|---|---|---|\n");
    for (const Config& c : configs) {
        for (const std::string& phase : phases) {
            std::vector<double> v;
            for (const Row& r : rows)
                if (r.config == c.name && r.phase == phase) v.push_back(r.ms);
            if (v.empty()) continue;
            const double med = percentile(v, 0.5);
            std::printf("| %s | %s | %.3f | %.3f |\n", c.name.c_str(), phase.c_str(), med, percentile(v, 0.95));
            if (phase == "frame") std::printf("| %s | frames per second | %.1f | |\n", c.name.c_str(), 1000.0 / med);
        }
    }
    if (solvers.size() > 1)
        std::printf("\nFields bitwise identical across all %zu resolvers after every frame: %s\n", solvers.size(),
                    identical ? "yes"
                              : ("NO (first difference after frame " + std::to_string(firstDifference) + ")").c_str());
    if (renderer) {
        std::printf("\nHost copies per frame for the render: %llu bytes (%s path; largest in any frame: %llu)\n",
                    (unsigned long long)fieldBytes, renderer->interop() ? "shared" : "staging",
                    (unsigned long long)maxFieldBytes);
        if (imageBytes)
            std::printf("Screenshot read-back, outside the per-frame figure: %llu bytes in all\n",
                        (unsigned long long)imageBytes);
        if (!o.screenshot.empty()) std::printf("screenshot: %s\n", screenshotName(o.screenshot, o.frames - 1).c_str());
    }
    if (vulkan && vulkan->validation()) {
        std::printf("Vulkan validation errors: %d\n", vulkan->validationErrors());
        if (vulkan->validationErrors() > 0) identical = false;
    }
    if (!o.exportPath.empty()) {
        std::vector<std::pair<std::string, std::vector<float>>> fields;
        for (const std::string& name : solvers[0]->fieldNames())
            fields.emplace_back(name, solvers[0]->field(name));
        exportFields(o.exportPath, scene.grid, fields);
        std::printf("export: %s (%zu float grids after %d frames)\n", o.exportPath.c_str(), fields.size(), o.frames);
    }
    if (!o.timings.empty()) {
        writeTimings(o.timings, rows, o, scene.name, backend);
        std::printf("timings: %s (%zu rows)\n", o.timings.c_str(), rows.size());
    }
    return identical ? 0 : 1;
}

} // namespace vbm::app
