// Volume rendering of one field of the sparse grid: a compute shader ray-marches the NanoVDB
// OnIndex grid and the field (storage buffers) through PNanoVDB and writes RGBA8 pixels, into a
// frame of whichever RenderTarget it is given (offscreen, or a window's swapchain).
// Two ways for the field to arrive: the shared-memory path (Vulkan memory exported to CUDA, a
// device-to-device copy ordered by a timeline semaphore, no host copies) and the staging path
// (the host writes the field into host-visible memory). Host copies are counted either way.
// The grid may change while running (adaptive scenes rebuild their topology): setGrid() replaces
// the grid buffer and re-creates the field buffer, and the bounding box follows.
#pragma once

#include "OrbitCamera.h"
#include "RenderTarget.h"
#include "VulkanContext.h"

#include <nanovdb/GridHandle.h>
#include <nanovdb/HostBuffer.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace vbm::render {

enum class RenderMode : uint32_t { Density = 0, Emission = 1, Blocks = 2 };

/// How the volume looks: what the shader does with the field, and the optional slice plane.
struct RenderSettings {
    RenderMode mode = RenderMode::Density;
    float rangeLo = 0, rangeHi = 1; ///< emission: field values at the colormap's ends
    float densityScale = 1;         ///< density: extinction per unit field value per voxel; emission: opacity
    float stepVoxels = 0.5f;
    uint32_t maxSteps = 4096;
    float lightAzimuth = 0.8f, lightElevation = 0.9f;
    int sliceAxis = -1;      ///< 0, 1, 2: show the field on the plane (axis) = slicePosition; -1: no slice
    float slicePosition = 0; ///< index coordinate of the slice plane
    int log2BlockWidth = 7;  ///< Blocks mode: the VBM block width to colour by
};

/// Where the field the renderer reads comes from.
enum class FieldMemory { Host, CudaDevice };

class CudaSharedField;

class VolumeRenderer {
public:
    /// cudaInterop: keep the field in Vulkan memory exported to CUDA (the caller checked that the
    /// Vulkan device is the CUDA device and can export); otherwise the staging path. The field
    /// holds one float per value index of `grid` (its valueCount, the background included).
    VolumeRenderer(VulkanContext& vk, const nanovdb::GridHandle<nanovdb::HostBuffer>& grid, uint32_t width,
                   uint32_t height, bool cudaInterop = false);
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

    bool interop() const { return mShared != nullptr; }
    /// One line for the user: which path the field takes to the renderer.
    std::string pathDescription() const;

    /// Brings a field (one float per value index) to the renderer. Host memory: copied into the
    /// staging buffer. CUDA device memory: on the shared path a device-to-device copy by CUDA
    /// into the buffer Vulkan reads, ordered by the timeline semaphore; on the staging path a
    /// device-to-host copy. `cudaStream` (a cudaStream_t): where CUDA device memory is copied from,
    /// the stream that wrote it (the solver's), so the copy is ordered after its writes. On the
    /// staging path the target's last frame must have finished (RenderTarget::wait()).
    void setField(const float* data, FieldMemory where, void* cudaStream = nullptr);
    /// Draws one frame into `target`: the image follows the target's volume size, the ray march
    /// is recorded into the frame the target begins, and the target places, overlays and submits
    /// it (with `capture`, keeping its pixels). False when the target skipped the frame.
    bool draw(RenderTarget& target, const OrbitCamera& camera, const RenderSettings& settings, bool capture);
    /// GPU time of the last recorded ray march (timestamp queries), once the frame holding it has
    /// finished; nothing where the queue has no timestamps or none was recorded yet.
    std::optional<double> lastRenderGpuMs() const;

    uint32_t width() const { return mWidth; }
    uint32_t height() const { return mHeight; }
    /// Bytes copied between host and device memory since the last call (then reset): the fields
    /// set, and the grids of setGrid().
    uint64_t takeHostBytesCopied() { return std::exchange(mHostBytes, 0); }
    /// Floats the field holds: the grid's value count (the background included).
    uint64_t valueCount() const { return mValueCount; }
    /// The grid's index-space bounding box.
    const float* boxMin() const { return mBoxMin; }
    const float* boxMax() const { return mBoxMax; }

private:
    void uploadGrid(const nanovdb::GridHandle<nanovdb::HostBuffer>& grid);
    void createFieldBuffer(bool cudaInterop);
    /// Frees the field buffer and, on the shared path, CUDA's imports and the timeline semaphore
    /// (the GPU must be idle: nothing submitted may still read them).
    void releaseFieldBuffer();
    /// Points the descriptor set at the grid, field and image buffers.
    void writeDescriptors();
    void createPipeline();
    void createDescriptorSet();
    /// Changes the image size (waits for the GPU; the image buffer is recreated).
    void resize(uint32_t width, uint32_t height);
    /// Records the ray march into `cmd`; it writes mImage and leaves it ready for a transfer read.
    void recordRender(VkCommandBuffer cmd, const OrbitCamera& camera, const RenderSettings& settings);
    /// The semaphore values for the next submit that reads the field (once per submit).
    FieldSync nextFieldSync();

    VulkanContext& mVk;
    uint32_t mWidth = 0, mHeight = 0;
    uint64_t mValueCount = 0;
    float mBoxMin[3], mBoxMax[3];
    Buffer mGrid, mField, mImage;
    std::unique_ptr<CudaSharedField> mShared;
    VkSemaphore mTimeline = VK_NULL_HANDLE;
    uint64_t mTimelineValue = 0; ///< last value handed out (CUDA and Vulkan signal in turn)
    uint64_t mFieldReady = 0;    ///< value at which the current field is in the shared buffer
    uint64_t mReadDone = 0;      ///< value at which the last submit reading the field completes
    VkShaderModule mShader = VK_NULL_HANDLE;
    VkDescriptorSetLayout mSetLayout = VK_NULL_HANDLE;
    VkPipelineLayout mLayout = VK_NULL_HANDLE;
    VkPipeline mPipeline = VK_NULL_HANDLE;
    VkDescriptorPool mPool = VK_NULL_HANDLE;
    VkDescriptorSet mSet = VK_NULL_HANDLE;
    VkQueryPool mQueries = VK_NULL_HANDLE; ///< two timestamps around the dispatch
    bool mTimed = false;                   ///< a recorded render wrote them
    uint64_t mHostBytes = 0;
};

} // namespace vbm::render
