// SPDX-License-Identifier: Apache-2.0
// The render passes' pipelines (see RenderPipelines.h).
#include "RenderPipelines.h"

// the compiled shaders, generated at build time
#include "coarse_mesh_spv.h"
#include "coarse_spv.h"
#include "light_spv.h"
#include "range_spv.h"
#include "upscale_spv.h"
#include "volume_mesh_spv.h"
#include "volume_spv.h"

namespace vbm::render {

namespace {

struct Spirv {
    const uint32_t* code;
    size_t bytes;
    const char* name;
};

// in the order of Pass
const Spirv Shaders[PassCount] = {{range_spv, sizeof(range_spv), "range.comp"},
                                  {coarse_spv, sizeof(coarse_spv), "coarse.comp"},
                                  {light_spv, sizeof(light_spv), "light.comp"},
                                  {volume_spv, sizeof(volume_spv), "volume.comp"},
                                  {upscale_spv, sizeof(upscale_spv), "upscale.comp"}};
// the same with VBM_MESH_OBSTACLES, for the passes that draw mesh obstacles
const Spirv MeshShaders[PassCount] = {{nullptr, 0, nullptr},
                                      {coarse_mesh_spv, sizeof(coarse_mesh_spv), "coarse.comp, mesh obstacles"},
                                      {nullptr, 0, nullptr},
                                      {volume_mesh_spv, sizeof(volume_mesh_spv), "volume.comp, mesh obstacles"},
                                      {nullptr, 0, nullptr}};

} // namespace

RenderPipelines::RenderPipelines(VulkanContext& vk) : mVk(vk)
{
    VkDevice d = vk.device();
    try {
        VkDescriptorSetLayoutBinding bindings[BindingCount] = {};
        for (uint32_t i = 0; i < BindingCount; ++i) {
            bindings[i].binding = i;
            bindings[i].descriptorType =
                i == ParamsBinding ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            bindings[i].descriptorCount = 1;
            bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        }
        VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        dslci.bindingCount = BindingCount;
        dslci.pBindings = bindings;
        checkVk(vkCreateDescriptorSetLayout(d, &dslci, nullptr, &mSetLayout), "vkCreateDescriptorSetLayout");
        VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        plci.setLayoutCount = 1;
        plci.pSetLayouts = &mSetLayout;
        checkVk(vkCreatePipelineLayout(d, &plci, nullptr, &mLayout), "vkCreatePipelineLayout");
        for (int k = 0; k < PassCount; ++k)
            create(k, false);
    } catch (...) {
        release();
        throw;
    }
}

RenderPipelines::~RenderPipelines() { release(); }

void RenderPipelines::create(int k, bool mesh)
{
    const Spirv& spirv = (mesh ? MeshShaders : Shaders)[k];
    VkShaderModule& module = (mesh ? mMeshShaders : mShaders)[k];
    const std::string what = std::string(" (") + spirv.name + ")";
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = spirv.bytes;
    smci.pCode = spirv.code;
    checkVk(vkCreateShaderModule(mVk.device(), &smci, nullptr, &module), ("vkCreateShaderModule" + what).c_str());
    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = module;
    cpci.stage.pName = "main";
    cpci.layout = mLayout;
    checkVk(vkCreateComputePipelines(mVk.device(), VK_NULL_HANDLE, 1, &cpci, nullptr,
                                     &(mesh ? mMeshPipelines : mPipelines)[k]),
            ("vkCreateComputePipelines" + what).c_str());
}

void RenderPipelines::useMeshObstacles()
{
    for (int k = 0; k < PassCount; ++k)
        if (MeshShaders[k].code && !mMeshPipelines[k]) create(k, true);
}

void RenderPipelines::release()
{
    VkDevice d = mVk.device();
    for (auto* pipelines : {&mPipelines, &mMeshPipelines})
        for (VkPipeline& p : *pipelines)
            if (p) vkDestroyPipeline(d, p, nullptr), p = VK_NULL_HANDLE;
    for (auto* shaders : {&mShaders, &mMeshShaders})
        for (VkShaderModule& s : *shaders)
            if (s) vkDestroyShaderModule(d, s, nullptr), s = VK_NULL_HANDLE;
    if (mLayout) vkDestroyPipelineLayout(d, mLayout, nullptr), mLayout = VK_NULL_HANDLE;
    if (mSetLayout) vkDestroyDescriptorSetLayout(d, mSetLayout, nullptr), mSetLayout = VK_NULL_HANDLE;
}

} // namespace vbm::render
