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

VulkanContext::VulkanContext(bool validation)
{
    const char* env = std::getenv("VBM_VULKAN_VALIDATION");
    mValidation = validation || (env && std::strcmp(env, "1") == 0);

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vbm-fluid";
    app.apiVersion = VK_API_VERSION_1_2;
    std::vector<const char*> layers, extensions;
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
    if (mValidation) ici.pNext = &messenger;
    checkVk(vkCreateInstance(&ici, nullptr, &mInstance), "vkCreateInstance");
    if (mValidation) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(mInstance, "vkCreateDebugUtilsMessengerEXT"));
        if (create) checkVk(create(mInstance, &messenger, nullptr, &mMessenger), "vkCreateDebugUtilsMessengerEXT");
    }

    // Device: a discrete or integrated GPU if there is one, else a CPU implementation (lavapipe).
    uint32_t count = 0;
    checkVk(vkEnumeratePhysicalDevices(mInstance, &count, nullptr), "vkEnumeratePhysicalDevices");
    if (count == 0)
        throw VulkanError("no Vulkan device found (install a driver, e.g. mesa-vulkan-drivers, or use --render none)");
    std::vector<VkPhysicalDevice> devices(count);
    checkVk(vkEnumeratePhysicalDevices(mInstance, &count, devices.data()), "vkEnumeratePhysicalDevices");
    int best = -1;
    for (uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devices[i], &p);
        const int rank = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU     ? 3
                         : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? 2
                                                                                  : 1;
        uint32_t families = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &families, nullptr);
        std::vector<VkQueueFamilyProperties> fam(families);
        vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &families, fam.data());
        for (uint32_t f = 0; f < families; ++f)
            if ((fam[f].queueFlags & VK_QUEUE_COMPUTE_BIT) && rank > best) {
                best = rank;
                mPhysical = devices[i];
                mQueueFamily = f;
                mDeviceName = p.deviceName;
                break;
            }
    }
    if (!mPhysical) throw VulkanError("no Vulkan device with a compute queue found (or use --render none)");

    const float priority = 1.f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = mQueueFamily;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    checkVk(vkCreateDevice(mPhysical, &dci, nullptr, &mDevice), "vkCreateDevice");
    vkGetDeviceQueue(mDevice, mQueueFamily, 0, &mQueue);
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = mQueueFamily;
    checkVk(vkCreateCommandPool(mDevice, &pci, nullptr, &mPool), "vkCreateCommandPool");
}

VulkanContext::~VulkanContext()
{
    if (mDevice) {
        vkDeviceWaitIdle(mDevice);
        vkDestroyCommandPool(mDevice, mPool, nullptr);
        vkDestroyDevice(mDevice, nullptr);
    }
    if (mMessenger) {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(mInstance, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy) destroy(mInstance, mMessenger, nullptr);
    }
    if (mInstance) vkDestroyInstance(mInstance, nullptr);
}

HostBuffer VulkanContext::createHostBuffer(VkDeviceSize size, VkBufferUsageFlags usage)
{
    HostBuffer b;
    b.size = size;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = usage;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    checkVk(vkCreateBuffer(mDevice, &bci, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(mDevice, b.buffer, &req);
    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(mPhysical, &mem);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < mem.memoryTypeCount; ++i)
        if ((req.memoryTypeBits & (1u << i)) && (mem.memoryTypes[i].propertyFlags & want) == want) {
            type = i;
            break;
        }
    if (type == UINT32_MAX)
        throw VulkanError("no host-visible Vulkan memory for a " + std::to_string(size) + "-byte buffer");
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = type;
    checkVk(vkAllocateMemory(mDevice, &mai, nullptr, &b.memory),
            ("vkAllocateMemory of " + std::to_string(req.size) + " bytes").c_str());
    checkVk(vkBindBufferMemory(mDevice, b.buffer, b.memory, 0), "vkBindBufferMemory");
    checkVk(vkMapMemory(mDevice, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    return b;
}

void VulkanContext::destroy(HostBuffer& b)
{
    if (b.memory) vkUnmapMemory(mDevice, b.memory), vkFreeMemory(mDevice, b.memory, nullptr);
    if (b.buffer) vkDestroyBuffer(mDevice, b.buffer, nullptr);
    b = HostBuffer{};
}

} // namespace vbm::render
