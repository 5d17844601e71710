// SPDX-License-Identifier: Apache-2.0
// The window's render target (see SwapchainTarget.h).
#include "SwapchainTarget.h"

#include <algorithm>
#include <cstring>

namespace vbm::render {

namespace {

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to, VkAccessFlags srcAccess,
                  VkAccessFlags dstAccess, VkPipelineStageFlags srcStage, VkPipelineStageFlags dstStage)
{
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = srcAccess;
    b.dstAccessMask = dstAccess;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cmd, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

} // namespace

SwapchainTarget::SwapchainTarget(VulkanContext& vk) : mVk(vk), mSwapchain(vk)
{
    mCmd = vk.allocateCommandBuffer("window frame");
    mFence = vk.createFence("window frame");
    VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    checkVk(vkCreateSemaphore(vk.device(), &sci, nullptr, &mAcquired), "vkCreateSemaphore (image acquired)");
}

SwapchainTarget::~SwapchainTarget()
{
    reportVk(vkDeviceWaitIdle(mVk.device()), "vkDeviceWaitIdle (closing the window target)");
    destroyVolumeImage();
    mVk.destroy(mShot);
    for (VkSemaphore s : mRendered)
        vkDestroySemaphore(mVk.device(), s, nullptr);
    vkDestroySemaphore(mVk.device(), mAcquired, nullptr);
    vkDestroyFence(mVk.device(), mFence, nullptr);
    vkFreeCommandBuffers(mVk.device(), mVk.commandPool(), 1, &mCmd);
}

bool SwapchainTarget::fit(uint32_t width, uint32_t height)
{
    const VkExtent2D e = mSwapchain.extent();
    if (!mStale && e.width == width && e.height == height) return false;
    mSwapchain.recreate(width, height);
    mStale = false;
    return true;
}

VkExtent2D SwapchainTarget::volumeExtent() const
{
    const VkExtent2D e = mSwapchain.extent();
    const auto atLeast16 = [](int64_t v) { return uint32_t(std::max<int64_t>(v, 16)); };
    return {atLeast16(int64_t(e.width) - int64_t(mLeftInset)), atLeast16(e.height)};
}

void SwapchainTarget::wait()
{
    if (!mSubmitted) return;
    checkVk(vkWaitForFences(mVk.device(), 1, &mFence, VK_TRUE, UINT64_MAX), "vkWaitForFences (window frame)");
    mSubmitted = false;
}

bool SwapchainTarget::acquire()
{
    wait();
    const VkResult r =
        vkAcquireNextImageKHR(mVk.device(), mSwapchain.handle(), UINT64_MAX, mAcquired, VK_NULL_HANDLE, &mImageIndex);
    if (r == VK_ERROR_OUT_OF_DATE_KHR) return false;
    if (r != VK_SUBOPTIMAL_KHR) checkVk(r, "vkAcquireNextImageKHR");
    while (mRendered.size() < mSwapchain.imageCount()) {
        VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VkSemaphore s = VK_NULL_HANDLE;
        checkVk(vkCreateSemaphore(mVk.device(), &sci, nullptr, &s), "vkCreateSemaphore (frame rendered)");
        mRendered.push_back(s);
    }
    return true;
}

VkCommandBuffer SwapchainTarget::beginFrame()
{
    if (!acquire()) {
        mStale = true;
        return VK_NULL_HANDLE;
    }
    checkVk(vkResetFences(mVk.device(), 1, &mFence), "vkResetFences (window frame)");
    checkVk(vkResetCommandBuffer(mCmd, 0), "vkResetCommandBuffer (window frame)");
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    checkVk(vkBeginCommandBuffer(mCmd, &bi), "vkBeginCommandBuffer (window frame)");
    return mCmd;
}

void SwapchainTarget::destroyVolumeImage()
{
    if (mVolume) vkDestroyImage(mVk.device(), mVolume, nullptr);
    if (mVolumeMemory) vkFreeMemory(mVk.device(), mVolumeMemory, nullptr);
    mVolume = VK_NULL_HANDLE, mVolumeMemory = VK_NULL_HANDLE;
    mVolumeWidth = mVolumeHeight = 0;
}

void SwapchainTarget::ensureVolumeImage(uint32_t width, uint32_t height)
{
    if (mVolume && width == mVolumeWidth && height == mVolumeHeight) return;
    destroyVolumeImage(); // the last frame that used it has finished (wait() in acquire())
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = VK_FORMAT_R8G8B8A8_UNORM; // the renderer's words: red in the lowest byte
    ici.extent = {width, height, 1};
    ici.mipLevels = ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    checkVk(vkCreateImage(mVk.device(), &ici, nullptr, &mVolume), "vkCreateImage (volume in the window)");
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(mVk.device(), mVolume, &req);
    // device-local where the device has it, else any type the image accepts
    uint32_t type = mVk.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type == UINT32_MAX) type = mVk.memoryType(req.memoryTypeBits, 0);
    if (type == UINT32_MAX) throw VulkanError("no memory type fits the window's volume image");
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = type;
    checkVk(vkAllocateMemory(mVk.device(), &mai, nullptr, &mVolumeMemory), "vkAllocateMemory (volume image)");
    checkVk(vkBindImageMemory(mVk.device(), mVolume, mVolumeMemory, 0), "vkBindImageMemory (volume image)");
    mVolumeWidth = width, mVolumeHeight = height;
}

void SwapchainTarget::recordVolume(VkBuffer volume)
{
    const auto [width, height] = volumeExtent();
    const int32_t x = int32_t(mLeftInset), y = 0;
    ensureVolumeImage(width, height);
    const VkImage target = mSwapchain.image(mImageIndex);
    const VkExtent2D extent = mSwapchain.extent();
    // The acquire semaphore is waited for at the transfer stage, so these transitions follow it.
    imageBarrier(mCmd, mVolume, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    imageBarrier(mCmd, target, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {width, height, 1};
    vkCmdCopyBufferToImage(mCmd, volume, mVolume, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    imageBarrier(mCmd, mVolume, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT);

    const VkClearColorValue background{{0.06f, 0.06f, 0.07f, 1.f}};
    const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(mCmd, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &background, 1, &all);
    imageBarrier(mCmd, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT);
    // The part of the volume that lies inside the window (a blit converts RGBA to the window's format).
    const int32_t x1 = std::min<int32_t>(x + int32_t(width), int32_t(extent.width));
    const int32_t y1 = std::min<int32_t>(y + int32_t(height), int32_t(extent.height));
    if (x1 > x && y1 > y) {
        VkImageBlit blit{};
        blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        blit.srcOffsets[1] = {x1 - x, y1 - y, 1};
        blit.dstOffsets[0] = {x, y, 0};
        blit.dstOffsets[1] = {x1, y1, 1};
        vkCmdBlitImage(mCmd, mVolume, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
    }
    imageBarrier(mCmd, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                 VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
}

void SwapchainTarget::recordCapture()
{
    const VkExtent2D extent = mSwapchain.extent();
    const VkDeviceSize bytes = VkDeviceSize(extent.width) * extent.height * 4;
    if (mShot.size != bytes) {
        mVk.destroy(mShot);
        mShot = mVk.createHostBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    }
    const VkImage image = mSwapchain.image(mImageIndex);
    imageBarrier(mCmd, image, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                 VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {extent.width, extent.height, 1};
    vkCmdCopyImageToBuffer(mCmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, mShot.buffer, 1, &copy);
    imageBarrier(mCmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                 VK_ACCESS_TRANSFER_READ_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(mCmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr, 0,
                         nullptr);
    mShotExtent = extent;
    mShotBgra = mSwapchain.bgra();
}

void SwapchainTarget::endFrame(VkBuffer volume, const FieldSync& sync, bool capture)
{
    recordVolume(volume);
    VkRenderPassBeginInfo rbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    rbi.renderPass = mSwapchain.renderPass();
    rbi.framebuffer = mSwapchain.framebuffer(mImageIndex);
    rbi.renderArea.extent = mSwapchain.extent();
    vkCmdBeginRenderPass(mCmd, &rbi, VK_SUBPASS_CONTENTS_INLINE);
    if (mOverlay) mOverlay(mCmd);
    vkCmdEndRenderPass(mCmd);
    if (capture) recordCapture();
    checkVk(vkEndCommandBuffer(mCmd), "vkEndCommandBuffer (window frame)");
    submitAndPresent(sync);
}

void SwapchainTarget::submitAndPresent(const FieldSync& sync)
{
    // Binary semaphores take the value 0 in the timeline lists; they are ignored there.
    VkSemaphore waits[2] = {mAcquired, sync.semaphore};
    const VkPipelineStageFlags stages[2] = {VK_PIPELINE_STAGE_TRANSFER_BIT |
                                                VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT};
    const uint64_t waitValues[2] = {0, sync.waitValue};
    VkSemaphore signals[2] = {mRendered[mImageIndex], sync.semaphore};
    const uint64_t signalValues[2] = {0, sync.signalValue};
    const uint32_t n = sync.semaphore ? 2 : 1;
    VkTimelineSemaphoreSubmitInfo timeline{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    timeline.waitSemaphoreValueCount = n;
    timeline.pWaitSemaphoreValues = waitValues;
    timeline.signalSemaphoreValueCount = n;
    timeline.pSignalSemaphoreValues = signalValues;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    if (sync.semaphore) submit.pNext = &timeline;
    submit.waitSemaphoreCount = n;
    submit.pWaitSemaphores = waits;
    submit.pWaitDstStageMask = stages;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &mCmd;
    submit.signalSemaphoreCount = n;
    submit.pSignalSemaphores = signals;
    checkVk(vkQueueSubmit(mVk.queue(), 1, &submit, mFence), "vkQueueSubmit (window frame)");
    mSubmitted = true;

    VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    present.waitSemaphoreCount = 1;
    present.pWaitSemaphores = &mRendered[mImageIndex];
    const VkSwapchainKHR swapchain = mSwapchain.handle();
    present.swapchainCount = 1;
    present.pSwapchains = &swapchain;
    present.pImageIndices = &mImageIndex;
    const VkResult r = vkQueuePresentKHR(mVk.queue(), &present);
    if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
        mStale = true; // rebuilt by the next fit()
        return;
    }
    checkVk(r, "vkQueuePresentKHR");
}

CapturedImage SwapchainTarget::capturedImage()
{
    wait();
    CapturedImage image{mShotExtent.width, mShotExtent.height, {}};
    image.pixels.resize(size_t(mShotExtent.width) * mShotExtent.height);
    if (image.pixels.empty()) return image;
    std::memcpy(image.pixels.data(), mShot.mapped, image.pixels.size() * 4);
    for (uint32_t& p : image.pixels) {
        if (mShotBgra) p = (p & 0xFF00FF00u) | ((p >> 16) & 0xFFu) | ((p & 0xFFu) << 16);
        p |= 0xFF000000u; // the window is opaque
    }
    return image;
}

} // namespace vbm::render
