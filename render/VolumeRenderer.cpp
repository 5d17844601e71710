// Volume rendering through a compute shader (see VolumeRenderer.h).
#include "VolumeRenderer.h"

#include "CudaInterop.h"
#include "RenderParams.h"
#include "volume_spv.h" // the compiled shader, generated at build time

#include <nanovdb/NanoVDB.h>

#include <glm/glm.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace vbm::render {

VolumeRenderer::VolumeRenderer(VulkanContext& vk, const nanovdb::GridHandle<nanovdb::HostBuffer>& grid, uint32_t width,
                               uint32_t height, bool cudaInterop)
    : mVk(vk)
{
    uploadGrid(grid);
    createFieldBuffer(cudaInterop);
    createPipeline();
    createDescriptorSet();
    if (vk.timestampValidBits() > 0) {
        VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qpci.queryCount = 2;
        checkVk(vkCreateQueryPool(vk.device(), &qpci, nullptr, &mQueries), "vkCreateQueryPool (render timestamps)");
    }
    resize(width, height);
}

VolumeRenderer::~VolumeRenderer()
{
    VkDevice d = mVk.device();
    reportVk(vkDeviceWaitIdle(d), "vkDeviceWaitIdle (closing the renderer)"); // nothing may still read the buffers
    releaseFieldBuffer();
    if (mQueries) vkDestroyQueryPool(d, mQueries, nullptr);
    vkDestroyDescriptorPool(d, mPool, nullptr);
    vkDestroyPipeline(d, mPipeline, nullptr);
    vkDestroyPipelineLayout(d, mLayout, nullptr);
    vkDestroyDescriptorSetLayout(d, mSetLayout, nullptr);
    vkDestroyShaderModule(d, mShader, nullptr);
    mVk.destroy(mGrid);
    mVk.destroy(mImage);
}

namespace {

const nanovdb::NanoGrid<nanovdb::ValueOnIndex>& onIndexGrid(const nanovdb::GridHandle<nanovdb::HostBuffer>& grid)
{
    const auto* g = grid.grid<nanovdb::ValueOnIndex>();
    if (!g) throw VulkanError("the renderer needs an OnIndex grid");
    return *g;
}

} // namespace

void VolumeRenderer::setGrid(const nanovdb::GridHandle<nanovdb::HostBuffer>& grid)
{
    onIndexGrid(grid); // a wrong grid throws before anything is freed
    // Every submitted frame has finished reading the grid, the field and the semaphore; a field
    // copy CUDA may still have queued into the shared buffer is waited for when the import is
    // destroyed (CudaSharedField's destructor synchronizes the device first).
    checkVk(vkDeviceWaitIdle(mVk.device()), "vkDeviceWaitIdle (a new grid for the renderer)");
    const bool shared = mShared != nullptr;
    releaseFieldBuffer();
    mVk.destroy(mGrid);
    uploadGrid(grid);
    createFieldBuffer(shared);
    writeDescriptors();
    mHostBytes += grid.gridSize();
}

void VolumeRenderer::uploadGrid(const nanovdb::GridHandle<nanovdb::HostBuffer>& grid)
{
    const auto& g = onIndexGrid(grid);
    mValueCount = g.valueCount();
    const auto bbox = g.indexBBox();
    for (int a = 0; a < 3; ++a)
        mBoxMin[a] = float(bbox.min()[a]), mBoxMax[a] = float(bbox.max()[a] + 1);
    // Device memory: the grid changes only with the topology (setGrid), not every frame.
    mGrid = mVk.createDeviceBuffer((grid.gridSize() + 3) & ~VkDeviceSize(3),
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    mVk.upload(mGrid, grid.data(), grid.gridSize());
}

void VolumeRenderer::createFieldBuffer(bool cudaInterop)
{
    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    const VkDeviceSize fieldBytes = std::max<uint64_t>(mValueCount, 1) * sizeof(float);
    // The semaphore's values start again from 0 with the new semaphore.
    mTimelineValue = mFieldReady = mReadDone = 0;
    if (cudaInterop) {
        mField = mVk.createDeviceBuffer(fieldBytes, storage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
        mTimeline = mVk.createTimelineSemaphore(true);
        mShared = std::make_unique<CudaSharedField>(mVk.exportMemoryFd(mField), mField.allocationSize,
                                                    mVk.exportSemaphoreFd(mTimeline));
        mVk.submitAndWait([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, mField.buffer, 0, VK_WHOLE_SIZE, 0); },
                          "clearing the shared field buffer");
    } else {
        mField = mVk.createHostBuffer(fieldBytes, storage);
        std::memset(mField.mapped, 0, fieldBytes);
    }
}

void VolumeRenderer::releaseFieldBuffer()
{
    mShared.reset(); // CUDA lets go of the memory and the semaphore before Vulkan frees them
    if (mTimeline) vkDestroySemaphore(mVk.device(), mTimeline, nullptr);
    mTimeline = VK_NULL_HANDLE;
    mVk.destroy(mField);
}

void VolumeRenderer::createPipeline()
{
    VkDevice d = mVk.device();
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = sizeof(volume_spv);
    smci.pCode = volume_spv;
    checkVk(vkCreateShaderModule(d, &smci, nullptr, &mShader), "vkCreateShaderModule");

    // bindings 0, 1, 2: the grid, the field, the image (shaders/volume.comp)
    VkDescriptorSetLayoutBinding bindings[3] = {};
    for (uint32_t i = 0; i < 3; ++i) {
        bindings[i].binding = i;
        bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        bindings[i].descriptorCount = 1;
        bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dslci.bindingCount = 3;
    dslci.pBindings = bindings;
    checkVk(vkCreateDescriptorSetLayout(d, &dslci, nullptr, &mSetLayout), "vkCreateDescriptorSetLayout");
    VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(RenderParams)};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &mSetLayout;
    plci.pushConstantRangeCount = 1;
    plci.pPushConstantRanges = &push;
    checkVk(vkCreatePipelineLayout(d, &plci, nullptr, &mLayout), "vkCreatePipelineLayout");
    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = mShader;
    cpci.stage.pName = "main";
    cpci.layout = mLayout;
    checkVk(vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &cpci, nullptr, &mPipeline), "vkCreateComputePipelines");
}

void VolumeRenderer::createDescriptorSet()
{
    VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = 1;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &poolSize;
    checkVk(vkCreateDescriptorPool(mVk.device(), &dpci, nullptr, &mPool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = mPool;
    dsai.descriptorSetCount = 1;
    dsai.pSetLayouts = &mSetLayout;
    checkVk(vkAllocateDescriptorSets(mVk.device(), &dsai, &mSet), "vkAllocateDescriptorSets");
}

std::string VolumeRenderer::pathDescription() const
{
    if (mShared)
        return "shared CUDA-Vulkan memory (the field is copied device to device into a buffer Vulkan exported, "
               "ordered by a timeline semaphore; no host copies)";
    return "staging (the field is copied through host memory every frame)";
}

void VolumeRenderer::resize(uint32_t width, uint32_t height)
{
    if (width == 0 || height == 0) throw VulkanError("render: the image size must be at least 1x1");
    checkVk(vkDeviceWaitIdle(mVk.device()), "vkDeviceWaitIdle (resizing the image)");
    mVk.destroy(mImage);
    mWidth = width, mHeight = height;
    const VkDeviceSize bytes = VkDeviceSize(width) * height * 4;
    mImage = mVk.createDeviceBuffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    writeDescriptors();
}

void VolumeRenderer::writeDescriptors()
{
    VkDescriptorBufferInfo infos[3] = {
        {mGrid.buffer, 0, VK_WHOLE_SIZE}, {mField.buffer, 0, VK_WHOLE_SIZE}, {mImage.buffer, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[3] = {};
    for (uint32_t i = 0; i < 3; ++i) {
        writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        writes[i].dstSet = mSet;
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(mVk.device(), 3, writes, 0, nullptr);
}

void VolumeRenderer::setField(const float* data, FieldMemory where, void* cudaStream)
{
    const uint64_t bytes = mValueCount * sizeof(float);
    if (mShared && where == FieldMemory::CudaDevice) {
        const uint64_t ready = ++mTimelineValue;
        mShared->copyFrom(data, bytes, mReadDone, ready, cudaStream);
        mFieldReady = ready;
        return;
    }
    if (mShared) {
        // a host field on the shared path (not used by the app): an ordinary upload
        mVk.upload(mField, data, bytes);
    } else if (where == FieldMemory::CudaDevice) {
        cudaCopyToHost(mField.mapped, data, bytes, cudaStream);
    } else {
        std::memcpy(mField.mapped, data, bytes);
    }
    mHostBytes += bytes;
}

FieldSync VolumeRenderer::nextFieldSync()
{
    if (!mTimeline) return {};
    FieldSync s{mTimeline, mFieldReady, ++mTimelineValue};
    mReadDone = s.signalValue;
    return s;
}

void VolumeRenderer::recordRender(VkCommandBuffer cmd, const OrbitCamera& cam, const RenderSettings& s)
{
    const glm::vec3 target(cam.target[0], cam.target[1], cam.target[2]);
    const glm::vec3 offset(std::cos(cam.elevation) * std::cos(cam.azimuth), std::sin(cam.elevation),
                           std::cos(cam.elevation) * std::sin(cam.azimuth));
    const glm::vec3 eye = target + cam.distance * offset;
    const glm::vec3 forward = glm::normalize(target - eye);
    const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0, 1, 0)));
    const glm::vec3 up = glm::cross(right, forward);
    const float tanHalf = std::tan(0.5f * cam.fovY), aspect = float(mWidth) / float(mHeight);
    RenderParams p{};
    p.eye = {eye.x, eye.y, eye.z, s.slicePosition};
    p.forward = {forward.x, forward.y, forward.z, float(s.sliceAxis)};
    p.right = {right.x * tanHalf * aspect, right.y * tanHalf * aspect, right.z * tanHalf * aspect,
               float(s.log2BlockWidth)};
    p.up = {up.x * tanHalf, up.y * tanHalf, up.z * tanHalf, 0};
    p.boxMin = {mBoxMin[0], mBoxMin[1], mBoxMin[2], s.stepVoxels};
    p.boxMax = {mBoxMax[0], mBoxMax[1], mBoxMax[2], s.densityScale};
    p.size = {mWidth, mHeight, uint32_t(s.mode), s.maxSteps};
    p.range = {s.rangeLo, s.rangeHi, s.lightAzimuth, s.lightElevation};

    // The last frame's copies out of the image finish before the shader overwrites it.
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0,
                         nullptr, 0, nullptr);
    if (mQueries) {
        vkCmdResetQueryPool(cmd, mQueries, 0, 2);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, mQueries, 0);
    }
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, mPipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, mLayout, 0, 1, &mSet, 0, nullptr);
    vkCmdPushConstants(cmd, mLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(p), &p);
    vkCmdDispatch(cmd, (mWidth + 7) / 8, (mHeight + 7) / 8, 1);
    if (mQueries) {
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, mQueries, 1);
        mTimed = true;
    }
    VkMemoryBarrier written{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    written.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    written.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &written, 0,
                         nullptr, 0, nullptr);
}

std::optional<double> VolumeRenderer::lastRenderGpuMs() const
{
    if (!mQueries || !mTimed) return std::nullopt;
    uint64_t ticks[2] = {};
    const VkResult r = vkGetQueryPoolResults(mVk.device(), mQueries, 0, 2, sizeof ticks, ticks, sizeof(uint64_t),
                                             VK_QUERY_RESULT_64_BIT);
    if (r == VK_NOT_READY) return std::nullopt;
    checkVk(r, "vkGetQueryPoolResults (render timestamps)");
    const uint32_t bits = mVk.timestampValidBits();
    const uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    const uint64_t elapsed = ((ticks[1] & mask) - (ticks[0] & mask)) & mask;
    return double(elapsed) * mVk.timestampPeriodNs() * 1e-6;
}

bool VolumeRenderer::draw(RenderTarget& target, const OrbitCamera& camera, const RenderSettings& settings, bool capture)
{
    const VkExtent2D size = target.volumeExtent();
    if (size.width != mWidth || size.height != mHeight) resize(size.width, size.height);
    const VkCommandBuffer cmd = target.beginFrame();
    if (!cmd) return false;
    recordRender(cmd, camera, settings);
    target.endFrame(mImage.buffer, nextFieldSync(), capture);
    return true;
}

} // namespace vbm::render
