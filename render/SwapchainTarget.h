// SPDX-License-Identifier: Apache-2.0
// The window's render target: the volume's pixels are copied into a swapchain image right of a
// column kept for the panels (the rest of the image cleared), an overlay (the GUI) is drawn on top
// in a render pass, and the image is presented. One frame in flight: wait() before touching
// anything the last frame read (the renderer's staging buffer, the command buffer).
#pragma once

#include "RenderTarget.h"
#include "Swapchain.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace vbm::render {

class SwapchainTarget final : public RenderTarget {
public:
    /// `vk` must have been made with a window surface; call fit() before the first frame.
    explicit SwapchainTarget(VulkanContext& vk);
    ~SwapchainTarget() override;
    SwapchainTarget(const SwapchainTarget&) = delete;
    SwapchainTarget& operator=(const SwapchainTarget&) = delete;

    /// Makes the swapchain fit a framebuffer of this size: rebuilt when the size changed or the
    /// last frame found it out of date. True when it was rebuilt.
    bool fit(uint32_t width, uint32_t height);
    /// Pixels at the left edge kept for the overlay (the panel column); the volume fills the rest.
    void setLeftInset(uint32_t pixels) { mLeftInset = pixels; }
    /// Drawn over the volume inside the frame's render pass (the GUI's draw data).
    void setOverlay(std::function<void(VkCommandBuffer)> overlay) { mOverlay = std::move(overlay); }
    const Swapchain& swapchain() const { return mSwapchain; }

    VkExtent2D volumeExtent() const override;
    void wait() override;
    bool frameInFlight() const override { return mSubmitted; }
    VkCommandBuffer beginFrame() override;
    void endFrame(VkBuffer volume, const FieldSync& sync, bool capture) override;
    CapturedImage capturedImage() override;

private:
    bool acquire();
    void ensureVolumeImage(uint32_t width, uint32_t height);
    void destroyVolumeImage();
    void recordVolume(VkBuffer volume);
    void recordCapture();
    void submitAndPresent(const FieldSync& sync);

    VulkanContext& mVk;
    Swapchain mSwapchain;
    bool mStale = false; ///< the last acquire or present found the swapchain out of date or suboptimal
    uint32_t mLeftInset = 0;
    std::function<void(VkCommandBuffer)> mOverlay;
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
