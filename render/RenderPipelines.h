// SPDX-License-Identifier: Apache-2.0
// The renderer's compute passes (shaders/*.comp, compiled to SPIR-V at build time): one pipeline
// each, all over one descriptor set layout (the bindings of shaders/RenderCommon.glsl), so one
// descriptor set serves every pass of a frame. The passes that draw mesh obstacles (coarse,
// volume) have a second variant that does, made only when asked for (useMeshObstacles()).
#pragma once

#include "VulkanContext.h"

#include <array>

namespace vbm::render {

enum class Pass { Range, Coarse, Light, Volume, Upscale };
inline constexpr int PassCount = 5;
/// Bindings 0-7 and 9 are storage buffers, 8 the parameters' uniform buffer.
inline constexpr uint32_t BindingCount = 10;
inline constexpr uint32_t ParamsBinding = 8;

class RenderPipelines {
public:
    explicit RenderPipelines(VulkanContext& vk);
    ~RenderPipelines();
    RenderPipelines(const RenderPipelines&) = delete;
    RenderPipelines& operator=(const RenderPipelines&) = delete;

    VkDescriptorSetLayout setLayout() const { return mSetLayout; }
    VkPipelineLayout layout() const { return mLayout; }
    /// The pass's pipeline; with `mesh`, the variant drawing mesh obstacles where it has one
    /// (made by useMeshObstacles() first).
    VkPipeline pipeline(Pass p, bool mesh = false) const
    {
        return mesh && mMeshPipelines[size_t(p)] ? mMeshPipelines[size_t(p)] : mPipelines[size_t(p)];
    }
    /// Makes the variants that draw mesh obstacles, once (seconds on a CPU device).
    void useMeshObstacles();

private:
    void release();
    /// One pass's shader module and pipeline from its SPIR-V (`k`: the index of its Pass).
    void create(int k, bool mesh);

    VulkanContext& mVk;
    VkDescriptorSetLayout mSetLayout = VK_NULL_HANDLE;
    VkPipelineLayout mLayout = VK_NULL_HANDLE;
    std::array<VkShaderModule, PassCount> mShaders{};
    std::array<VkPipeline, PassCount> mPipelines{};
    std::array<VkShaderModule, PassCount> mMeshShaders{};
    std::array<VkPipeline, PassCount> mMeshPipelines{}; ///< null for the passes without a mesh variant
};

} // namespace vbm::render
