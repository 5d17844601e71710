// SPDX-License-Identifier: Apache-2.0
// One simulation session, the single frame path of the headless run and of the window: a scene,
// its solvers (one; or one per configuration of an A/B run, stepped in turns from the same
// state), and the renderer drawing the first solver's field into a render target with a view.
// Data flows one way: scene -> solvers -> renderer -> target (screen or PNG), and one
// FrameTimings record per solver and frame. The frontends change choices, parameters and the
// view between frames; they never call kernels, and never learn which kind of target it is.
#pragma once

#include "FrameTimings.h"
#include "MemoryPlan.h"
#include "OrbitCamera.h"
#include "RenderTarget.h"
#include "ResolverChoice.h"
#include "Scene.h"
#include "Solver.h"
#include "VolumeRenderer.h"
#include "VulkanContext.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vbm::app {

class SetupProgress;

/// What the renderer looks through, and how the volume looks.
struct View {
    render::OrbitCamera camera;
    render::RenderSettings look;
};

/// What one frame does.
struct FrameRequest {
    bool step = true;     ///< advance every solver by one step
    bool capture = false; ///< keep the frame's pixels, for capture()
};

/// What the command line sets in every scene a session loads.
struct SceneOverrides {
    std::optional<ScalarStorage> scalars; ///< --scalars: the scene's scalar_storage
    std::optional<double> maxCfl;         ///< --max-cfl: the scene's max_cfl
    std::optional<TapTableMode> tapTable; ///< --tap-table: the scene's tap_table (every kind)
    std::optional<uint32_t> seed;         ///< --seed: the scene's seed (the emitter noise's)
};

class Session {
public:
    /// Loads the scene and makes one solver per configuration; the first one is drawn.
    /// `overrides` (--scalars, --max-cfl) replace the scene's settings in every smoke scene the
    /// session loads; half or a max CFL on a heat scene is a cli::UsageError.
    Session(const std::string& sceneName, Backend backend, const std::vector<NamedChoice>& configs,
            SceneOverrides overrides = {});
    /// Goes on from a checkpoint's state (`resumed`, Checkpoint.h) with one solver per
    /// configuration, after the memory check. The tap table is planned anew for this machine,
    /// as `tapTable` says or auto (the same bits either way).
    Session(Scene resumed, Backend backend, const std::vector<NamedChoice>& configs,
            std::optional<TapTableMode> tapTable);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// From now on every frame is drawn into `target` (made on `vk`). The field takes the shared
    /// CUDA-Vulkan path where `interop` (auto, on, off) lets it and it can; "on" where it cannot is
    /// a cli::UsageError. The view is the scene's default look, framed.
    void attachRenderer(std::unique_ptr<render::VulkanContext> vk, std::unique_ptr<render::RenderTarget> target,
                        const std::string& interop);
    /// A fresh start: `sceneName` loaded on `backend` with one solver running `choice`, and a
    /// renderer made for its grid. The view is kept (the caller resets it for another scene).
    /// `scalars`, when given, replaces the constructor's; it applies to smoke scenes (heat ones keep float).
    /// `tapTable`, when given, replaces the constructor's (every scene).
    /// The backend is the one `choice` was checked for.
    void reload(const std::string& sceneName, const CheckedChoice& choice,
                std::optional<ScalarStorage> scalars = {}, std::optional<TapTableMode> tapTable = {});

    /// One frame: every solver steps (if asked), the first one's field goes to the renderer when
    /// it changed, and the renderer draws into the target. Returns one record per solver; the
    /// first also holds the render (Render, RenderGpu where the queue has timestamps: the last ray
    /// march finished) and the whole frame (Frame: every step plus the render), with hostBytes
    /// (the field's host copies, and in a frame after a rebuild the new grid's). When a step
    /// rebuilt the topology, the renderer takes the new grid before the field; the view is kept.
    const std::vector<FrameTimings>& frame(const FrameRequest& request);
    /// Whether the last frame reached the target (a window may skip one while it is resized).
    bool lastFrameDrawn() const { return mDrawn; }
    /// The pixels of the last frame drawn with FrameRequest::capture.
    render::CapturedImage capture();

    /// Switches the first solver's resolvers or block width; the state is kept, the view follows.
    void setChoice(const CheckedChoice& c);
    /// The camera framing the grid again, and following it as the topology grows (the box of
    /// every grid since, so it only ever widens) until stopFollowing().
    void frameView();
    /// The user moved the camera: new grids no longer reframe it.
    void stopFollowing() { mFollowGrid = false; }
    View& view() { return mView; }
    /// Writes every field of the first solver as a .nvdb file, over its current topology, or
    /// as a .vdb file (VdbExport.h) when `path` ends in .vdb; returns how many grids.
    size_t exportFields(const std::string& path) const;
    /// Whether every solver's fields are bitwise those of the first.
    bool fieldsIdentical() const;

    /// Whether the solvers store their cross taps, and why (the header's line).
    const TapTablePlan& tapTablePlan() const { return mTapTablePlan; }
    /// Seconds from the start of loading the scene to the solvers' being ready.
    double setupSeconds() const { return mSetupSeconds; }
    /// The scene as loaded: its grid is the starting topology; the current one is solver().grid().
    const Scene& scene() const { return mScene; }
    Backend backend() const { return mBackend; }
    Solver& solver(size_t k = 0) { return *mSolvers[k].solver; }
    const Solver& solver(size_t k = 0) const { return *mSolvers[k].solver; }
    const std::string& solverName(size_t k) const { return mSolvers[k].name; }
    size_t solverCount() const { return mSolvers.size(); }
    int steps() const { return mSteps; }
    /// The renderer, its Vulkan context and why the shared path was not taken ("" when it was);
    /// null and "" before attachRenderer().
    const render::VolumeRenderer* renderer() const { return mRenderer.get(); }
    const render::VulkanContext* vulkan() const { return mVulkan.get(); }
    render::VulkanContext* vulkan() { return mVulkan.get(); }
    const std::string& sharedPathWhyNot() const { return mSharedWhyNot; }

private:
    struct NamedSolver {
        std::string name;
        std::unique_ptr<Solver> solver;
    };
    void makeSolvers(const std::vector<NamedChoice>& configs);
    /// The renderer for the first solver's grid; `strict`: --interop on must be honoured or refused.
    void makeRenderer(bool strict);
    void stepSolvers(bool step);
    /// Brings the field over when it changed and draws; returns the render's wall-clock ms.
    double render(bool capture, FrameTimings& record);
    /// Gives the renderer the first solver's grid when its topology changed since the renderer
    /// last took one; returns the bytes that copy moved off the solver's device (0 on the CPU).
    uint64_t updateRendererGrid();

    /// The scene named, with the overrides applied, after the memory check (a SceneError names
    /// the voxels and bytes when `configurations` solvers would not fit) and with the tap table's
    /// mode resolved for all of them (tapTablePlan()).
    Scene loadWithOverrides(const std::string& sceneName, bool strict, int configurations, SetupProgress& progress);
    /// The tap table's plan for `configurations` solvers of `scene`, whose grid is built; the
    /// plan's mode is set on the scene.
    void planMemory(Scene& scene, int configurations, const MemoryOffer& offer);
    /// The command line's settings on `scene` (strict: half storage or a max CFL on a heat scene
    /// is a cli::UsageError; else heat keeps its own).
    void applyOverrides(Scene& scene, const std::string& sceneName, bool strict) const;

    SceneOverrides mOverrides; ///< --scalars and --max-cfl, applied to every scene loaded
    Backend mBackend;
    Scene mScene;
    TapTablePlan mTapTablePlan;
    double mSetupSeconds = 0;
    std::vector<NamedSolver> mSolvers;
    std::vector<FrameTimings> mRecords; ///< the last frame's, one per solver
    int mFrame = 0, mSteps = 0;
    bool mFieldChanged = true;       ///< the renderer has not seen the first solver's field yet
    bool mSecondChannelStale = true; ///< the renderer's channel 1 (temperature) is older than the field
    uint64_t mRendererTopology = 0;  ///< the first solver's topologyVersion() the renderer's grid is
    bool mDrawn = false;
    // Destroyed before the solvers: CUDA lets go of the shared field before the solver's memory.
    std::unique_ptr<render::VulkanContext> mVulkan;
    std::unique_ptr<render::RenderTarget> mTarget;
    std::unique_ptr<render::VolumeRenderer> mRenderer;
    std::string mInterop = "auto", mSharedWhyNot;
    View mView;
    bool mFollowGrid = true;
    float mSeenMin[3] = {0, 0, 0}, mSeenMax[3] = {0, 0, 0}; ///< the grids' boxes since frameView()
};

} // namespace vbm::app
