// The Vulkan instance, device and compute queue the renderer runs on, with checked calls and
// the validation layer on request. Offscreen only: no window system, no swapchain.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace vbm::render {

/// A failed Vulkan call: one line naming it and what to check.
struct VulkanError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void checkVk(VkResult result, const char* what);

/// A buffer in host-visible, host-coherent memory (the staging path: the host writes and reads it directly).
struct HostBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
    VkDeviceSize size = 0;
};

class VulkanContext {
public:
    /// validation: enable VK_LAYER_KHRONOS_validation and count its errors (also when the
    /// environment sets VBM_VULKAN_VALIDATION=1).
    explicit VulkanContext(bool validation);
    ~VulkanContext();
    VulkanContext(const VulkanContext&) = delete;
    VulkanContext& operator=(const VulkanContext&) = delete;

    VkDevice device() const { return mDevice; }
    VkQueue queue() const { return mQueue; }
    VkCommandPool commandPool() const { return mPool; }
    const std::string& deviceName() const { return mDeviceName; }
    bool validation() const { return mValidation; }
    /// Validation errors reported so far.
    int validationErrors() const { return mErrors.load(); }

    HostBuffer createHostBuffer(VkDeviceSize size, VkBufferUsageFlags usage);
    void destroy(HostBuffer& b);

private:
    static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                    VkDebugUtilsMessageTypeFlagsEXT type,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* self);

    VkInstance mInstance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT mMessenger = VK_NULL_HANDLE;
    VkPhysicalDevice mPhysical = VK_NULL_HANDLE;
    VkDevice mDevice = VK_NULL_HANDLE;
    VkQueue mQueue = VK_NULL_HANDLE;
    VkCommandPool mPool = VK_NULL_HANDLE;
    uint32_t mQueueFamily = 0;
    std::string mDeviceName;
    bool mValidation = false;
    std::atomic<int> mErrors{0};
};

} // namespace vbm::render
