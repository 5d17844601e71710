// SPDX-License-Identifier: Apache-2.0
// Volume rendering of the sparse grid: compute passes ray-march the NanoVDB OnIndex grid and the
// field (storage buffers) through PNanoVDB and write RGBA8 pixels into a frame of whichever
// RenderTarget they are given (offscreen, or a window's swapchain). Per frame: the field's range
// (for colormaps that follow it), a coarse volume and a light volume (sun and sky
// transmittance, for lit smoke), the ray march with lit surfaces, and an upscale when rays are
// marched at a lower resolution. docs/render.md describes them.
// Two ways for the field to arrive: the shared-memory path (Vulkan memory exported to CUDA, a
// device-to-device copy ordered by a timeline semaphore, no host copies) and the staging path
// (the host writes the field into host-visible memory). Host copies are counted either way.
// The grid may change while running (adaptive scenes rebuild their topology): setGrid() replaces
// the grid buffer and re-creates the field buffer, and the bounding box follows. Mesh obstacles
// arrive with the look (RenderSettings::meshObstacles, a surface band built once per scene) and
// are uploaded when it changes.
#pragma once

#include "ObstacleSurface.h"
#include "OrbitCamera.h"
#include "RenderPipelines.h"
#include "RenderParams.h"
#include "RenderTarget.h"
#include "VulkanContext.h"

#include <nanovdb/GridHandle.h>
#include <nanovdb/HostBuffer.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vbm::render {

enum class RenderMode : uint32_t { Density = 0, Emission = 1, Blocks = 2, Fire = 3 };

/// A sphere drawn as a lit surface (an obstacle of the scene), in index space.
struct SurfaceBall {
    float x = 0, y = 0, z = 0, r = 0;
};
inline constexpr size_t MaxSurfaceBalls = 8;

/// How the volume looks: what the shader does with the field, the light, the surfaces, the
/// optional slice plane. docs/render.md describes each.
struct RenderSettings {
    RenderMode mode = RenderMode::Density;
    /// Emission and slice: the colormap's ends follow the field's range (computed on the GPU
    /// every frame), or stay at rangeLo..rangeHi.
    bool rangeFollowsField = true;
    float rangeLo = 0, rangeHi = 1;
    float densityScale = 1; ///< density, fire: extinction per unit field value per voxel; emission: opacity
    float stepVoxels = 0.5f;
    uint32_t maxSteps = 4096;
    // The light: a sun from (azimuth, elevation), radians, and a sky from above.
    float lightAzimuth = -0.9f, lightElevation = 0.6f; ///< from the camera's right
    float sunIntensity = 2.0f, skyIntensity = 0.4f;
    float phaseG = 0.35f;   ///< Henyey-Greenstein anisotropy: forward scattering for g > 0
    float albedo = 0.9f;    ///< single-scattering albedo of the smoke
    float exposure = 1.0f;  ///< before the tone map
    /// Cells of the light volume along the box's longest side (density and fire looks); 0: no
    /// light volume, so no shadows and no coarse empty-space skipping.
    uint32_t lightResolution = 96;
    /// Output pixels per ray along x and y (1, 2 or 4): the rays are marched at the lower
    /// resolution and filtered up. 0: by the device, 1 on a GPU; on a CPU device (lavapipe) 2,
    /// or 4 for images larger than 800x600.
    uint32_t pixelsPerRay = 0;
    // Fire: blackbody emission at kelvin = kelvinAtZero + kelvinPerUnit * temperature, at most
    // kelvinMax (where fuel piles up at the emitter's rim it would otherwise glow white).
    float fireEmission = 0.04f, kelvinAtZero = 700.f, kelvinPerUnit = 500.f, kelvinMax = 1900.f;
    bool ground = true;      ///< a checkered ground plane at y = groundHeight, shadowed
    float groundHeight = 0;  ///< index space
    std::vector<SurfaceBall> obstacles; ///< the first MaxSurfaceBalls are drawn
    /// The mesh obstacles' surface (buildObstacleSurface of the scene's solid voxels), or null.
    /// Uploaded by draw() whenever it is another one than the last drawn.
    std::shared_ptr<const ObstacleSurface> meshObstacles;
    int sliceAxis = -1;      ///< 0, 1, 2: show the field on the plane (axis) = slicePosition; -1: no slice
    float slicePosition = 0; ///< index coordinate of the slice plane
    int log2BlockWidth = 7;  ///< Blocks mode: the VBM block width to colour by
};

/// Whether a look reads the field's second channel (the temperature, for fire).
inline bool usesSecondChannel(RenderMode m) { return m == RenderMode::Fire; }

/// Where the field the renderer reads comes from.
enum class FieldMemory { Host, CudaDevice };

class CudaSharedField;

class VolumeRenderer {
public:
    /// cudaInterop: keep the field in Vulkan memory exported to CUDA (the caller checked that the
    /// Vulkan device is the CUDA device and can export); otherwise the staging path. The field
    /// holds `channels` (1 or 2) floats per value index of `grid` (its valueCount, the background
    /// included): channel 0 is what every look shows, channel 1 the fire look's temperature.
    VolumeRenderer(VulkanContext& vk, const nanovdb::GridHandle<nanovdb::HostBuffer>& grid, uint32_t width,
                   uint32_t height, bool cudaInterop = false, uint32_t channels = 1);
    ~VolumeRenderer();
    VolumeRenderer(const VolumeRenderer&) = delete;
    VolumeRenderer& operator=(const VolumeRenderer&) = delete;

    /// Takes a new topology (the solver rebuilt its active set): waits until no submitted frame
    /// and no queued CUDA copy still uses the old buffers, uploads `grid`, re-creates the field
    /// buffer for its value count on the same path (shared: a new exportable buffer and timeline
    /// semaphore, imported into CUDA anew; staging: a new host-visible buffer), zeroed until the
    /// next setField(), and takes its bounding box. The VBM-block overlay follows by itself: the
    /// shader colours blocks of consecutive value indices of whichever grid it reads. The grid's
    /// upload counts as host bytes. Throws VulkanError for a grid that is not OnIndex (and then
    /// changes nothing).
    void setGrid(const nanovdb::GridHandle<nanovdb::HostBuffer>& grid);

    /// Takes the mesh obstacles' surface (null: none): waits until no submitted frame reads the
    /// old one and uploads it into device memory (counted as host bytes); the first one makes
    /// the pipelines that draw mesh obstacles (seconds on a CPU device). draw() calls it when
    /// the look's meshObstacles changes; nothing happens for the one already held.
    void setObstacleSurface(std::shared_ptr<const ObstacleSurface> surface);

    bool interop() const { return mShared != nullptr; }
    /// One line for the user: which path the field takes to the renderer.
    std::string pathDescription() const;

    /// Brings one channel of the field (one float per value index) to the renderer. Host
    /// memory: copied into the staging buffer. CUDA device memory: on the shared path a
    /// device-to-device copy by CUDA into the buffer Vulkan reads, ordered by the timeline
    /// semaphore; on the staging path a device-to-host copy. `cudaStream` (a cudaStream_t): where
    /// CUDA device memory is copied from, the stream that wrote it (the solver's), so the copy is
    /// ordered after its writes. On the staging path the target's last frame must have finished
    /// (RenderTarget::wait()). A channel the renderer was not made with is an error.
    void setField(const float* data, FieldMemory where, void* cudaStream = nullptr, uint32_t channel = 0);
    uint32_t channels() const { return mChannels; }
    /// Draws one frame into `target`: the image follows the target's volume size, the passes
    /// are recorded into the frame the target begins, and the target places, overlays and
    /// submits it (with `capture`, keeping its pixels). False when the target skipped the frame.
    bool draw(RenderTarget& target, const OrbitCamera& camera, const RenderSettings& settings, bool capture);
    /// GPU time of the last recorded frame's passes (timestamp queries around all of them), once
    /// the frame holding it has finished; nothing where the queue has no timestamps or none was
    /// recorded yet.
    std::optional<double> lastRenderGpuMs() const;

    uint32_t width() const { return mWidth; }
    uint32_t height() const { return mHeight; }
    /// Bytes copied between host and device memory since the last call (then reset): the fields
    /// set, and the grids of setGrid().
    uint64_t takeHostBytesCopied() { return std::exchange(mHostBytes, 0); }
    /// Floats one channel of the field holds: the grid's value count (the background included).
    uint64_t valueCount() const { return mValueCount; }
    /// The grid's index-space bounding box.
    const float* boxMin() const { return mBoxMin; }
    const float* boxMax() const { return mBoxMax; }

private:
    void uploadGrid(const nanovdb::GridHandle<nanovdb::HostBuffer>& grid);
    /// The grid buffer's size for the field grid (mGridBytes) and `mesh`'s band after it.
    Buffer createGridBuffer(const ObstacleSurface* mesh) const;
    /// Where the mesh obstacles' band grid starts in the grid buffer (32-byte aligned).
    VkDeviceSize meshOffset() const;
    /// The mesh obstacles' band into the grid buffer at meshOffset() (none: nothing).
    void uploadBand();
    /// The mesh obstacles' occupancy buffer (the old one destroyed); a 1-float dummy without.
    void uploadOccupancy();
    void createFieldBuffer(bool cudaInterop);
    /// Frees the field buffer and, on the shared path, CUDA's imports and the timeline semaphore
    /// (the GPU must be idle: nothing submitted may still read them).
    void releaseFieldBuffer();
    /// Points the descriptor set at the buffers.
    void writeDescriptors();
    void createDescriptorSet();
    /// Changes the image size or the rays per pixel (waits for the GPU; the images are recreated).
    void resize(uint32_t width, uint32_t height, uint32_t pixelsPerRay);
    /// The light and coarse volumes for `resolution` cells along the box's longest side (waits
    /// for the GPU when their size changes).
    void fitLightVolume(uint32_t resolution);
    /// Bytes from the start of the field buffer to channel `c` (aligned for a storage binding).
    VkDeviceSize channelOffset(uint32_t c) const;
    /// Records the frame's passes into `cmd`; they write mImage and leave it ready for a transfer read.
    void recordRender(VkCommandBuffer cmd, const OrbitCamera& camera, const RenderSettings& settings);
    /// The parameters the passes read, for this camera, look and image.
    RenderParams frameParams(const OrbitCamera& camera, const RenderSettings& settings) const;
    /// The semaphore values for the next submit that reads the field (once per submit).
    FieldSync nextFieldSync();

    VulkanContext& mVk;
    RenderPipelines mPipelines;
    uint32_t mChannels = 1;
    uint32_t mWidth = 0, mHeight = 0, mPixelsPerRay = 1, mRayWidth = 0, mRayHeight = 0;
    uint64_t mValueCount = 0;
    float mBoxMin[3], mBoxMax[3];
    uint32_t mLightResolution = 0, mLightDims[3] = {0, 0, 0}, mLightCell = 1;
    Buffer mGrid, mField, mImage, mRays, mCoarse, mLight, mRange, mParams;
    VkDeviceSize mGridBytes = 0; ///< the field grid's, at the start of mGrid; the mesh band follows
    Buffer mMeshOccupancy;       ///< the mesh obstacles' occupancy, or a dummy
    std::shared_ptr<const ObstacleSurface> mMesh;
    std::unique_ptr<CudaSharedField> mShared;
    VkSemaphore mTimeline = VK_NULL_HANDLE;
    uint64_t mTimelineValue = 0; ///< last value handed out (CUDA and Vulkan signal in turn)
    uint64_t mFieldReady = 0;    ///< value at which the current field is in the shared buffer
    uint64_t mReadDone = 0;      ///< value at which the last submit reading the field completes
    VkDescriptorPool mPool = VK_NULL_HANDLE;
    VkDescriptorSet mSet = VK_NULL_HANDLE;
    VkQueryPool mQueries = VK_NULL_HANDLE; ///< two timestamps around the passes
    bool mTimed = false;                   ///< a recorded render wrote them
    uint64_t mHostBytes = 0;
};

} // namespace vbm::render
