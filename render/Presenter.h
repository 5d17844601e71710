// One frame in the window: the volume renderer's pixels are copied into a swapchain image (the
// rest of the image cleared), an overlay (the GUI) is drawn on top in a render pass, and the
// image is presented. One frame in flight: wait() before touching anything the last frame read
// (the renderer's staging buffer, the command buffer).
#pragma once

#include "Swapchain.h"
#include "VolumeRenderer.h"

#include <cstdint>
#include <vector>

namespace vbm::render {

class Presenter {
public:
    Presenter(VulkanContext& vk, Swapchain& swapchain);
    ~Presenter();
    Presenter(const Presenter&) = delete;
    Presenter& operator=(const Presenter&) = delete;

    /// Waits until the last submitted frame has finished on the GPU.
    void wait();
    /// Acquires the next swapchain image; false when the swapchain is out of date (recreate it
    /// and skip the frame: nothing was recorded).
    bool acquire();
    /// Starts recording: the renderer records its ray march into the returned command buffer
    /// (its image buffer is then ready for a transfer read).
    VkCommandBuffer begin();
    /// Copies `volume` (RGBA8 words, `width` x `height`, rows from the top) into the acquired
    /// image at (x, y), clears the rest, and begins the render pass for the overlay.
    void drawVolume(VkBuffer volume, uint32_t width, uint32_t height, int32_t x, int32_t y);
    /// Ends the render pass; with `screenshot`, also copies the finished image to the host
    /// (available from screenshot() after the next wait()).
    void end(bool screenshot);
    /// Submits, honouring the renderer's field sync, and presents. False when the swapchain
    /// is out of date or suboptimal (recreate it before the next frame).
    bool submitAndPresent(const FieldSync& sync);
    /// The window's pixels of the last frame that asked for them, RGBA8, rows from the top.
    std::vector<uint32_t> screenshot() const;
    VkExtent2D screenshotExtent() const { return mShotExtent; }

private:
    void ensureVolumeImage(uint32_t width, uint32_t height);
    void destroyVolumeImage();

    VulkanContext& mVk;
    Swapchain& mSwapchain;
    VkCommandBuffer mCmd = VK_NULL_HANDLE;
    VkFence mFence = VK_NULL_HANDLE;
    bool mSubmitted = false;
    VkSemaphore mAcquired = VK_NULL_HANDLE;
    std::vector<VkSemaphore> mRendered; ///< one per swapchain image: presentation may hold it
    uint32_t mImageIndex = 0;
    // The volume as an image (RGBA8), so a blit converts it to the window's format.
    VkImage mVolume = VK_NULL_HANDLE;
    VkDeviceMemory mVolumeMemory = VK_NULL_HANDLE;
    uint32_t mVolumeWidth = 0, mVolumeHeight = 0;
    Buffer mShot;
    VkExtent2D mShotExtent{0, 0};
    bool mShotBgra = false;
};

} // namespace vbm::render
