// Volume rendering through a compute shader (see VolumeRenderer.h).
#include "VolumeRenderer.h"

#include "RenderParams.h"
#include "volume_spv.h" // the compiled shader, generated at build time

#include <nanovdb/NanoVDB.h>

#include <glm/glm.hpp>

#include <png.h>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace vbm::render {

OrbitCamera OrbitCamera::framing(const float lo[3], const float hi[3])
{
    OrbitCamera c;
    float diag = 0;
    for (int a = 0; a < 3; ++a)
        c.target[a] = 0.5f * (lo[a] + hi[a]), diag += (hi[a] - lo[a]) * (hi[a] - lo[a]);
    c.distance = 0.5f * std::sqrt(diag) / std::tan(0.5f * c.fovY) * 1.15f;
    return c;
}

VolumeRenderer::VolumeRenderer(VulkanContext& vk, const nanovdb::GridHandle<nanovdb::HostBuffer>& grid,
                               uint64_t valueCount, uint32_t width, uint32_t height)
    : mVk(vk), mWidth(width), mHeight(height), mValueCount(valueCount)
{
    const auto* g = grid.grid<nanovdb::ValueOnIndex>();
    if (!g) throw VulkanError("the renderer needs an OnIndex grid");
    const auto bbox = g->indexBBox();
    for (int a = 0; a < 3; ++a)
        mBoxMin[a] = float(bbox.min()[a]), mBoxMax[a] = float(bbox.max()[a] + 1);

    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    mGrid = vk.createHostBuffer((grid.gridSize() + 3) & ~VkDeviceSize(3), storage);
    std::memcpy(mGrid.mapped, grid.data(), grid.gridSize());
    mField = vk.createHostBuffer(std::max<uint64_t>(valueCount, 1) * sizeof(float), storage);
    mImage = vk.createHostBuffer(VkDeviceSize(width) * height * 4, storage);
    mPixels.resize(size_t(width) * height);

    VkDevice d = vk.device();
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = sizeof(volume_spv);
    smci.pCode = volume_spv;
    checkVk(vkCreateShaderModule(d, &smci, nullptr, &mShader), "vkCreateShaderModule");

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

    VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = 1;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &poolSize;
    checkVk(vkCreateDescriptorPool(d, &dpci, nullptr, &mPool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = mPool;
    dsai.descriptorSetCount = 1;
    dsai.pSetLayouts = &mSetLayout;
    checkVk(vkAllocateDescriptorSets(d, &dsai, &mSet), "vkAllocateDescriptorSets");
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
    vkUpdateDescriptorSets(d, 3, writes, 0, nullptr);

    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = vk.commandPool();
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    checkVk(vkAllocateCommandBuffers(d, &cbai, &mCmd), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    checkVk(vkCreateFence(d, &fci, nullptr, &mFence), "vkCreateFence");
}

VolumeRenderer::~VolumeRenderer()
{
    VkDevice d = mVk.device();
    vkDeviceWaitIdle(d);
    vkDestroyFence(d, mFence, nullptr);
    vkFreeCommandBuffers(d, mVk.commandPool(), 1, &mCmd);
    vkDestroyDescriptorPool(d, mPool, nullptr);
    vkDestroyPipeline(d, mPipeline, nullptr);
    vkDestroyPipelineLayout(d, mLayout, nullptr);
    vkDestroyDescriptorSetLayout(d, mSetLayout, nullptr);
    vkDestroyShaderModule(d, mShader, nullptr);
    mVk.destroy(mGrid);
    mVk.destroy(mField);
    mVk.destroy(mImage);
}

const std::vector<uint32_t>& VolumeRenderer::render(const std::vector<float>& field, const OrbitCamera& cam,
                                                    const RenderSettings& s)
{
    if (field.size() != mValueCount) throw VulkanError("render: the field has the wrong size");
    std::memcpy(mField.mapped, field.data(), field.size() * sizeof(float));

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

    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    checkVk(vkResetCommandBuffer(mCmd, 0), "vkResetCommandBuffer");
    checkVk(vkBeginCommandBuffer(mCmd, &begin), "vkBeginCommandBuffer");
    vkCmdBindPipeline(mCmd, VK_PIPELINE_BIND_POINT_COMPUTE, mPipeline);
    vkCmdBindDescriptorSets(mCmd, VK_PIPELINE_BIND_POINT_COMPUTE, mLayout, 0, 1, &mSet, 0, nullptr);
    vkCmdPushConstants(mCmd, mLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(p), &p);
    vkCmdDispatch(mCmd, (mWidth + 7) / 8, (mHeight + 7) / 8, 1);
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(mCmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0,
                         nullptr, 0, nullptr);
    checkVk(vkEndCommandBuffer(mCmd), "vkEndCommandBuffer");
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &mCmd;
    checkVk(vkResetFences(mVk.device(), 1, &mFence), "vkResetFences");
    checkVk(vkQueueSubmit(mVk.queue(), 1, &submit, mFence), "vkQueueSubmit");
    checkVk(vkWaitForFences(mVk.device(), 1, &mFence, VK_TRUE, UINT64_MAX), "vkWaitForFences (the render)");
    std::memcpy(mPixels.data(), mImage.mapped, mPixels.size() * 4);
    mBytesCopied = field.size() * sizeof(float) + mPixels.size() * 4;
    return mPixels;
}

void writePng(const std::string& path, const std::vector<uint32_t>& rgba, uint32_t width, uint32_t height)
{
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write the screenshot " + path);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        std::fclose(f);
        throw std::runtime_error("writing the PNG " + path + " failed");
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; ++y)
        png_write_row(png, reinterpret_cast<png_const_bytep>(rgba.data() + size_t(y) * width));
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    if (std::fclose(f) != 0) throw std::runtime_error("writing the PNG " + path + " failed");
}

} // namespace vbm::render
