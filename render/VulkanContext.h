// SPDX-License-Identifier: Apache-2.0
// The Vulkan instance, device and queue the renderer (and the GUI) run on, with checked calls,
// the validation layer on request, and the pieces CUDA interop needs: buffers whose memory is
// exported as a file descriptor, an exportable timeline semaphore, the device's UUID.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace vbm::render {

/// A failed Vulkan call: one line naming it and what to check.
struct VulkanError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Throws VulkanError naming `what` unless `result` is VK_SUCCESS.
void checkVk(VkResult result, const char* what);
/// For destructors, which must not throw: a failed call is reported in one line on stderr.
void reportVk(VkResult result, const char* what) noexcept;

using DeviceUuid = std::array<uint8_t, VK_UUID_SIZE>;

/// A buffer and its memory. `mapped` is set for host-visible buffers; `exportable` buffers are
/// dedicated allocations whose memory can be handed to CUDA as a file descriptor.
struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
    VkDeviceSize size = 0;           ///< what was asked for
    VkDeviceSize allocationSize = 0; ///< what the driver allocated (CUDA imports this size)
};

struct VulkanOptions {
    bool validation = false; ///< VK_LAYER_KHRONOS_validation, errors counted (also VBM_VULKAN_VALIDATION=1)
    /// Prefer the physical device with this UUID (the CUDA device), when there is one.
    std::optional<DeviceUuid> preferredDevice;
    /// Window system: instance extensions to enable, and a function that makes the surface the
    /// queue must present to (called once the instance exists). Empty for offscreen use.
    std::vector<const char*> instanceExtensions;
    std::function<VkSurfaceKHR(VkInstance)> makeSurface;
};

class VulkanContext {
public:
    explicit VulkanContext(const VulkanOptions& options);
    explicit VulkanContext(bool validation) : VulkanContext(VulkanOptions{validation, {}, {}, {}}) {}
    ~VulkanContext();
    VulkanContext(const VulkanContext&) = delete;
    VulkanContext& operator=(const VulkanContext&) = delete;

    VkInstance instance() const { return mInstance; }
    VkPhysicalDevice physicalDevice() const { return mPhysical; }
    VkDevice device() const { return mDevice; }
    VkQueue queue() const { return mQueue; }
    uint32_t queueFamily() const { return mQueueFamily; }
    VkCommandPool commandPool() const { return mPool; }
    /// The window surface when VulkanOptions::makeSurface was given (owned by the context).
    VkSurfaceKHR surface() const { return mSurface; }
    const std::string& deviceName() const { return mDeviceName; }
    /// A CPU implementation (Mesa's lavapipe): the renderer then defaults to fewer rays.
    bool cpuDevice() const { return mCpuDevice; }
    /// Nanoseconds per timestamp tick, and the queue's valid timestamp bits (0: no timestamps).
    float timestampPeriodNs() const { return mTimestampPeriod; }
    uint32_t timestampValidBits() const { return mTimestampBits; }
    const DeviceUuid& deviceUuid() const { return mUuid; }
    bool validation() const { return mValidation; }
    /// Validation errors reported so far.
    int validationErrors() const { return mErrors.load(); }
    /// Whether the device can share memory and a timeline semaphore with CUDA (external memory
    /// and semaphore file descriptors, timeline semaphores), and if not, why.
    bool canExportToCuda() const { return mExportWhyNot.empty(); }
    const std::string& exportWhyNot() const { return mExportWhyNot; }

    /// The first memory type among `typeBits` with all of `want`, or UINT32_MAX if none.
    uint32_t memoryType(uint32_t typeBits, VkMemoryPropertyFlags want) const;
    Buffer createHostBuffer(VkDeviceSize size, VkBufferUsageFlags usage);
    /// Device-local memory (host-visible too where the device has nothing else, as on lavapipe).
    Buffer createDeviceBuffer(VkDeviceSize size, VkBufferUsageFlags usage, bool exportable = false);
    /// A file descriptor for an exportable buffer's memory; whoever imports it owns it.
    int exportMemoryFd(const Buffer& b);
    /// A timeline semaphore starting at 0, exportable when asked.
    VkSemaphore createTimelineSemaphore(bool exportable);
    int exportSemaphoreFd(VkSemaphore s);
    /// Copies host bytes into a buffer at `offset` once (through a temporary staging buffer),
    /// waiting for it.
    void upload(const Buffer& dst, const void* data, VkDeviceSize size, VkDeviceSize offset = 0);
    /// A primary command buffer from the context's pool; `what` names it in errors.
    VkCommandBuffer allocateCommandBuffer(const char* what);
    /// An unsignalled fence; `what` names it in errors.
    VkFence createFence(const char* what);
    /// Records, submits and waits for a one-time command buffer.
    void submitAndWait(const std::function<void(VkCommandBuffer)>& record, const char* what);
    void destroy(Buffer& b);

private:
    static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                    VkDebugUtilsMessageTypeFlagsEXT type,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* self);
    Buffer createBuffer(VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags want, bool exportable);
    /// A queue family that can compute (and present to the surface, when there is one).
    struct QueueFamily {
        uint32_t index = 0;
        uint32_t timestampValidBits = 0;
    };
    std::optional<QueueFamily> queueFamilyFor(VkPhysicalDevice device) const;
    void createInstance(const VulkanOptions& options);
    void pickPhysicalDevice(const VulkanOptions& options);
    /// The device and queue, with what interop needs enabled where the device has it.
    void createDevice();
    /// Destroys what exists, newest first (also after a failed construction).
    void release();

    VkInstance mInstance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT mMessenger = VK_NULL_HANDLE;
    VkSurfaceKHR mSurface = VK_NULL_HANDLE;
    VkPhysicalDevice mPhysical = VK_NULL_HANDLE;
    VkDevice mDevice = VK_NULL_HANDLE;
    VkQueue mQueue = VK_NULL_HANDLE;
    VkCommandPool mPool = VK_NULL_HANDLE;
    uint32_t mQueueFamily = 0;
    std::string mDeviceName;
    bool mCpuDevice = false;
    float mTimestampPeriod = 1;
    uint32_t mTimestampBits = 0;
    DeviceUuid mUuid{};
    std::string mExportWhyNot = "not checked";
    bool mValidation = false;
    std::atomic<int> mErrors{0};
    PFN_vkGetMemoryFdKHR mGetMemoryFd = nullptr;
    PFN_vkGetSemaphoreFdKHR mGetSemaphoreFd = nullptr;
};

} // namespace vbm::render
