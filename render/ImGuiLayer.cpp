// SPDX-License-Identifier: Apache-2.0
// Dear ImGui for the window (see ImGuiLayer.h).
#include "ImGuiLayer.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

namespace vbm::render {

namespace {

// ImGui's Vulkan backend reports its own calls' results here.
void checkImGuiVk(VkResult r)
{
    if (r != VK_SUCCESS) checkVk(r, "a call in ImGui's Vulkan backend");
}

} // namespace

ImGuiLayer::ImGuiLayer(GLFWwindow* window, VulkanContext& vk, const SwapchainTarget& target) : mVk(vk), mTarget(target)
{
    try {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        mContext = true;
        ImGui::GetIO().IniFilename = nullptr; // no imgui.ini left in the working directory
        ImGui::StyleColorsDark();
        mGlfw = ImGui_ImplGlfw_InitForVulkan(window, true);
        if (!mGlfw) throw VulkanError("ImGui's GLFW backend did not start");
        createDescriptorPool();
        startVulkanBackend();
        uploadFonts();
    } catch (...) {
        shutdown();
        throw;
    }
}

ImGuiLayer::~ImGuiLayer() { shutdown(); }

void ImGuiLayer::shutdown()
{
    // nothing may still draw with ImGui's buffers
    reportVk(vkDeviceWaitIdle(mVk.device()), "vkDeviceWaitIdle (stopping ImGui)");
    if (mVulkan) ImGui_ImplVulkan_Shutdown();
    if (mGlfw) ImGui_ImplGlfw_Shutdown();
    if (mContext) ImGui::DestroyContext();
    if (mPool) vkDestroyDescriptorPool(mVk.device(), mPool, nullptr);
    mVulkan = mGlfw = mContext = false, mPool = VK_NULL_HANDLE;
}

void ImGuiLayer::createDescriptorPool()
{
    // The font texture's descriptor set: ImGui 1.86 allocates one combined image sampler.
    const VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    dpci.maxSets = 4;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &poolSize;
    checkVk(vkCreateDescriptorPool(mVk.device(), &dpci, nullptr, &mPool), "vkCreateDescriptorPool (GUI)");
}

void ImGuiLayer::startVulkanBackend()
{
    ImGui_ImplVulkan_InitInfo info{};
    info.Instance = mVk.instance();
    info.PhysicalDevice = mVk.physicalDevice();
    info.Device = mVk.device();
    info.QueueFamily = mVk.queueFamily();
    info.Queue = mVk.queue();
    info.DescriptorPool = mPool;
    info.MinImageCount = mTarget.swapchain().minImageCount();
    info.ImageCount = mTarget.swapchain().imageCount();
    info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    info.CheckVkResultFn = checkImGuiVk;
    // The render pass outlives swapchain rebuilds (same format), so one init serves the whole run.
    mVulkan = ImGui_ImplVulkan_Init(&info, mTarget.swapchain().renderPass());
    if (!mVulkan) throw VulkanError("ImGui's Vulkan backend did not start");
}

void ImGuiLayer::uploadFonts()
{
    bool uploaded = false;
    mVk.submitAndWait([&](VkCommandBuffer cmd) { uploaded = ImGui_ImplVulkan_CreateFontsTexture(cmd); },
                      "uploading the GUI font");
    ImGui_ImplVulkan_DestroyFontUploadObjects();
    if (!uploaded) throw VulkanError("ImGui's Vulkan backend could not make the font texture");
}

void ImGuiLayer::beginFrame()
{
    ImGui_ImplVulkan_SetMinImageCount(mTarget.swapchain().minImageCount()); // a no-op unless it changed
    ImGui_ImplVulkan_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

void ImGuiLayer::endFrame() { ImGui::Render(); }

void ImGuiLayer::record(VkCommandBuffer cmd) const { ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd); }

} // namespace vbm::render
