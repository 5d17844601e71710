// SPDX-License-Identifier: Apache-2.0
// The window's swapchain: its images, a render pass that draws on top of what is already in an
// image (the GUI over the volume) and one framebuffer per image. Recreated when the window
// changes size.
#pragma once

#include "VulkanContext.h"

#include <vector>

namespace vbm::render {

class Swapchain {
public:
    /// Picks an 8-bit UNORM format (the renderer's pixels are gamma-encoded already) and the
    /// render pass; call recreate() before the first frame.
    explicit Swapchain(VulkanContext& vk);
    ~Swapchain();
    Swapchain(const Swapchain&) = delete;
    Swapchain& operator=(const Swapchain&) = delete;

    /// Builds the swapchain for a framebuffer of this size (waits for the device first).
    void recreate(uint32_t width, uint32_t height);

    VkSwapchainKHR handle() const { return mSwapchain; }
    VkFormat format() const { return mFormat; }
    /// Whether the format stores blue in the first byte (BGRA), so read-backs must swap.
    bool bgra() const { return mFormat == VK_FORMAT_B8G8R8A8_UNORM || mFormat == VK_FORMAT_B8G8R8A8_SRGB; }
    VkExtent2D extent() const { return mExtent; }
    uint32_t minImageCount() const { return mMinImageCount; }
    uint32_t imageCount() const { return uint32_t(mImages.size()); }
    VkImage image(uint32_t i) const { return mImages[i]; }
    VkFramebuffer framebuffer(uint32_t i) const { return mFramebuffers[i]; }
    /// Loads the image's contents (layout COLOR_ATTACHMENT_OPTIMAL), leaves it ready to present.
    VkRenderPass renderPass() const { return mRenderPass; }

private:
    void destroyImages();

    VulkanContext& mVk;
    VkFormat mFormat = VK_FORMAT_UNDEFINED;
    VkColorSpaceKHR mColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    VkSwapchainKHR mSwapchain = VK_NULL_HANDLE;
    VkRenderPass mRenderPass = VK_NULL_HANDLE;
    VkExtent2D mExtent{0, 0};
    uint32_t mMinImageCount = 2;
    std::vector<VkImage> mImages;
    std::vector<VkImageView> mViews;
    std::vector<VkFramebuffer> mFramebuffers;
};

} // namespace vbm::render
