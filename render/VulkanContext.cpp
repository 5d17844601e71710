// SPDX-License-Identifier: Apache-2.0
// The Vulkan instance, device and queue (see VulkanContext.h).
#include "VulkanContext.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace vbm::render {

void checkVk(VkResult result, const char* what)
{
    if (result == VK_SUCCESS) return;
    std::string hint;
    switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        hint = " (out of memory: use a smaller scene or image)";
        break;
    case VK_ERROR_INCOMPATIBLE_DRIVER:
    case VK_ERROR_INITIALIZATION_FAILED:
        hint = " (no usable Vulkan driver: install one, e.g. Debian's mesa-vulkan-drivers, or use --render none)";
        break;
    case VK_ERROR_LAYER_NOT_PRESENT:
        hint = " (the validation layer is missing: install vulkan-validationlayers)";
        break;
    default:
        break;
    }
    throw VulkanError(std::string("Vulkan ") + what + " failed with VkResult " + std::to_string(int(result)) + hint);
}

void reportVk(VkResult result, const char* what) noexcept
{
    if (result != VK_SUCCESS) std::fprintf(stderr, "vbm-fluid: Vulkan %s failed with VkResult %d\n", what, int(result));
}

VKAPI_ATTR VkBool32 VKAPI_CALL VulkanContext::onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                        VkDebugUtilsMessageTypeFlagsEXT,
                                                        const VkDebugUtilsMessengerCallbackDataEXT* data, void* self)
{
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
        static_cast<VulkanContext*>(self)->mErrors++;
        std::fprintf(stderr, "vbm-fluid: Vulkan validation error: %s\n", data->pMessage);
    } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        std::fprintf(stderr, "vbm-fluid: Vulkan validation warning: %s\n", data->pMessage);
    }
    return VK_FALSE;
}

namespace {

bool hasExtension(const std::vector<VkExtensionProperties>& all, const char* name)
{
    for (const auto& e : all)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

std::vector<VkExtensionProperties> deviceExtensions(VkPhysicalDevice d)
{
    uint32_t n = 0;
    checkVk(vkEnumerateDeviceExtensionProperties(d, nullptr, &n, nullptr), "vkEnumerateDeviceExtensionProperties");
    std::vector<VkExtensionProperties> all(n);
    checkVk(vkEnumerateDeviceExtensionProperties(d, nullptr, &n, all.data()), "vkEnumerateDeviceExtensionProperties");
    return all;
}

} // namespace

VulkanContext::VulkanContext(const VulkanOptions& options)
{
    const char* env = std::getenv("VBM_VULKAN_VALIDATION");
    mValidation = options.validation || (env && std::strcmp(env, "1") == 0);
    try {
        createInstance(options);
        if (options.makeSurface) mSurface = options.makeSurface(mInstance);
        pickPhysicalDevice(options);
        createDevice();
    } catch (...) {
        release(); // a constructor that throws runs no destructor
        throw;
    }
}

void VulkanContext::createInstance(const VulkanOptions& options)
{
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vbm-fluid";
    app.apiVersion = VK_API_VERSION_1_2;
    std::vector<const char*> layers, extensions = options.instanceExtensions;
    if (mValidation) {
        layers.push_back("VK_LAYER_KHRONOS_validation");
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }
    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger.pfnUserCallback = &VulkanContext::onMessage;
    messenger.pUserData = this;

    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    ici.enabledLayerCount = uint32_t(layers.size());
    ici.ppEnabledLayerNames = layers.data();
    ici.enabledExtensionCount = uint32_t(extensions.size());
    ici.ppEnabledExtensionNames = extensions.data();
    if (mValidation) ici.pNext = &messenger; // also reports on vkCreateInstance itself
    checkVk(vkCreateInstance(&ici, nullptr, &mInstance), "vkCreateInstance");
    if (mValidation) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(mInstance, "vkCreateDebugUtilsMessengerEXT"));
        if (create) checkVk(create(mInstance, &messenger, nullptr, &mMessenger), "vkCreateDebugUtilsMessengerEXT");
    }
}

// Device: the preferred one (CUDA's) if present, else a discrete or integrated GPU, else a CPU
// implementation (lavapipe); its queue family must compute (and present, with a surface).
void VulkanContext::pickPhysicalDevice(const VulkanOptions& options)
{
    uint32_t count = 0;
    checkVk(vkEnumeratePhysicalDevices(mInstance, &count, nullptr), "vkEnumeratePhysicalDevices");
    if (count == 0)
        throw VulkanError("no Vulkan device found (install a driver, e.g. mesa-vulkan-drivers, or use --render none)");
    std::vector<VkPhysicalDevice> devices(count);
    checkVk(vkEnumeratePhysicalDevices(mInstance, &count, devices.data()), "vkEnumeratePhysicalDevices");
    int best = -1;
    for (VkPhysicalDevice device : devices) {
        VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
        VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        p2.pNext = &id;
        vkGetPhysicalDeviceProperties2(device, &p2);
        const VkPhysicalDeviceProperties& p = p2.properties;
        if (p.apiVersion < VK_API_VERSION_1_2) continue;
        DeviceUuid uuid;
        std::memcpy(uuid.data(), id.deviceUUID, VK_UUID_SIZE);
        int rank = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU     ? 3
                   : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? 2
                                                                            : 1;
        if (options.preferredDevice && *options.preferredDevice == uuid) rank = 10;
        const auto family = queueFamilyFor(device);
        if (family && rank > best) {
            best = rank;
            mPhysical = device;
            mQueueFamily = family->index;
            mDeviceName = p.deviceName;
            mCpuDevice = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
            mUuid = uuid;
            mTimestampPeriod = p.limits.timestampPeriod;
            mTimestampBits = family->timestampValidBits;
        }
    }
    if (!mPhysical)
        throw VulkanError(mSurface ? "no Vulkan 1.2 device can compute and present to the window"
                                   : "no Vulkan 1.2 device with a compute queue found (or use --render none)");
}

std::optional<VulkanContext::QueueFamily> VulkanContext::queueFamilyFor(VkPhysicalDevice device) const
{
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &families, nullptr);
    std::vector<VkQueueFamilyProperties> fam(families);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &families, fam.data());
    int familyRank = -1;
    QueueFamily out;
    for (uint32_t f = 0; f < families; ++f) {
        if (!(fam[f].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
        if (mSurface) {
            VkBool32 present = VK_FALSE;
            checkVk(vkGetPhysicalDeviceSurfaceSupportKHR(device, f, mSurface, &present),
                    "vkGetPhysicalDeviceSurfaceSupportKHR");
            if (!present || !(fam[f].queueFlags & VK_QUEUE_GRAPHICS_BIT)) continue;
        }
        // graphics+compute families first: the GUI draws its panels on the same queue
        const int r = (fam[f].queueFlags & VK_QUEUE_GRAPHICS_BIT) ? 1 : 0;
        if (r > familyRank) familyRank = r, out = {f, fam[f].timestampValidBits};
    }
    if (familyRank < 0) return std::nullopt;
    return out;
}

void VulkanContext::createDevice()
{
    // Interop needs external memory and semaphore file descriptors and timeline semaphores.
    const auto available = deviceExtensions(mPhysical);
    std::vector<const char*> enable;
    if (mSurface) {
        if (!hasExtension(available, VK_KHR_SWAPCHAIN_EXTENSION_NAME))
            throw VulkanError("the Vulkan device " + mDeviceName + " has no swapchain support");
        enable.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
    }
    VkPhysicalDeviceVulkan12Features have12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    have.pNext = &have12;
    vkGetPhysicalDeviceFeatures2(mPhysical, &have);
    mExportWhyNot.clear();
    for (const char* e : {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME})
        if (!hasExtension(available, e)) mExportWhyNot += std::string(mExportWhyNot.empty() ? "" : ", ") + "no " + e;
    if (!have12.timelineSemaphore)
        mExportWhyNot += std::string(mExportWhyNot.empty() ? "" : ", ") + "no timeline semaphores";
    if (canExportToCuda()) {
        enable.push_back(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
        enable.push_back(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
    }
    VkPhysicalDeviceVulkan12Features want12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    want12.timelineSemaphore = have12.timelineSemaphore;

    const float priority = 1.f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = mQueueFamily;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &want12;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = uint32_t(enable.size());
    dci.ppEnabledExtensionNames = enable.data();
    checkVk(vkCreateDevice(mPhysical, &dci, nullptr, &mDevice), "vkCreateDevice");
    vkGetDeviceQueue(mDevice, mQueueFamily, 0, &mQueue);
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = mQueueFamily;
    checkVk(vkCreateCommandPool(mDevice, &pci, nullptr, &mPool), "vkCreateCommandPool");
    if (canExportToCuda()) {
        mGetMemoryFd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(mDevice, "vkGetMemoryFdKHR"));
        mGetSemaphoreFd =
            reinterpret_cast<PFN_vkGetSemaphoreFdKHR>(vkGetDeviceProcAddr(mDevice, "vkGetSemaphoreFdKHR"));
        if (!mGetMemoryFd || !mGetSemaphoreFd) mExportWhyNot = "the driver does not expose vkGetMemoryFdKHR";
    }
}

VulkanContext::~VulkanContext() { release(); }

void VulkanContext::release()
{
    if (mDevice) {
        reportVk(vkDeviceWaitIdle(mDevice), "vkDeviceWaitIdle (closing the device)");
        vkDestroyCommandPool(mDevice, mPool, nullptr);
        vkDestroyDevice(mDevice, nullptr);
    }
    if (mSurface) vkDestroySurfaceKHR(mInstance, mSurface, nullptr);
    if (mMessenger) {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(mInstance, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy) destroy(mInstance, mMessenger, nullptr);
    }
    if (mInstance) vkDestroyInstance(mInstance, nullptr);
}

Buffer VulkanContext::createBuffer(VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags want,
                                   bool exportable)
{
    if (exportable && !canExportToCuda())
        throw VulkanError("cannot export Vulkan memory to CUDA on " + mDeviceName + ": " + mExportWhyNot);
    Buffer b;
    b.size = size;
    VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    if (exportable) bci.pNext = &external;
    bci.size = size;
    bci.usage = usage;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    checkVk(vkCreateBuffer(mDevice, &bci, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(mDevice, b.buffer, &req);
    const uint32_t type = memoryType(req.memoryTypeBits, want);
    if (type == UINT32_MAX) {
        vkDestroyBuffer(mDevice, b.buffer, nullptr);
        throw VulkanError("no suitable Vulkan memory type for a " + std::to_string(size) + "-byte buffer");
    }
    VkMemoryDedicatedAllocateInfo dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
    dedicated.buffer = b.buffer;
    VkExportMemoryAllocateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
    exportInfo.pNext = &dedicated;
    exportInfo.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    if (exportable) mai.pNext = &exportInfo;
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = type;
    b.allocationSize = req.size;
    const VkResult r = vkAllocateMemory(mDevice, &mai, nullptr, &b.memory);
    if (r != VK_SUCCESS) vkDestroyBuffer(mDevice, b.buffer, nullptr);
    checkVk(r, ("vkAllocateMemory of " + std::to_string(req.size) + " bytes").c_str());
    checkVk(vkBindBufferMemory(mDevice, b.buffer, b.memory, 0), "vkBindBufferMemory");
    if (want & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
        checkVk(vkMapMemory(mDevice, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    return b;
}

uint32_t VulkanContext::memoryType(uint32_t typeBits, VkMemoryPropertyFlags want) const
{
    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(mPhysical, &mem);
    for (uint32_t i = 0; i < mem.memoryTypeCount; ++i)
        if ((typeBits & (1u << i)) && (mem.memoryTypes[i].propertyFlags & want) == want) return i;
    return UINT32_MAX;
}

Buffer VulkanContext::createHostBuffer(VkDeviceSize size, VkBufferUsageFlags usage)
{
    return createBuffer(size, usage, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, false);
}

Buffer VulkanContext::createDeviceBuffer(VkDeviceSize size, VkBufferUsageFlags usage, bool exportable)
{
    return createBuffer(size, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, exportable);
}

int VulkanContext::exportMemoryFd(const Buffer& b)
{
    VkMemoryGetFdInfoKHR info{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
    info.memory = b.memory;
    info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    int fd = -1;
    if (!mGetMemoryFd) throw VulkanError("vkGetMemoryFdKHR is not available: " + mExportWhyNot);
    checkVk(mGetMemoryFd(mDevice, &info, &fd), "vkGetMemoryFdKHR");
    return fd;
}

VkSemaphore VulkanContext::createTimelineSemaphore(bool exportable)
{
    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    type.initialValue = 0;
    VkExportSemaphoreCreateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO};
    exportInfo.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    if (exportable) type.pNext = &exportInfo;
    VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    sci.pNext = &type;
    VkSemaphore s = VK_NULL_HANDLE;
    checkVk(vkCreateSemaphore(mDevice, &sci, nullptr, &s), "vkCreateSemaphore (timeline)");
    return s;
}

int VulkanContext::exportSemaphoreFd(VkSemaphore s)
{
    VkSemaphoreGetFdInfoKHR info{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
    info.semaphore = s;
    info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    int fd = -1;
    if (!mGetSemaphoreFd) throw VulkanError("vkGetSemaphoreFdKHR is not available: " + mExportWhyNot);
    checkVk(mGetSemaphoreFd(mDevice, &info, &fd), "vkGetSemaphoreFdKHR");
    return fd;
}

VkCommandBuffer VulkanContext::allocateCommandBuffer(const char* what)
{
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = mPool;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    checkVk(vkAllocateCommandBuffers(mDevice, &cbai, &cmd),
            (std::string("vkAllocateCommandBuffers (") + what + ")").c_str());
    return cmd;
}

VkFence VulkanContext::createFence(const char* what)
{
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    checkVk(vkCreateFence(mDevice, &fci, nullptr, &fence), (std::string("vkCreateFence (") + what + ")").c_str());
    return fence;
}

void VulkanContext::submitAndWait(const std::function<void(VkCommandBuffer)>& record, const char* what)
{
    VkCommandBuffer cmd = allocateCommandBuffer(what);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    checkVk(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    record(cmd);
    checkVk(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    checkVk(vkQueueSubmit(mQueue, 1, &submit, VK_NULL_HANDLE), what);
    checkVk(vkQueueWaitIdle(mQueue), what);
    vkFreeCommandBuffers(mDevice, mPool, 1, &cmd);
}

void VulkanContext::upload(const Buffer& dst, const void* data, VkDeviceSize size, VkDeviceSize offset)
{
    if (dst.mapped) {
        std::memcpy(static_cast<char*>(dst.mapped) + offset, data, size);
        return;
    }
    Buffer staging = createHostBuffer(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(staging.mapped, data, size);
    submitAndWait(
        [&](VkCommandBuffer cmd) {
            const VkBufferCopy region{0, offset, size};
            vkCmdCopyBuffer(cmd, staging.buffer, dst.buffer, 1, &region);
        },
        "the upload of a buffer");
    destroy(staging);
}

void VulkanContext::destroy(Buffer& b)
{
    if (b.mapped) vkUnmapMemory(mDevice, b.memory);
    if (b.memory) vkFreeMemory(mDevice, b.memory, nullptr);
    if (b.buffer) vkDestroyBuffer(mDevice, b.buffer, nullptr);
    b = Buffer{};
}

} // namespace vbm::render
