// Volume rendering of one field of the sparse grid: a compute shader ray-marches the NanoVDB
// OnIndex grid and the field (storage buffers) through PNanoVDB and writes RGBA8 pixels.
// Staging path: the host writes the field into host-visible memory each frame and reads the
// image back; the bytes it copies are counted.
#pragma once

#include "VulkanContext.h"

#include <nanovdb/GridHandle.h>
#include <nanovdb/HostBuffer.h>

#include <cstdint>
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

class VolumeRenderer {
public:
    VolumeRenderer(VulkanContext& vk, const nanovdb::GridHandle<nanovdb::HostBuffer>& grid, uint64_t valueCount,
                   uint32_t width, uint32_t height);
    ~VolumeRenderer();
    VolumeRenderer(const VolumeRenderer&) = delete;
    VolumeRenderer& operator=(const VolumeRenderer&) = delete;

    /// Renders `field` (one float per value index) and returns the RGBA8 pixels, row by row from the top.
    const std::vector<uint32_t>& render(const std::vector<float>& field, const OrbitCamera& camera,
                                        const RenderSettings& settings);

    uint32_t width() const { return mWidth; }
    uint32_t height() const { return mHeight; }
    /// Bytes copied between host and renderer memory by the last render (field in, image out).
    uint64_t bytesCopiedLastFrame() const { return mBytesCopied; }
    /// The grid's index-space bounding box.
    const float* boxMin() const { return mBoxMin; }
    const float* boxMax() const { return mBoxMax; }

private:
    VulkanContext& mVk;
    uint32_t mWidth, mHeight;
    uint64_t mValueCount;
    float mBoxMin[3], mBoxMax[3];
    HostBuffer mGrid, mField, mImage;
    VkShaderModule mShader = VK_NULL_HANDLE;
    VkDescriptorSetLayout mSetLayout = VK_NULL_HANDLE;
    VkPipelineLayout mLayout = VK_NULL_HANDLE;
    VkPipeline mPipeline = VK_NULL_HANDLE;
    VkDescriptorPool mPool = VK_NULL_HANDLE;
    VkDescriptorSet mSet = VK_NULL_HANDLE;
    VkCommandBuffer mCmd = VK_NULL_HANDLE;
    VkFence mFence = VK_NULL_HANDLE;
    std::vector<uint32_t> mPixels;
    uint64_t mBytesCopied = 0;
};

/// Writes RGBA8 pixels (row by row from the top) as a PNG; throws with the path on failure.
void writePng(const std::string& path, const std::vector<uint32_t>& rgba, uint32_t width, uint32_t height);

} // namespace vbm::render
