// SPDX-License-Identifier: Apache-2.0
// Dear ImGui for the window: its context, the GLFW backend (keys and mouse), the Vulkan backend
// (drawing into the swapchain target's render pass), the descriptor pool its font texture lives
// in, and the font upload. The app builds its panels between beginFrame() and endFrame(); the
// target draws them over the volume through record().
#pragma once

#include "SwapchainTarget.h"
#include "VulkanContext.h"

struct GLFWwindow;

namespace vbm::render {

class ImGuiLayer {
public:
    /// Starts ImGui on `window` (input callbacks installed) for frames drawn into `target`.
    ImGuiLayer(GLFWwindow* window, VulkanContext& vk, const SwapchainTarget& target);
    ~ImGuiLayer();
    ImGuiLayer(const ImGuiLayer&) = delete;
    ImGuiLayer& operator=(const ImGuiLayer&) = delete;

    /// Starts an ImGui frame; follows the swapchain's image count if it was rebuilt.
    void beginFrame();
    /// Ends it: the panels built since beginFrame() become the draw data record() draws.
    void endFrame();
    /// Records the last frame's draw data into `cmd`, inside the target's render pass.
    void record(VkCommandBuffer cmd) const;

private:
    void createDescriptorPool();
    void startVulkanBackend();
    void uploadFonts();
    void shutdown();

    VulkanContext& mVk;
    const SwapchainTarget& mTarget;
    VkDescriptorPool mPool = VK_NULL_HANDLE;
    bool mContext = false, mGlfw = false, mVulkan = false; ///< what has started, for shutdown()
};

} // namespace vbm::render
