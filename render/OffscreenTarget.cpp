// SPDX-License-Identifier: Apache-2.0
// The offscreen render target (see OffscreenTarget.h).
#include "OffscreenTarget.h"

#include <cstring>

namespace vbm::render {

OffscreenTarget::OffscreenTarget(VulkanContext& vk, uint32_t width, uint32_t height) : mVk(vk), mExtent{width, height}
{
    if (width == 0 || height == 0) throw VulkanError("render: the image size must be at least 1x1");
    mCmd = vk.allocateCommandBuffer("offscreen frame");
    mFence = vk.createFence("offscreen frame");
}

OffscreenTarget::~OffscreenTarget()
{
    VkDevice d = mVk.device();
    reportVk(vkDeviceWaitIdle(d), "vkDeviceWaitIdle (closing the offscreen target)");
    mVk.destroy(mReadback);
    vkDestroyFence(d, mFence, nullptr);
    vkFreeCommandBuffers(d, mVk.commandPool(), 1, &mCmd);
}

VkCommandBuffer OffscreenTarget::beginFrame()
{
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    checkVk(vkResetCommandBuffer(mCmd, 0), "vkResetCommandBuffer (offscreen frame)");
    checkVk(vkBeginCommandBuffer(mCmd, &begin), "vkBeginCommandBuffer (offscreen frame)");
    return mCmd;
}

void OffscreenTarget::recordCapture(VkBuffer volume)
{
    const VkDeviceSize bytes = VkDeviceSize(mExtent.width) * mExtent.height * 4;
    if (!mReadback.buffer) mReadback = mVk.createHostBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    const VkBufferCopy region{0, 0, bytes};
    vkCmdCopyBuffer(mCmd, volume, mReadback.buffer, 1, &region);
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(mCmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr, 0,
                         nullptr);
}

void OffscreenTarget::submitAndWait(const FieldSync& sync)
{
    const VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    VkTimelineSemaphoreSubmitInfo timeline{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    timeline.waitSemaphoreValueCount = 1;
    timeline.pWaitSemaphoreValues = &sync.waitValue;
    timeline.signalSemaphoreValueCount = 1;
    timeline.pSignalSemaphoreValues = &sync.signalValue;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &mCmd;
    if (sync.semaphore) {
        submit.pNext = &timeline;
        submit.waitSemaphoreCount = 1;
        submit.pWaitSemaphores = &sync.semaphore;
        submit.pWaitDstStageMask = &waitStage;
        submit.signalSemaphoreCount = 1;
        submit.pSignalSemaphores = &sync.semaphore;
    }
    checkVk(vkResetFences(mVk.device(), 1, &mFence), "vkResetFences (offscreen frame)");
    checkVk(vkQueueSubmit(mVk.queue(), 1, &submit, mFence), "vkQueueSubmit (offscreen frame)");
    checkVk(vkWaitForFences(mVk.device(), 1, &mFence, VK_TRUE, UINT64_MAX), "vkWaitForFences (offscreen frame)");
}

void OffscreenTarget::endFrame(VkBuffer volume, const FieldSync& sync, bool capture)
{
    if (capture) recordCapture(volume);
    checkVk(vkEndCommandBuffer(mCmd), "vkEndCommandBuffer (offscreen frame)");
    submitAndWait(sync);
    if (capture) {
        mCaptured.width = mExtent.width, mCaptured.height = mExtent.height;
        mCaptured.pixels.resize(size_t(mExtent.width) * mExtent.height);
        std::memcpy(mCaptured.pixels.data(), mReadback.mapped, mCaptured.pixels.size() * 4);
    }
}

} // namespace vbm::render
