// The interactive window (see GuiApp.h). One frame: poll input, run due script commands, build
// the panels, apply what changed to the solver, step, hand the field to the renderer, then ray
// march, copy the volume into the swapchain image, draw the panels over it and present. One frame
// is in flight at a time, so the staging buffer is free once the last frame's fence is waited.
#include "GuiApp.h"

#include "CudaInterop.h"
#include "DeviceQueries.h"
#include "FieldExport.h"
#include "GuiCamera.h"
#include "GuiPanels.h"
#include "GuiScript.h"
#include "GuiState.h"
#include "GuiTimings.h"
#include "Presenter.h"
#include "SceneSetup.h"
#include "Swapchain.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>

namespace vbm::app {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::string gGlfwError = "unknown reason";
void onGlfwError(int, const char* description) { gGlfwError = description; }

void checkImGuiVk(VkResult r)
{
    if (r != VK_SUCCESS) render::checkVk(r, "a call in ImGui's Vulkan backend");
}

/// GLFW and the window, for as long as the run lasts.
struct GlfwWindow {
    GLFWwindow* window = nullptr;
    GlfwWindow() = default;
    GlfwWindow(const GlfwWindow&) = delete;
    GlfwWindow& operator=(const GlfwWindow&) = delete;
    ~GlfwWindow()
    {
        if (window) glfwDestroyWindow(window);
        glfwTerminate();
    }
};

/// ImGui with its GLFW and Vulkan backends, and the descriptor pool its font texture lives in.
struct ImGuiLayer {
    VkDevice device = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    bool glfw = false, vulkan = false;
    ImGuiLayer() = default;
    ImGuiLayer(const ImGuiLayer&) = delete;
    ImGuiLayer& operator=(const ImGuiLayer&) = delete;
    ~ImGuiLayer()
    {
        if (device) vkDeviceWaitIdle(device);
        if (vulkan) ImGui_ImplVulkan_Shutdown();
        if (glfw) ImGui_ImplGlfw_Shutdown();
        if (ImGui::GetCurrentContext()) ImGui::DestroyContext();
        if (pool) vkDestroyDescriptorPool(device, pool, nullptr);
    }
};

/// The simulation the window shows: a solver, and the renderer reading its field.
struct Simulation {
    Scene scene;
    std::unique_ptr<Solver> solver;
    std::unique_ptr<render::VolumeRenderer> renderer;
    std::string field; ///< what the renderer draws
    std::string pathLine;
    int steps = 0;
};

render::FieldMemory fieldMemory(Backend b)
{
    return b == Backend::Cuda ? render::FieldMemory::CudaDevice : render::FieldMemory::Host;
}

/// (Re)loads the scene of `s` on its backend; the renderer is made anew for the new grid.
void load(Simulation& sim, const GuiState& s, render::VulkanContext& vk, uint32_t width, uint32_t height)
{
    render::checkVk(vkDeviceWaitIdle(vk.device()), "vkDeviceWaitIdle (loading a scene)");
    sim.renderer.reset();
    sim.solver.reset();
    sim.scene = loadScene(s.scene);
    sim.solver = std::make_unique<Solver>(sim.scene, s.backend, s.choice);
    sim.field = renderFieldName(sim.scene.kind);
    const std::string whyNot = render::sharedPathWhyNot(vk, s.backend == Backend::Cuda);
    sim.renderer = std::make_unique<render::VolumeRenderer>(vk, sim.scene.grid, width, height, whyNot.empty());
    sim.pathLine = "field path: " + sim.renderer->pathDescription();
    sim.renderer->setField(sim.solver->fieldData(sim.field), fieldMemory(s.backend), sim.solver->cudaStream());
    sim.steps = 0;
}

/// 1-7: the resolver for the Laplacian-type steps, and for advection when it is a box one.
void pickResolver(GuiState& s, Resolver r)
{
    if (r == Resolver::NanoVDB13 && s.backend == Backend::Cpu) {
        std::printf("NanoVDB13 is NanoVDB's CUDA-only reference path: not available on the CPU backend\n");
        return;
    }
    s.choice.laplacian = r;
    if (isBoxResolver(r)) s.choice.advection = r;
}

void runScriptCommand(GuiState& s, const ScriptCommand& c)
{
    if (c.command == "resolver")
        pickResolver(s, *parseResolver(c.argument));
    else if (c.command == "advection") {
        const Resolver r = *parseResolver(c.argument);
        if (!(r == Resolver::NanoVDB13 && s.backend == Backend::Cpu)) s.choice.advection = r;
    } else if (c.command == "block-width")
        s.choice.log2BlockWidth = s.look.log2BlockWidth = c.argument == "512" ? 9 : 7;
    else if (c.command == "play")
        s.playing = true;
    else if (c.command == "pause")
        s.playing = false;
    else if (c.command == "step")
        s.stepOnce = true;
    else if (c.command == "reset")
        s.reset = true;
    else if (c.command == "reset-view")
        s.resetView = true;
    else if (c.command == "screenshot")
        s.screenshot = c.argument;
    else if (c.command == "export")
        s.exportPath = c.argument;
    else if (c.command == "resize") {
        const auto size = *parseWindowSize(c.argument);
        s.resizeWidth = size.first, s.resizeHeight = size.second;
    } else if (c.command == "quit")
        s.quit = true;
}

/// Keys and the mouse over the volume, unless ImGui is using them.
void handleInput(GuiState& s, float volumeX, float volumeHeight)
{
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.WantCaptureKeyboard) {
        if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) s.playing = !s.playing;
        if (ImGui::IsKeyPressed(GLFW_KEY_S, false)) s.stepOnce = true;
        if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) s.reset = true;
        if (ImGui::IsKeyPressed(GLFW_KEY_F12, false)) {
            char name[64];
            std::snprintf(name, sizeof name, "vbm-fluid-%lld.png", (long long)std::time(nullptr));
            s.screenshot = name;
        }
        if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) s.quit = true;
        for (int k = 0; k < int(AllResolvers.size()); ++k)
            if (ImGui::IsKeyPressed(GLFW_KEY_1 + k, false)) pickResolver(s, AllResolvers[size_t(k)]);
    }
    if (io.WantCaptureMouse || io.MousePos.x < volumeX) return;
    const ImVec2 d = io.MouseDelta;
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) orbit(s.camera, d.x, d.y);
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Right) || ImGui::IsMouseDragging(ImGuiMouseButton_Middle))
        pan(s.camera, d.x, d.y, volumeHeight);
    if (io.MouseWheel != 0) zoom(s.camera, io.MouseWheel);
}

} // namespace

int runGui(const Options& o)
{
    if (o.allResolvers) throw UsageError("--resolver all is for the headless run; the window switches resolvers live");
    std::vector<ScriptCommand> script;
    if (!o.script.empty()) script = readScript(o.script);

    GuiState s;
    s.backend = pickBackend(o.backend);
    s.scene = !o.scene.empty() ? o.scene : defaultSceneName(s.backend);
    s.choice.log2BlockWidth = o.log2BlockWidth;
    if (o.resolver) pickResolver(s, *o.resolver);
    if (o.advection) s.choice.advection = *o.advection;
    if (s.backend == Backend::Cpu && (s.choice.laplacian == Resolver::NanoVDB13 || s.choice.advection == Resolver::NanoVDB13))
        throw UsageError("NanoVDB13 is NanoVDB's CUDA-only reference path: use --backend cuda or another resolver");

    // The window. Without a display, GLFW cannot start: the caller runs headless instead.
    glfwSetErrorCallback(onGlfwError);
    GlfwWindow glfw;
    if (!glfwInit()) throw NoDisplay("no display (" + gGlfwError + ")");
    if (!glfwVulkanSupported()) throw NoDisplay("GLFW finds no Vulkan loader with window-system support");
    uint32_t extensionCount = 0;
    const char** extensions = glfwGetRequiredInstanceExtensions(&extensionCount);
    if (!extensions) throw NoDisplay("Vulkan cannot present to this display (" + gGlfwError + ")");
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    const int width = o.sizeExplicit ? int(o.width) : 1280, height = o.sizeExplicit ? int(o.height) : 800;
    glfw.window = glfwCreateWindow(width, height, "vbm-fluid", nullptr, nullptr);
    if (!glfw.window) throw NoDisplay("cannot open a window (" + gGlfwError + ")");

    render::VulkanOptions vo;
    vo.instanceExtensions.assign(extensions, extensions + extensionCount);
    GLFWwindow* window = glfw.window;
    vo.makeSurface = [window](VkInstance instance) {
        VkSurfaceKHR surface = VK_NULL_HANDLE;
        render::checkVk(glfwCreateWindowSurface(instance, window, nullptr, &surface), "glfwCreateWindowSurface");
        return surface;
    };
    if (s.backend == Backend::Cuda) vo.preferredDevice = render::cudaDeviceUuid();
    render::VulkanContext vk(vo);
    render::Swapchain swapchain(vk);
    int fbWidth = 0, fbHeight = 0;
    glfwGetFramebufferSize(window, &fbWidth, &fbHeight);
    swapchain.recreate(uint32_t(std::max(fbWidth, 1)), uint32_t(std::max(fbHeight, 1)));
    render::Presenter presenter(vk, swapchain);

    ImGuiLayer imgui;
    imgui.device = vk.device();
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr; // no imgui.ini left in the working directory
    ImGui::StyleColorsDark();
    imgui.glfw = ImGui_ImplGlfw_InitForVulkan(window, true);
    const VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    dpci.maxSets = 4;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &poolSize;
    render::checkVk(vkCreateDescriptorPool(vk.device(), &dpci, nullptr, &imgui.pool), "vkCreateDescriptorPool (GUI)");
    ImGui_ImplVulkan_InitInfo info{};
    info.Instance = vk.instance();
    info.PhysicalDevice = vk.physicalDevice();
    info.Device = vk.device();
    info.QueueFamily = vk.queueFamily();
    info.Queue = vk.queue();
    info.DescriptorPool = imgui.pool;
    info.MinImageCount = swapchain.minImageCount();
    info.ImageCount = swapchain.imageCount();
    info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    info.CheckVkResultFn = checkImGuiVk;
    imgui.vulkan = ImGui_ImplVulkan_Init(&info, swapchain.renderPass());
    if (!imgui.glfw || !imgui.vulkan) throw render::VulkanError("ImGui's GLFW or Vulkan backend did not start");
    vk.submitAndWait([](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); }, "uploading the GUI font");
    ImGui_ImplVulkan_DestroyFontUploadObjects();

    const auto panelWidth = [&] { return std::min(420, std::max(fbWidth * 2 / 5, 1)); };
    const auto volumeSize = [&] {
        return std::pair<uint32_t, uint32_t>(uint32_t(std::max(fbWidth - panelWidth(), 16)),
                                             uint32_t(std::max(fbHeight, 16)));
    };
    Simulation sim;
    load(sim, s, vk, volumeSize().first, volumeSize().second);
    s.look = defaultLook(sim.scene, *sim.solver);
    if (o.blockOverlay) s.look.mode = render::RenderMode::Blocks;
    if (o.sliceAxis >= 0) {
        s.look.sliceAxis = o.sliceAxis;
        s.look.slicePosition = float(o.slicePosition.value_or(
            std::floor(0.5 * (sim.renderer->boxMin()[o.sliceAxis] + sim.renderer->boxMax()[o.sliceAxis]))));
    }
    s.camera = render::OrbitCamera::framing(sim.renderer->boxMin(), sim.renderer->boxMax());

    PanelInfo panel;
    panel.device = solverDeviceDescription(s.backend);
    panel.cudaWhyNot = cudaUnavailableReason();
    panel.scenes = builtinSceneNames();
    if (std::find(panel.scenes.begin(), panel.scenes.end(), s.scene) == panel.scenes.end())
        panel.scenes.push_back(s.scene);
    std::printf("vbm-fluid (window)\n  device:     %s\n  backend:    %s\n  render:     %s%s\n  %s\n"
                "  scene:      %s, %llu active voxels, %llu blocks\n",
                panel.device.c_str(), backendName(s.backend), vk.deviceName().c_str(),
                vk.validation() ? " (validation on)" : "", sim.pathLine.c_str(), sim.scene.name.c_str(),
                (unsigned long long)sim.solver->activeVoxels(), (unsigned long long)sim.solver->blockCount());
    std::fflush(stdout);

    Script commands(std::move(script));
    FrameHistory history;
    bool recreate = false;
    double lastRecordMs = 0;
    for (int frame = 0; !glfwWindowShouldClose(window);) {
        glfwPollEvents();
        glfwGetFramebufferSize(window, &fbWidth, &fbHeight);
        if (fbWidth == 0 || fbHeight == 0) { // minimized: nothing to draw into
            glfwWaitEvents();
            continue;
        }
        if (recreate || swapchain.extent().width != uint32_t(fbWidth) ||
            swapchain.extent().height != uint32_t(fbHeight)) {
            swapchain.recreate(uint32_t(fbWidth), uint32_t(fbHeight));
            ImGui_ImplVulkan_SetMinImageCount(swapchain.minImageCount());
            recreate = false;
        }
        for (const ScriptCommand& c : commands.due(frame))
            runScriptCommand(s, c);
        if (s.resizeWidth > 0) { // seen by the next frame, like a user's resize
            glfwSetWindowSize(window, s.resizeWidth, s.resizeHeight);
            s.resizeWidth = s.resizeHeight = 0;
        }

        // The panels and keys edit the state...
        ImGui_ImplVulkan_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        const float volumeX = float(panelWidth());
        handleInput(s, volumeX, float(fbHeight));
        panel.renderPath = sim.pathLine;
        panel.kind = sim.scene.kind;
        panel.voxels = sim.solver->activeVoxels();
        panel.blocks = sim.solver->blockCount();
        panel.steps = sim.steps;
        panel.explicitStableDt = sim.solver->explicitStableDt();
        std::copy(sim.renderer->boxMin(), sim.renderer->boxMin() + 3, panel.boxMin);
        std::copy(sim.renderer->boxMax(), sim.renderer->boxMax() + 3, panel.boxMax);
        drawPanels(s, sim.solver->params(), panel, history, volumeX, float(fbHeight));
        ImGui::Render();

        // ...and the loop applies it between steps.
        if (s.reset) {
            const bool sameScene = s.scene == sim.scene.name && s.backend == sim.solver->backend();
            presenter.wait();
            load(sim, s, vk, volumeSize().first, volumeSize().second);
            panel.device = solverDeviceDescription(s.backend);
            if (!sameScene) {
                s.look = defaultLook(sim.scene, *sim.solver);
                s.camera = render::OrbitCamera::framing(sim.renderer->boxMin(), sim.renderer->boxMax());
                history.clear();
            }
            s.reset = false;
        }
        if (s.resetView) s.camera = render::OrbitCamera::framing(sim.renderer->boxMin(), sim.renderer->boxMax());
        s.resetView = false;
        const StencilChoice now = sim.solver->choice();
        if (now.laplacian != s.choice.laplacian || now.advection != s.choice.advection ||
            now.log2BlockWidth != s.choice.log2BlockWidth)
            sim.solver->setChoice(s.choice);
        if (!s.exportPath.empty()) {
            std::vector<std::pair<std::string, std::vector<float>>> fields;
            for (const std::string& name : sim.solver->fieldNames())
                fields.emplace_back(name, sim.solver->field(name));
            exportFields(s.exportPath, sim.scene.grid, fields);
            panel.lastOutput = "exported " + s.exportPath;
            std::printf("export: %s (after %d steps; %zu float grids)\n", s.exportPath.c_str(), sim.steps,
                        fields.size());
            std::fflush(stdout);
            s.exportPath.clear();
        }

        const FrameTimings* step = nullptr;
        if (s.playing || s.stepOnce) {
            step = &sim.solver->step();
            ++sim.steps;
            s.stepOnce = false;
        }
        // The last frame's GPU work ends before the staging buffer is overwritten.
        const auto waitStart = Clock::now();
        presenter.wait();
        // render: the ray march's GPU time from timestamps where the queue has them; else the
        // recording plus the wait for the frame (which includes the present)
        history.add(sim.solver->choice(), step,
                    sim.renderer->lastRenderGpuMs().value_or(lastRecordMs + msSince(waitStart)));
        if (step) {
            sim.renderer->setField(sim.solver->fieldData(sim.field), fieldMemory(s.backend),
                                   sim.solver->cudaStream());
            panel.hostBytesLastField = sim.renderer->takeFieldBytesCopied();
        }

        const auto [vw, vh] = volumeSize();
        if (sim.renderer->width() != vw || sim.renderer->height() != vh) sim.renderer->resize(vw, vh);
        if (!presenter.acquire()) {
            recreate = true;
            continue;
        }
        const auto recordStart = Clock::now();
        VkCommandBuffer cmd = presenter.begin();
        sim.renderer->recordRender(cmd, s.camera, s.look);
        presenter.drawVolume(sim.renderer->imageBuffer(), vw, vh, int32_t(volumeX), 0);
        ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd);
        const bool shot = !s.screenshot.empty();
        presenter.end(shot);
        if (!presenter.submitAndPresent(sim.renderer->nextFieldSync())) recreate = true;
        lastRecordMs = msSince(recordStart);
        if (shot) {
            presenter.wait();
            const VkExtent2D e = presenter.screenshotExtent();
            render::writePng(s.screenshot, presenter.screenshot(), e.width, e.height);
            panel.lastOutput = "screenshot " + s.screenshot;
            std::printf("screenshot: %s (%ux%u, after %d steps)\n", s.screenshot.c_str(), e.width, e.height,
                        sim.steps);
            std::fflush(stdout);
            s.screenshot.clear();
        }
        ++frame;
        if (s.quit) break;
    }
    presenter.wait();

    std::printf("\nMedian ms per phase over the steps run with each resolver (window, %s backend, %s):\n%s",
                backendName(s.backend), sim.scene.name.c_str(), history.table().c_str());
    if (vk.validation()) std::printf("Vulkan validation errors: %d\n", vk.validationErrors());
    return vk.validationErrors() > 0 ? 1 : 0;
}

} // namespace vbm::app
