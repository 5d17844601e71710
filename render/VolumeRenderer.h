// Volume rendering of one field of the sparse grid: a compute shader ray-marches the NanoVDB
// OnIndex grid and the field (storage buffers) through PNanoVDB and writes RGBA8 pixels.
// Two ways for the field to arrive: the shared-memory path (Vulkan memory exported to CUDA, a
// device-to-device copy ordered by a timeline semaphore, no host copies) and the staging path
// (the host writes the field into host-visible memory). Host copies are counted either way.
#pragma once

#include "VulkanContext.h"

#include <nanovdb/GridHandle.h>
#include <nanovdb/HostBuffer.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace vbm::render {

/// An orbit camera around a target (index-space coordinates; angles in radians).
struct OrbitCamera {
    float target[3] = {0, 0, 0};
    float distance = 100;
    float azimuth = 0.7f, elevation = 0.35f;
    float fovY = 0.8f;
    /// Frames a box [lo, hi) from the default angles.
    static OrbitCamera framing(const float lo[3], const float hi[3]);
};

enum class RenderMode : uint32_t { Density = 0, Emission = 1, Blocks = 2 };

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

/// What a queue submit that contains recordRender() must wait for and signal on the shared-memory
/// path (a timeline semaphore, shared with CUDA); `semaphore` is null on the staging path.
struct FieldSync {
    VkSemaphore semaphore = VK_NULL_HANDLE;
    uint64_t waitValue = 0, signalValue = 0;
};

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

    bool interop() const { return mShared != nullptr; }
    /// One line for the user: which path the field takes to the renderer.
    std::string pathDescription() const;

    /// Brings a field (one float per value index) to the renderer. Host memory: copied into the
    /// staging buffer. CUDA device memory: on the shared path a device-to-device copy by CUDA
    /// into the buffer Vulkan reads, ordered by the timeline semaphore; on the staging path a
    /// device-to-host copy. `cudaStream` (a cudaStream_t): where CUDA device memory is copied from,
    /// the stream that wrote it (the solver's), so the copy is ordered after its writes.
    void setField(const float* data, FieldMemory where, void* cudaStream = nullptr);
    /// Changes the image size (waits for the GPU; the image buffer is recreated).
    void resize(uint32_t width, uint32_t height);
    /// Records the ray march into `cmd`; it writes imageBuffer() and leaves it ready for a
    /// transfer read. A submit holding it must honour nextFieldSync().
    void recordRender(VkCommandBuffer cmd, const OrbitCamera& camera, const RenderSettings& settings);
    /// The semaphore values for the next submit that reads the field (call once per submit).
    FieldSync nextFieldSync();
    /// RGBA8 pixels, width*height words, row by row from the top (device memory).
    VkBuffer imageBuffer() const { return mImage.buffer; }

    /// Offscreen use: renders and waits; with readBack, copies the image to the host too.
    void render(const OrbitCamera& camera, const RenderSettings& settings, bool readBack);
    /// GPU time of the last recorded ray march (timestamp queries), once its submit has completed;
    /// nothing where the queue has no timestamps or none was recorded yet.
    std::optional<double> lastRenderGpuMs() const;
    /// The pixels of the last render(..., readBack = true).
    const std::vector<uint32_t>& pixels() const { return mPixels; }

    uint32_t width() const { return mWidth; }
    uint32_t height() const { return mHeight; }
    /// Bytes copied between host and device memory for the field since the last call (then reset).
    uint64_t takeFieldBytesCopied() { return std::exchange(mFieldBytes, 0); }
    /// Bytes read back for pixels since the last call (then reset).
    uint64_t takeImageBytesCopied() { return std::exchange(mImageBytes, 0); }
    /// The grid's index-space bounding box.
    const float* boxMin() const { return mBoxMin; }
    const float* boxMax() const { return mBoxMax; }

private:
    void writeDescriptors();

    VulkanContext& mVk;
    uint32_t mWidth, mHeight;
    uint64_t mValueCount;
    float mBoxMin[3], mBoxMax[3];
    Buffer mGrid, mField, mImage, mReadback;
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
    VkCommandBuffer mCmd = VK_NULL_HANDLE;
    VkFence mFence = VK_NULL_HANDLE;
    VkQueryPool mQueries = VK_NULL_HANDLE; ///< two timestamps around the dispatch
    bool mTimed = false;                   ///< a recorded render wrote them
    std::vector<uint32_t> mPixels;
    uint64_t mFieldBytes = 0, mImageBytes = 0;
};

/// Writes RGBA8 pixels (row by row from the top) as a PNG; throws with the path on failure.
void writePng(const std::string& path, const std::vector<uint32_t>& rgba, uint32_t width, uint32_t height);

} // namespace vbm::render
