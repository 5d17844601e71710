// SPDX-License-Identifier: Apache-2.0
// One simulation session (see Session.h).
#include "Session.h"

#include "CommandLine.h"
#include "CudaInterop.h"
#include "FieldExport.h"
#include "FrameExport.h"
#include "MemoryPlan.h"
#include "SceneSetup.h"
#include "SetupProgress.h"

#include <algorithm>
#include <stdexcept>
#include <chrono>

namespace vbm::app {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

render::FieldMemory fieldMemory(Backend b)
{
    return b == Backend::Cuda ? render::FieldMemory::CudaDevice : render::FieldMemory::Host;
}

} // namespace

Session::Session(const std::string& sceneName, Backend backend, const std::vector<NamedChoice>& configs,
                 SceneOverrides overrides)
    : mOverrides(overrides), mBackend(backend)
{
    SetupProgress progress;
    mScene = loadWithOverrides(sceneName, true, int(configs.size()), progress);
    progress.report("building the solver (the grid, its VBMs, the multigrid levels, the fields)", -1);
    makeSolvers(configs);
    mSetupSeconds = progress.seconds();
}

Session::Session(Scene resumed, Backend backend, const std::vector<NamedChoice>& configs,
                 std::optional<TapTableMode> tapTable)
    : mBackend(backend)
{
    SetupProgress progress;
    mOverrides.tapTable = tapTable;
    resumed.tapTable = tapTable.value_or(TapTableMode::Auto);
    MemoryOffer offer = memoryOffer(backend);
    offer.host = 0; // the domain is built already: only the solvers' memory is still to come
    if (const std::string why = memoryRefusal(resumed, double(resumed.grid.grid<nanovdb::ValueOnIndex>()->activeVoxelCount()),
                                              int(configs.size()), offer);
        !why.empty())
        throw SceneError(resumed.name + ": " + why);
    planMemory(resumed, int(configs.size()), offer);
    mScene = std::move(resumed);
    progress.report("building the solver from the checkpoint", -1);
    makeSolvers(configs);
    // the solvers hold the fields now: the host copies go
    for (std::vector<float>* f : sceneFields(mScene))
        std::vector<float>().swap(*f);
    mSetupSeconds = progress.seconds();
}

void Session::planMemory(Scene& scene, int configurations, const MemoryOffer& offer)
{
    const double voxels = double(scene.grid.grid<nanovdb::ValueOnIndex>()->activeVoxelCount());
    mTapTablePlan = planTapTable(scene, voxels, configurations, offer);
    scene.tapTable = mTapTablePlan.on ? TapTableMode::On : TapTableMode::Off; // every configuration the same
}

Scene Session::loadWithOverrides(const std::string& sceneName, bool strict, int configurations,
                                 SetupProgress& progress)
{
    const MemoryOffer offer = memoryOffer(mBackend);
    SceneBuildHooks hooks;
    hooks.beforeBuild = [&](Scene& scene, double voxels) {
        applyOverrides(scene, sceneName, strict);
        if (const std::string why = memoryRefusal(scene, voxels, configurations, offer); !why.empty())
            throw SceneError(sceneName + ": " + why);
    };
    hooks.progress = [&](const char* what, double fraction) { progress.report(what, fraction); };
    Scene scene = loadScene(sceneName, hooks);
    applyOverrides(scene, sceneName, strict);
    planMemory(scene, configurations, offer);
    return scene;
}

void Session::applyOverrides(Scene& scene, const std::string& sceneName, bool strict) const
{
    const std::optional<ScalarStorage>& scalars = mOverrides.scalars;
    const std::optional<double>& maxCfl = mOverrides.maxCfl;
    if (mOverrides.tapTable) scene.tapTable = *mOverrides.tapTable;
    if (mOverrides.seed) scene.params.seed = *mOverrides.seed;
    if (scene.kind == SimulationKind::Smoke) {
        if (scalars) scene.scalars = *scalars;
        if (maxCfl) scene.params.maxCfl = *maxCfl;
    } else if (strict && scalars == ScalarStorage::Half) {
        throw cli::UsageError("--scalars half is for smoke scenes; '" + sceneName + "' is a heat scene");
    } else if (strict && maxCfl) {
        throw cli::UsageError("--max-cfl is for smoke scenes; '" + sceneName + "' is a heat scene");
    }
}

Session::~Session() = default;

void Session::makeSolvers(const std::vector<NamedChoice>& configs)
{
    mSolvers.clear();
    for (const NamedChoice& c : configs) {
        if (c.choice.backend() != mBackend) throw std::logic_error("a resolver choice checked for the other backend");
        mSolvers.push_back({c.name, std::make_unique<Solver>(mScene, c.choice)});
    }
    mRecords.assign(mSolvers.size(), FrameTimings{});
    mSteps = 0;
    mFieldChanged = true;
}

void Session::makeRenderer(bool strict)
{
    mRenderer.reset();
    mSharedWhyNot = mInterop == "off" ? "--interop off" : render::sharedPathWhyNot(*mVulkan, mBackend == Backend::Cuda);
    if (strict && mInterop == "on" && !mSharedWhyNot.empty())
        throw cli::UsageError("--interop on: the shared CUDA-Vulkan path is not possible here: " + mSharedWhyNot);
    const VkExtent2D size = mTarget->volumeExtent();
    // The solver's current topology, which is the scene's only until its first rebuild.
    // Smoke keeps room for the temperature too, which the fire look shows.
    mRenderer =
        std::make_unique<render::VolumeRenderer>(*mVulkan, solver().grid(), size.width, size.height,
                                                 mSharedWhyNot.empty(), mScene.kind == SimulationKind::Smoke ? 2u : 1u);
    mRendererTopology = solver().topologyVersion();
    mFieldChanged = true;
}

void Session::attachRenderer(std::unique_ptr<render::VulkanContext> vk, std::unique_ptr<render::RenderTarget> target,
                             const std::string& interop)
{
    mRenderer.reset(), mTarget.reset(), mVulkan.reset();
    mVulkan = std::move(vk), mTarget = std::move(target), mInterop = interop;
    try {
        makeRenderer(true);
    } catch (...) { // no half-made renderer stays attached
        mTarget.reset(), mVulkan.reset();
        throw;
    }
    mView.look = defaultLook(mScene, solver(), *mVulkan);
    frameView();
}

void Session::reload(const std::string& sceneName, const CheckedChoice& choice,
                     std::optional<ScalarStorage> scalars, std::optional<TapTableMode> tapTable)
{
    if (scalars) mOverrides.scalars = scalars;
    if (tapTable) mOverrides.tapTable = tapTable;
    if (mVulkan) render::checkVk(vkDeviceWaitIdle(mVulkan->device()), "vkDeviceWaitIdle (loading a scene)");
    mRenderer.reset();
    mSolvers.clear();
    mBackend = choice.backend();
    SetupProgress progress;
    mScene = loadWithOverrides(sceneName, false, 1, progress);
    makeSolvers({{resolverName(choice.choice().laplacian), choice}});
    if (mVulkan) makeRenderer(false); // a live switch falls back to staging rather than stop the window
    mView.look.log2BlockWidth = choice.choice().log2BlockWidth;
}

void Session::stepSolvers(bool step)
{
    for (size_t k = 0; k < mSolvers.size(); ++k) {
        Solver& s = *mSolvers[k].solver;
        mRecords[k] = step ? s.step() : FrameTimings{};
        mRecords[k].frame = mFrame;
        if (!step) mRecords[k].activeVoxels = s.activeVoxels(); // a frame without a step still has a topology
    }
    if (step) ++mSteps, mFieldChanged = true;
}

double Session::render(bool capture, FrameTimings& record)
{
    const auto t0 = Clock::now();
    // The last frame's GPU work ends before the staging buffer is overwritten; its ray march's
    // timestamps can then be read.
    mTarget->wait();
    std::optional<double> gpuMs = mRenderer->lastRenderGpuMs();
    const uint64_t gridBytes = updateRendererGrid();
    const bool second = mRenderer->channels() > 1 && render::usesSecondChannel(mView.look.mode);
    if (mFieldChanged) {
        mRenderer->setField(solver().fieldData(renderFieldName(mScene.kind)), fieldMemory(mBackend),
                            solver().cudaStream());
        mSecondChannelStale = true;
        mFieldChanged = false;
    }
    if (second && mSecondChannelStale) { // the fire look's temperature, only while a look shows it
        mRenderer->setField(solver().fieldData("temperature"), fieldMemory(mBackend), solver().cudaStream(), 1);
        mSecondChannelStale = false;
    }
    mDrawn = mRenderer->draw(*mTarget, mView.camera, mView.look, capture);
    if (mDrawn && !mTarget->frameInFlight()) gpuMs = mRenderer->lastRenderGpuMs(); // this frame's
    const double ms = msSince(t0);
    record.add(Phase::Render, ms);
    // the ray march alone, from GPU timestamps (Render also holds the field's way in, the submit
    // and the waits)
    if (gpuMs) record.add(Phase::RenderGpu, *gpuMs);
    // The shared path's "no host copies per frame" holds for frames without a rebuild: a frame
    // whose step rebuilt the topology also brings the new grid to the renderer through the host.
    record.hostBytes = mRenderer->takeHostBytesCopied() + gridBytes;
    return ms;
}

uint64_t Session::updateRendererGrid()
{
    const uint64_t version = solver().topologyVersion();
    if (version == mRendererTopology) return 0;
    // Only now: on CUDA grid() is a device-to-host copy. The grid comes before the field, whose
    // length is the new grid's value count.
    const HostGridHandle grid = solver().grid();
    mRenderer->setGrid(grid); // counts its upload to the renderer's device
    mRendererTopology = version;
    for (int a = 0; a < 3; ++a)
        mSeenMin[a] = std::min(mSeenMin[a], mRenderer->boxMin()[a]),
        mSeenMax[a] = std::max(mSeenMax[a], mRenderer->boxMax()[a]);
    if (mFollowGrid) mView.camera = render::OrbitCamera::framing(mSeenMin, mSeenMax);
    mFieldChanged = true;
    return mBackend == Backend::Cuda ? grid.gridSize() : 0; // the copy out of the solver's device
}

const std::vector<FrameTimings>& Session::frame(const FrameRequest& request)
{
    stepSolvers(request.step);
    double frameMs = 0;
    for (const FrameTimings& r : mRecords)
        frameMs += r.stepMs();
    mDrawn = false;
    if (mRenderer) frameMs += render(request.capture, mRecords.front());
    mRecords.front().add(Phase::Frame, frameMs);
    ++mFrame;
    return mRecords;
}

render::CapturedImage Session::capture()
{
    if (!mTarget) return {};
    return mTarget->capturedImage();
}

void Session::setChoice(const CheckedChoice& c)
{
    if (solver().choice() != c.choice()) solver().setChoice(c);
    mView.look.log2BlockWidth = c.choice().log2BlockWidth;
}

void Session::frameView()
{
    if (!mRenderer) return;
    for (int a = 0; a < 3; ++a)
        mSeenMin[a] = mRenderer->boxMin()[a], mSeenMax[a] = mRenderer->boxMax()[a];
    mView.camera = render::OrbitCamera::framing(mSeenMin, mSeenMax);
    mFollowGrid = true;
}

size_t Session::exportFields(const std::string& path) const
{
    if (isVdbPath(path)) {
        const VdbFrame frame = currentFrame(*this, true, mSteps);
        writeVdbFrame(path, frame);
        return frame.scalars.size() + (frame.u.empty() ? 0 : 1);
    }
    std::vector<std::pair<std::string, std::vector<float>>> fields;
    for (const std::string& name : solver().fieldNames())
        fields.emplace_back(name, solver().field(name));
    app::exportFields(path, solver().grid(), fields); // this frame's topology, not the scene's
    return fields.size();
}

bool Session::fieldsIdentical() const
{
    const uint64_t h = solver().fieldsHash();
    for (size_t k = 1; k < mSolvers.size(); ++k)
        if (mSolvers[k].solver->fieldsHash() != h) return false;
    return true;
}

} // namespace vbm::app
