// SPDX-License-Identifier: Apache-2.0
// The offscreen render target: the volume is the whole image, every frame is submitted and
// waited for, and a captured frame is copied into host memory. The headless run, its PNG
// screenshots and the render tests draw here; no window system is involved.
#pragma once

#include "RenderTarget.h"
#include "VulkanContext.h"

namespace vbm::render {

class OffscreenTarget final : public RenderTarget {
public:
    OffscreenTarget(VulkanContext& vk, uint32_t width, uint32_t height);
    ~OffscreenTarget() override;
    OffscreenTarget(const OffscreenTarget&) = delete;
    OffscreenTarget& operator=(const OffscreenTarget&) = delete;

    VkExtent2D volumeExtent() const override { return mExtent; }
    void wait() override {} // endFrame() already waited
    bool frameInFlight() const override { return false; }
    VkCommandBuffer beginFrame() override;
    void endFrame(VkBuffer volume, const FieldSync& sync, bool capture) override;
    CapturedImage capturedImage() override { return mCaptured; }

private:
    void recordCapture(VkBuffer volume);
    void submitAndWait(const FieldSync& sync);

    VulkanContext& mVk;
    VkExtent2D mExtent;
    VkCommandBuffer mCmd = VK_NULL_HANDLE;
    VkFence mFence = VK_NULL_HANDLE;
    Buffer mReadback; ///< host-visible copy of a captured frame, made at the first capture
    CapturedImage mCaptured;
};

} // namespace vbm::render
