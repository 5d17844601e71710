// The renderer's compute passes (shaders/*.comp, compiled to SPIR-V at build time): one pipeline
// each, all over one descriptor set layout (the bindings of shaders/RenderCommon.glsl), so one
// descriptor set serves every pass of a frame.
#pragma once

#include "VulkanContext.h"

#include <array>

namespace vbm::render {

enum class Pass { Range, Coarse, Light, Volume, Upscale };
inline constexpr int PassCount = 5;
/// Bindings 0-7 are storage buffers, 8 the parameters' uniform buffer.
inline constexpr uint32_t BindingCount = 9;
inline constexpr uint32_t ParamsBinding = 8;

class RenderPipelines {
public:
    explicit RenderPipelines(VulkanContext& vk);
    ~RenderPipelines();
    RenderPipelines(const RenderPipelines&) = delete;
    RenderPipelines& operator=(const RenderPipelines&) = delete;

    VkDescriptorSetLayout setLayout() const { return mSetLayout; }
    VkPipelineLayout layout() const { return mLayout; }
    VkPipeline pipeline(Pass p) const { return mPipelines[size_t(p)]; }

private:
    void release();

    VulkanContext& mVk;
    VkDescriptorSetLayout mSetLayout = VK_NULL_HANDLE;
    VkPipelineLayout mLayout = VK_NULL_HANDLE;
    std::array<VkShaderModule, PassCount> mShaders{};
    std::array<VkPipeline, PassCount> mPipelines{};
};

} // namespace vbm::render
