// SPDX-License-Identifier: Apache-2.0
// The window's swapchain (see Swapchain.h).
#include "Swapchain.h"

#include <algorithm>

namespace vbm::render {

Swapchain::Swapchain(VulkanContext& vk) : mVk(vk)
{
    if (!vk.surface()) throw VulkanError("Swapchain: the Vulkan context was made without a window surface");
    uint32_t count = 0;
    checkVk(vkGetPhysicalDeviceSurfaceFormatsKHR(vk.physicalDevice(), vk.surface(), &count, nullptr),
            "vkGetPhysicalDeviceSurfaceFormatsKHR");
    std::vector<VkSurfaceFormatKHR> formats(count);
    checkVk(vkGetPhysicalDeviceSurfaceFormatsKHR(vk.physicalDevice(), vk.surface(), &count, formats.data()),
            "vkGetPhysicalDeviceSurfaceFormatsKHR");
    if (formats.empty()) throw VulkanError("the window surface offers no image formats");
    // UNORM, not SRGB: the volume's pixels and ImGui's colours are already gamma-encoded.
    mFormat = formats[0].format, mColorSpace = formats[0].colorSpace;
    for (VkFormat want : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM}) {
        const auto it = std::find_if(formats.begin(), formats.end(), [&](const VkSurfaceFormatKHR& f) {
            return f.format == want && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
        });
        if (it != formats.end()) {
            mFormat = it->format, mColorSpace = it->colorSpace;
            break;
        }
    }
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(vk.physicalDevice(), mFormat, &props);
    if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT))
        throw VulkanError("the window's image format cannot be a blit destination on " + vk.deviceName());

    VkAttachmentDescription color{};
    color.format = mFormat;
    color.samples = VK_SAMPLE_COUNT_1_BIT;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD; // the volume is blitted in before the pass
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    color.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &ref;
    // A screenshot copies the image out right after the pass.
    VkSubpassDependency after{};
    after.srcSubpass = 0;
    after.dstSubpass = VK_SUBPASS_EXTERNAL;
    after.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    after.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    after.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    after.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    rpci.dependencyCount = 1;
    rpci.pDependencies = &after;
    rpci.attachmentCount = 1;
    rpci.pAttachments = &color;
    rpci.subpassCount = 1;
    rpci.pSubpasses = &subpass;
    checkVk(vkCreateRenderPass(vk.device(), &rpci, nullptr, &mRenderPass), "vkCreateRenderPass (window)");
}

Swapchain::~Swapchain()
{
    reportVk(vkDeviceWaitIdle(mVk.device()), "vkDeviceWaitIdle (closing the swapchain)");
    destroyImages();
    if (mSwapchain) vkDestroySwapchainKHR(mVk.device(), mSwapchain, nullptr);
    if (mRenderPass) vkDestroyRenderPass(mVk.device(), mRenderPass, nullptr);
}

void Swapchain::destroyImages()
{
    for (VkFramebuffer f : mFramebuffers)
        vkDestroyFramebuffer(mVk.device(), f, nullptr);
    for (VkImageView v : mViews)
        vkDestroyImageView(mVk.device(), v, nullptr);
    mFramebuffers.clear(), mViews.clear(), mImages.clear();
}

void Swapchain::recreate(uint32_t width, uint32_t height)
{
    checkVk(vkDeviceWaitIdle(mVk.device()), "vkDeviceWaitIdle (recreating the swapchain)");
    VkSurfaceCapabilitiesKHR caps;
    checkVk(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(mVk.physicalDevice(), mVk.surface(), &caps),
            "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT; // blit in, screenshot out
    if ((caps.supportedUsageFlags & usage) != usage)
        throw VulkanError("the window's images cannot be copied to and from on " + mVk.deviceName());
    // The surface decides the size unless it says 0xFFFFFFFF (then the framebuffer's size counts).
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == 0xFFFFFFFFu)
        extent = {std::clamp(width, caps.minImageExtent.width, caps.maxImageExtent.width),
                  std::clamp(height, caps.minImageExtent.height, caps.maxImageExtent.height)};
    uint32_t images = caps.minImageCount + 1;
    if (caps.maxImageCount > 0) images = std::min(images, caps.maxImageCount);

    VkSwapchainCreateInfoKHR sci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    sci.surface = mVk.surface();
    sci.minImageCount = images;
    sci.imageFormat = mFormat;
    sci.imageColorSpace = mColorSpace;
    sci.imageExtent = extent;
    sci.imageArrayLayers = 1;
    sci.imageUsage = usage;
    sci.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    sci.preTransform = (caps.supportedTransforms & VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR)
                           ? VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR
                           : caps.currentTransform;
    sci.compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
                             ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                             : VkCompositeAlphaFlagBitsKHR(caps.supportedCompositeAlpha &
                                                           -caps.supportedCompositeAlpha); // lowest set bit
    sci.presentMode = VK_PRESENT_MODE_FIFO_KHR; // always there; paces the loop to the display
    sci.clipped = VK_TRUE;
    sci.oldSwapchain = mSwapchain;
    VkSwapchainKHR created = VK_NULL_HANDLE;
    checkVk(vkCreateSwapchainKHR(mVk.device(), &sci, nullptr, &created), "vkCreateSwapchainKHR");
    destroyImages();
    if (mSwapchain) vkDestroySwapchainKHR(mVk.device(), mSwapchain, nullptr);
    mSwapchain = created;
    mExtent = extent;
    mMinImageCount = images;

    uint32_t count = 0;
    checkVk(vkGetSwapchainImagesKHR(mVk.device(), mSwapchain, &count, nullptr), "vkGetSwapchainImagesKHR");
    mImages.resize(count);
    checkVk(vkGetSwapchainImagesKHR(mVk.device(), mSwapchain, &count, mImages.data()), "vkGetSwapchainImagesKHR");
    for (VkImage image : mImages) {
        VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vci.image = image;
        vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vci.format = mFormat;
        vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkImageView view = VK_NULL_HANDLE;
        checkVk(vkCreateImageView(mVk.device(), &vci, nullptr, &view), "vkCreateImageView (window)");
        mViews.push_back(view);
        VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
        fci.renderPass = mRenderPass;
        fci.attachmentCount = 1;
        fci.pAttachments = &view;
        fci.width = extent.width;
        fci.height = extent.height;
        fci.layers = 1;
        VkFramebuffer fb = VK_NULL_HANDLE;
        checkVk(vkCreateFramebuffer(mVk.device(), &fci, nullptr, &fb), "vkCreateFramebuffer (window)");
        mFramebuffers.push_back(fb);
    }
}

} // namespace vbm::render
