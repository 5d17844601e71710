// SPDX-License-Identifier: Apache-2.0
// The interactive window (see GuiApp.h). One frame: poll input, run the script commands due,
// build the panels, apply what changed to the session, then the session's frame: step, hand the
// field to the renderer, ray march into the swapchain target, which copies the volume in, draws
// the panels over it and presents. One frame is in flight at a time.
#include "GuiApp.h"

#include "CommandLine.h"
#include "DeviceQueries.h"
#include "GuiCamera.h"
#include "GuiPanels.h"
#include "GuiScript.h"
#include "GuiState.h"
#include "GuiTimings.h"
#include "ImGuiLayer.h"
#include "PngFile.h"
#include "SceneSetup.h"
#include "FrameExport.h"
#include "Session.h"
#include "SwapchainTarget.h"

#define GLFW_INCLUDE_NONE // only the key codes
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <memory>
#include <tuple>

namespace vbm::app {

namespace {

/// The panel column's width for a framebuffer `width` pixels wide.
uint32_t panelWidth(uint32_t width) { return std::min<uint32_t>(420, std::max<uint32_t>(width * 2 / 5, 1)); }

/// A resolver for the Laplacian-type steps (and advection where it serves); says why not if it cannot run.
void selectResolver(GuiState& s, Resolver r)
{
    if (const std::string why = pickResolver(s.choice, r, s.backend); !why.empty()) std::printf("%s\n", why.c_str());
}

void runScriptCommand(GuiState& s, const ScriptCommand& c)
{
    if (c.command == "resolver")
        selectResolver(s, *parseResolver(c.argument));
    else if (c.command == "advection") {
        const Resolver r = *parseResolver(c.argument);
        if (const std::string why = resolverUnavailableReason(r, s.backend, StepKind::Advection); why.empty())
            s.choice.advection = r;
        else
            std::printf("%s\n", why.c_str());
    } else if (c.command == "block-width")
        s.choice.log2BlockWidth = c.argument == "512" ? 9 : 7;
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
    else if (c.command == "record")
        s.recordEvery = c.argument == "off" ? 0 : 1, s.recordPattern = c.argument;
    else if (c.command == "resize") {
        const auto size = *parseWindowSize(c.argument);
        s.resizeWidth = size.first, s.resizeHeight = size.second;
    } else if (c.command == "scalars") {
        s.scalars = c.argument == "half" ? ScalarStorage::Half : ScalarStorage::Float;
        s.reset = true;
    } else if (c.command == "tap-table") {
        s.tapTable = c.argument == "on" ? TapTableMode::On : TapTableMode::Off;
        s.reset = true;
    } else if (c.command == "quit")
        s.quit = true;
}

/// Keys and the mouse over the volume, unless ImGui is using them. Returns whether the mouse
/// moved the camera.
bool handleInput(GuiState& s, render::OrbitCamera& camera, float volumeX, float volumeHeight)
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
            if (ImGui::IsKeyPressed(GLFW_KEY_1 + k, false)) selectResolver(s, AllResolvers[size_t(k)]);
    }
    if (io.WantCaptureMouse || io.MousePos.x < volumeX) return false;
    const ImVec2 d = io.MouseDelta;
    bool moved = false;
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) orbit(camera, d.x, d.y), moved = true;
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Right) || ImGui::IsMouseDragging(ImGuiMouseButton_Middle))
        pan(camera, d.x, d.y, volumeHeight), moved = true;
    if (io.MouseWheel != 0) zoom(camera, io.MouseWheel), moved = true;
    return moved;
}

/// The window and what runs in it. Members are destroyed in reverse order: the ImGui layer before
/// the session (whose target and Vulkan context it draws with), the session before GLFW.
class WindowApp {
public:
    WindowApp(const Options& o, GuiState state, std::vector<ScriptCommand> script);
    int run();

private:
    void startSession(const Options& o);
    void printStart() const;
    /// Polls events and fits the swapchain to the framebuffer; false while minimized.
    bool prepareFrame();
    void runDueCommands();
    void buildPanels();
    void applyState();
    void reloadScene();
    void exportFields();
    void saveScreenshot();
    /// Starts, feeds or ends the frame sequence the Output panel or the script asked for.
    void recordSequence(bool stepped);

    GlfwWindow mWindow;
    std::unique_ptr<Session> mSession;
    std::unique_ptr<FrameExport> mRecorder; ///< the sequence being recorded, if any
    int mRecorderEvery = 0;
    render::SwapchainTarget* mTarget = nullptr; ///< owned by the session
    std::unique_ptr<render::ImGuiLayer> mImGui;
    GuiState mState;
    PanelInfo mPanel;
    FrameHistory mHistory;
    Script mScript;
    uint32_t mFbWidth = 0, mFbHeight = 0;
    int mFrame = 0; ///< frames drawn, the script's clock
};

WindowApp::WindowApp(const Options& o, GuiState state, std::vector<ScriptCommand> script)
    : mWindow(o.sizeExplicit ? int(o.width) : 1280, o.sizeExplicit ? int(o.height) : 800, "vbm-fluid"),
      mState(std::move(state)), mScript(std::move(script))
{
    startSession(o);
    mImGui = std::make_unique<render::ImGuiLayer>(mWindow.handle(), *mSession->vulkan(), *mTarget);
    mTarget->setOverlay([this](VkCommandBuffer cmd) { mImGui->record(cmd); });
    mPanel.device = backendDeviceDescription(mState.backend);
    mPanel.cudaWhyNot = cudaUnavailableReason();
    mPanel.scenes = builtinSceneNames();
    if (std::find(mPanel.scenes.begin(), mPanel.scenes.end(), mState.scene) == mPanel.scenes.end())
        mPanel.scenes.push_back(mState.scene);
}

void WindowApp::startSession(const Options& o)
{
    render::VulkanOptions vo;
    vo.instanceExtensions = mWindow.instanceExtensions();
    vo.makeSurface = [this](VkInstance instance) { return mWindow.createSurface(instance); };
    vo.preferredDevice = preferredVulkanDevice(mState.backend);
    auto vk = std::make_unique<render::VulkanContext>(vo);
    auto target = std::make_unique<render::SwapchainTarget>(*vk);
    std::tie(mFbWidth, mFbHeight) = mWindow.framebufferSize();
    target->fit(std::max(mFbWidth, 1u), std::max(mFbHeight, 1u));
    target->setLeftInset(panelWidth(mFbWidth));
    mTarget = target.get();
    mSession = std::make_unique<Session>(
        mState.scene, mState.backend,
        std::vector<NamedChoice>{{resolverName(mState.choice.laplacian), checkChoice(mState.choice, mState.backend)}},
        SceneOverrides{mState.scalars, o.maxCfl, mState.tapTable, o.seed});
    mSession->attachRenderer(std::move(vk), std::move(target), o.interop);
    const render::VolumeRenderer& r = *mSession->renderer();
    mSession->view().look = startingLook(mSession->view().look, r.boxMin(), r.boxMax(), o);
}

void WindowApp::printStart() const
{
    const render::VulkanContext& vk = *mSession->vulkan();
    std::printf("vbm-fluid (window)\n  device:     %s\n  backend:    %s\n  render:     %s%s\n  field path: %s\n"
                "  scene:      %s, %llu active voxels, %llu blocks\n",
                mPanel.device.c_str(), backendName(mState.backend), vk.deviceName().c_str(),
                vk.validation() ? " (validation on)" : "", mSession->renderer()->pathDescription().c_str(),
                mSession->scene().name.c_str(), (unsigned long long)mSession->solver().activeVoxels(),
                (unsigned long long)mSession->solver().blockCount());
    std::fflush(stdout);
}

bool WindowApp::prepareFrame()
{
    mWindow.pollEvents();
    std::tie(mFbWidth, mFbHeight) = mWindow.framebufferSize();
    if (mFbWidth == 0 || mFbHeight == 0) { // minimized: nothing to draw into
        mWindow.waitEvents();
        return false;
    }
    mTarget->fit(mFbWidth, mFbHeight);
    mTarget->setLeftInset(panelWidth(mFbWidth));
    return true;
}

void WindowApp::runDueCommands()
{
    for (const ScriptCommand& c : mScript.due(mFrame))
        runScriptCommand(mState, c);
    if (mState.resizeWidth > 0) { // seen by the next frame, like a user's resize
        mWindow.setSize(mState.resizeWidth, mState.resizeHeight);
        mState.resizeWidth = mState.resizeHeight = 0;
    }
}

void WindowApp::buildPanels()
{
    mImGui->beginFrame();
    const float volumeX = float(panelWidth(mFbWidth));
    if (handleInput(mState, mSession->view().camera, volumeX, float(mFbHeight))) mSession->stopFollowing();
    const Solver& solver = mSession->solver();
    const render::VolumeRenderer& r = *mSession->renderer();
    mPanel.renderPath = "field path: " + r.pathDescription();
    mPanel.kind = mSession->scene().kind;
    mPanel.scalars = mSession->scene().scalars;
    mPanel.tapTable = mSession->scene().tapTable == TapTableMode::On;
    const MemoryReport memory = solver.memory();
    mPanel.bytesPerVoxel = memory.perVoxel(memory.total());
    mPanel.voxels = solver.activeVoxels();
    mPanel.blocks = solver.blockCount();
    mPanel.steps = mSession->steps();
    mPanel.explicitStableDt = solver.explicitStableDt();
    std::copy(r.boxMin(), r.boxMin() + 3, mPanel.boxMin);
    std::copy(r.boxMax(), r.boxMax() + 3, mPanel.boxMax);
    drawPanels(mState, mSession->view().look, mSession->solver().params(), mPanel, mHistory, volumeX, float(mFbHeight));
    mImGui->endFrame();
}

void WindowApp::reloadScene()
{
    const bool sameScene = mState.scene == mSession->scene().name && mState.backend == mSession->backend();
    mSession->reload(mState.scene, checkChoice(mState.choice, mState.backend), mState.scalars, mState.tapTable);
    mPanel.device = backendDeviceDescription(mState.backend);
    if (!sameScene) {
        mSession->view().look = defaultLook(mSession->scene(), mSession->solver(), *mSession->vulkan());
        mSession->frameView();
        mHistory.clear();
    }
    mState.reset = false;
    const MemoryReport memory = mSession->solver().memory();
    std::printf("reloaded: %s on %s, %.1f B per voxel%s\n", mSession->scene().name.c_str(), backendName(mState.backend),
                memory.perVoxel(memory.total()),
                mSession->scene().tapTable == TapTableMode::On ? ", cross taps stored" : "");
}

void WindowApp::recordSequence(bool stepped)
{
    if (mRecorder && (mState.recordEvery != mRecorderEvery)) {
        mRecorder->finish();
        mPanel.lastOutput = "recorded " + std::to_string(mRecorder->filesWritten()) + " frames";
        std::printf("record: %d files (%s)\n", mRecorder->filesWritten(), mState.recordPattern.c_str());
        mRecorder.reset();
    }
    if (!mRecorder && mState.recordEvery > 0) {
        try {
            checkExportPattern(mState.recordPattern, mState.recordEvery, 2 * mState.recordEvery);
        } catch (const std::exception& e) { // shown in the panel; the simulation goes on
            mPanel.lastOutput = e.what();
            std::printf("record: %s\n", e.what());
            mState.recordEvery = 0;
        }
        if (mState.recordEvery > 0)
            mRecorder = std::make_unique<FrameExport>(mState.recordPattern, mState.recordEvery,
                                                      defaultExportWriters(mSession->backend() == Backend::Cuda));
    }
    mRecorderEvery = mState.recordEvery;
    if (mRecorder && stepped) mRecorder->afterFrame(*mSession, mSession->steps() - 1);
}

void WindowApp::exportFields()
{
    const size_t grids = mSession->exportFields(mState.exportPath);
    mPanel.lastOutput = "exported " + mState.exportPath;
    std::printf("export: %s (after %d steps; %zu float grids)\n", mState.exportPath.c_str(), mSession->steps(), grids);
    std::fflush(stdout);
    mState.exportPath.clear();
}

/// What the panels, keys and script asked for, applied between frames.
void WindowApp::applyState()
{
    if (mState.reset) reloadScene();
    if (mState.resetView) mSession->frameView();
    mState.resetView = false;
    // The panels, keys and script keep the choice runnable (pickResolver, fitChoiceToBackend):
    // the rule's check here is the one check, and the solver takes its result as it is.
    mSession->setChoice(checkChoice(mState.choice, mState.backend));
    if (!mState.exportPath.empty()) exportFields();
}

void WindowApp::saveScreenshot()
{
    const render::CapturedImage image = mSession->capture();
    render::writePng(mState.screenshot, image.pixels, image.width, image.height);
    mPanel.lastOutput = "screenshot " + mState.screenshot;
    std::printf("screenshot: %s (%ux%u, after %d steps)\n", mState.screenshot.c_str(), image.width, image.height,
                mSession->steps());
    std::fflush(stdout);
    mState.screenshot.clear();
}

int WindowApp::run()
{
    printStart();
    while (!mWindow.shouldClose()) {
        if (!prepareFrame()) continue;
        runDueCommands();
        buildPanels();
        applyState();
        const bool step = mState.playing || mState.stepOnce;
        mState.stepOnce = false;
        const FrameTimings& record = mSession->frame({step, !mState.screenshot.empty()}).front();
        mHistory.add(mSession->solver().choice(), record);
        recordSequence(step);
        if (step) mPanel.hostBytesLastField = record.hostBytes;
        if (!mSession->lastFrameDrawn()) continue; // the swapchain was out of date: drawn next time
        if (!mState.screenshot.empty()) saveScreenshot();
        ++mFrame;
        if (mState.quit) break;
    }
    mTarget->wait();
    mState.recordEvery = 0;
    recordSequence(false); // the files queued are written before the window closes
    std::printf("\nMedian ms per phase over the steps run with each resolver (window, %s backend, %s):\n%s",
                backendName(mState.backend), mSession->scene().name.c_str(), mHistory.table().c_str());
    const render::VulkanContext& vk = *mSession->vulkan();
    if (vk.validation()) std::printf("Vulkan validation errors: %d\n", vk.validationErrors());
    return vk.validationErrors() > 0 ? 1 : 0;
}

} // namespace

int runGui(const Options& o)
{
    if (o.allResolvers)
        throw cli::UsageError("--resolver all is for the headless run; the window switches resolvers live");
    std::vector<ScriptCommand> script;
    if (!o.script.empty()) script = readScript(o.script);
    GuiState s;
    s.backend = pickBackend(o.backend);
    s.scene = startingSceneName(o, s.backend);
    s.choice = startingChoice(o, s.backend);
    s.scalars = o.scalars;
    s.tapTable = o.tapTable;
    WindowApp app(o, std::move(s), std::move(script));
    return app.run();
}

} // namespace vbm::app
