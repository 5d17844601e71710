// SPDX-License-Identifier: Apache-2.0
// Volume rendering through compute passes (see VolumeRenderer.h).
#include "VolumeRenderer.h"

#include "CudaInterop.h"

#include <nanovdb/NanoVDB.h>

#include <glm/glm.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace vbm::render {

namespace {

constexpr VkBufferUsageFlags Storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
constexpr VkDeviceSize ChannelAlignment = 256; // >= every device's minStorageBufferOffsetAlignment

const nanovdb::NanoGrid<nanovdb::ValueOnIndex>& onIndexGrid(const nanovdb::GridHandle<nanovdb::HostBuffer>& grid)
{
    const auto* g = grid.grid<nanovdb::ValueOnIndex>();
    if (!g) throw VulkanError("the renderer needs an OnIndex grid");
    return *g;
}

uint32_t groups(uint32_t n, uint32_t perGroup) { return (n + perGroup - 1) / perGroup; }

void barrier(VkCommandBuffer cmd, VkPipelineStageFlags from, VkAccessFlags fromAccess, VkPipelineStageFlags to,
             VkAccessFlags toAccess)
{
    VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    b.srcAccessMask = fromAccess;
    b.dstAccessMask = toAccess;
    vkCmdPipelineBarrier(cmd, from, to, 0, 1, &b, 0, nullptr, 0, nullptr);
}

void computeToCompute(VkCommandBuffer cmd)
{
    barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

} // namespace

VolumeRenderer::VolumeRenderer(VulkanContext& vk, const nanovdb::GridHandle<nanovdb::HostBuffer>& grid, uint32_t width,
                               uint32_t height, bool cudaInterop, uint32_t channels)
    : mVk(vk), mPipelines(vk), mChannels(channels)
{
    if (channels < 1 || channels > 2) throw VulkanError("the renderer takes a field of 1 or 2 channels");
    uploadGrid(grid);
    uploadOccupancy();
    createFieldBuffer(cudaInterop);
    mRange = mVk.createDeviceBuffer(2 * sizeof(uint32_t), Storage | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    mParams = mVk.createDeviceBuffer(sizeof(RenderParams),
                                     VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    createDescriptorSet();
    if (vk.timestampValidBits() > 0) {
        VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qpci.queryCount = 2;
        checkVk(vkCreateQueryPool(vk.device(), &qpci, nullptr, &mQueries), "vkCreateQueryPool (render timestamps)");
    }
    fitLightVolume(1);
    resize(width, height, 1);
}

VolumeRenderer::~VolumeRenderer()
{
    VkDevice d = mVk.device();
    reportVk(vkDeviceWaitIdle(d), "vkDeviceWaitIdle (closing the renderer)"); // nothing may still read the buffers
    releaseFieldBuffer();
    if (mQueries) vkDestroyQueryPool(d, mQueries, nullptr);
    vkDestroyDescriptorPool(d, mPool, nullptr);
    for (Buffer* b : {&mGrid, &mImage, &mRays, &mCoarse, &mLight, &mRange, &mParams, &mMeshOccupancy})
        mVk.destroy(*b);
}

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
    fitLightVolume(std::max(mLightResolution, 1u)); // the box moved: the volumes follow it
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
    // Device memory: the grid changes only with the topology (setGrid), not every frame. The mesh
    // obstacles' band follows it in the same buffer (the shaders read both through one array).
    mGridBytes = grid.gridSize();
    mGrid = createGridBuffer(mMesh.get());
    mVk.upload(mGrid, grid.data(), mGridBytes);
    uploadBand();
}

void VolumeRenderer::setObstacleSurface(std::shared_ptr<const ObstacleSurface> surface)
{
    if (surface == mMesh) return;
    if (surface) mPipelines.useMeshObstacles(); // before anything changes: it may throw
    checkVk(vkDeviceWaitIdle(mVk.device()), "vkDeviceWaitIdle (new mesh obstacles for the renderer)");
    // The field grid stays where it is, copied device to device into the new grid buffer.
    Buffer grid = createGridBuffer(surface.get());
    try {
        mVk.submitAndWait(
            [&](VkCommandBuffer cmd) {
                const VkBufferCopy region{0, 0, mGridBytes};
                vkCmdCopyBuffer(cmd, mGrid.buffer, grid.buffer, 1, &region);
            },
            "keeping the grid beside new mesh obstacles");
    } catch (...) { // the renderer keeps its old grid and obstacles
        mVk.destroy(grid);
        throw;
    }
    mVk.destroy(mGrid);
    mGrid = grid;
    mMesh = std::move(surface);
    uploadBand();
    uploadOccupancy();
    writeDescriptors();
}

VkDeviceSize VolumeRenderer::meshOffset() const { return (mGridBytes + 31) & ~VkDeviceSize(31); }

Buffer VolumeRenderer::createGridBuffer(const ObstacleSurface* mesh) const
{
    const VkDeviceSize bytes = meshOffset() + (mesh ? mesh->band.gridSize() : 0);
    return mVk.createDeviceBuffer((bytes + 3) & ~VkDeviceSize(3),
                                  Storage | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
}

void VolumeRenderer::uploadBand()
{
    if (!mMesh) return;
    const auto& band = mMesh->band;
    mVk.upload(mGrid, band.data(), band.gridSize(), meshOffset());
    mHostBytes += band.gridSize();
}

void VolumeRenderer::uploadOccupancy()
{
    mVk.destroy(mMeshOccupancy);
    const VkBufferUsageFlags usage = Storage | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    const float outside = -0.5f; // without mesh obstacles a dummy: the binding needs a buffer
    const float* values = mMesh ? mMesh->occupancy.data() : &outside;
    const VkDeviceSize bytes = mMesh ? mMesh->occupancy.size() * sizeof(float) : sizeof outside;
    mMeshOccupancy = mVk.createDeviceBuffer(bytes, usage);
    mVk.upload(mMeshOccupancy, values, bytes);
    if (mMesh) mHostBytes += bytes;
}

VkDeviceSize VolumeRenderer::channelOffset(uint32_t c) const
{
    const VkDeviceSize bytes = std::max<uint64_t>(mValueCount, 1) * sizeof(float);
    return c * ((bytes + ChannelAlignment - 1) / ChannelAlignment * ChannelAlignment);
}

void VolumeRenderer::createFieldBuffer(bool cudaInterop)
{
    const VkDeviceSize fieldBytes = channelOffset(mChannels);
    // The semaphore's values start again from 0 with the new semaphore.
    mTimelineValue = mFieldReady = mReadDone = 0;
    if (cudaInterop) {
        mField = mVk.createDeviceBuffer(fieldBytes, Storage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
        mTimeline = mVk.createTimelineSemaphore(true);
        mShared = std::make_unique<CudaSharedField>(mVk.exportMemoryFd(mField), mField.allocationSize,
                                                    mVk.exportSemaphoreFd(mTimeline));
        mVk.submitAndWait([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, mField.buffer, 0, VK_WHOLE_SIZE, 0); },
                          "clearing the shared field buffer");
    } else {
        mField = mVk.createHostBuffer(fieldBytes, Storage);
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

void VolumeRenderer::createDescriptorSet()
{
    VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, BindingCount - 1},
                                     {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = 1;
    dpci.poolSizeCount = 2;
    dpci.pPoolSizes = sizes;
    checkVk(vkCreateDescriptorPool(mVk.device(), &dpci, nullptr, &mPool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = mPool;
    dsai.descriptorSetCount = 1;
    VkDescriptorSetLayout layout = mPipelines.setLayout();
    dsai.pSetLayouts = &layout;
    checkVk(vkAllocateDescriptorSets(mVk.device(), &dsai, &mSet), "vkAllocateDescriptorSets");
}

std::string VolumeRenderer::pathDescription() const
{
    if (mShared)
        return "shared CUDA-Vulkan memory (the field is copied device to device into a buffer Vulkan exported, "
               "ordered by a timeline semaphore; no host copies)";
    return "staging (the field is copied through host memory every frame)";
}

void VolumeRenderer::resize(uint32_t width, uint32_t height, uint32_t pixelsPerRay)
{
    if (width == 0 || height == 0) throw VulkanError("render: the image size must be at least 1x1");
    if (pixelsPerRay != 1 && pixelsPerRay != 2 && pixelsPerRay != 4)
        throw VulkanError("render: pixels per ray must be 1, 2 or 4");
    checkVk(vkDeviceWaitIdle(mVk.device()), "vkDeviceWaitIdle (resizing the image)");
    mVk.destroy(mImage);
    mVk.destroy(mRays);
    mWidth = width, mHeight = height, mPixelsPerRay = pixelsPerRay;
    mRayWidth = groups(width, pixelsPerRay), mRayHeight = groups(height, pixelsPerRay);
    mImage = mVk.createDeviceBuffer(VkDeviceSize(width) * height * 4, Storage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    if (pixelsPerRay > 1) mRays = mVk.createDeviceBuffer(VkDeviceSize(mRayWidth) * mRayHeight * 4, Storage);
    writeDescriptors();
}

void VolumeRenderer::fitLightVolume(uint32_t resolution)
{
    float longest = 1;
    for (int a = 0; a < 3; ++a)
        longest = std::max(longest, mBoxMax[a] - mBoxMin[a]);
    const uint32_t cell = std::max(1u, uint32_t(std::ceil(longest / float(std::max(resolution, 1u)))));
    uint32_t dims[3];
    for (int a = 0; a < 3; ++a)
        dims[a] = std::max(1u, groups(uint32_t(mBoxMax[a] - mBoxMin[a]), cell));
    mLightResolution = resolution;
    if (mCoarse.buffer && cell == mLightCell && std::equal(dims, dims + 3, mLightDims)) return;
    checkVk(vkDeviceWaitIdle(mVk.device()), "vkDeviceWaitIdle (resizing the light volume)");
    mVk.destroy(mCoarse);
    mVk.destroy(mLight);
    mLightCell = cell;
    std::copy(dims, dims + 3, mLightDims);
    const VkDeviceSize bytes = VkDeviceSize(dims[0]) * dims[1] * dims[2] * 2 * sizeof(float);
    mCoarse = mVk.createDeviceBuffer(bytes, Storage);
    mLight = mVk.createDeviceBuffer(bytes, Storage);
    if (mSet) writeDescriptors();
}

void VolumeRenderer::writeDescriptors()
{
    if (!mImage.buffer) return; // resize() writes them once the images exist
    const VkDeviceSize channelBytes = channelOffset(1); // one channel, padded to its alignment
    const VkDeviceSize second = mChannels > 1 ? channelOffset(1) : 0;
    const Buffer& rays = mPixelsPerRay > 1 ? mRays : mImage;
    const VkDescriptorBufferInfo infos[BindingCount] = {
        {mGrid.buffer, 0, VK_WHOLE_SIZE},      {mField.buffer, 0, channelBytes},
        {mField.buffer, second, channelBytes}, {rays.buffer, 0, VK_WHOLE_SIZE},
        {mImage.buffer, 0, VK_WHOLE_SIZE},     {mCoarse.buffer, 0, VK_WHOLE_SIZE},
        {mLight.buffer, 0, VK_WHOLE_SIZE},     {mRange.buffer, 0, VK_WHOLE_SIZE},
        {mParams.buffer, 0, VK_WHOLE_SIZE},    {mMeshOccupancy.buffer, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[BindingCount] = {};
    for (uint32_t i = 0; i < BindingCount; ++i) {
        writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        writes[i].dstSet = mSet;
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType =
            i == ParamsBinding ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(mVk.device(), BindingCount, writes, 0, nullptr);
}

void VolumeRenderer::setField(const float* data, FieldMemory where, void* cudaStream, uint32_t channel)
{
    if (channel >= mChannels)
        throw VulkanError("render: field channel " + std::to_string(channel) + " of a renderer made with " +
                          std::to_string(mChannels));
    const uint64_t bytes = mValueCount * sizeof(float);
    const VkDeviceSize offset = channelOffset(channel);
    if (mShared && where == FieldMemory::CudaDevice) {
        const uint64_t ready = ++mTimelineValue;
        mShared->copyFrom(data, bytes, offset, mReadDone, ready, cudaStream);
        mFieldReady = ready;
        return;
    }
    if (mShared) {
        // a host field on the shared path (not used by the app): an ordinary upload
        mVk.upload(mField, data, bytes, offset);
    } else if (where == FieldMemory::CudaDevice) {
        cudaCopyToHost(static_cast<char*>(mField.mapped) + offset, data, bytes, cudaStream);
    } else {
        std::memcpy(static_cast<char*>(mField.mapped) + offset, data, bytes);
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

RenderParams VolumeRenderer::frameParams(const OrbitCamera& cam, const RenderSettings& s) const
{
    const auto [eye, forward, right, up] = cam.basis();
    const float tanHalf = std::tan(0.5f * cam.fovY), aspect = float(mWidth) / float(mHeight);
    const glm::vec3 sun = directionOf(s.lightAzimuth, s.lightElevation);
    const bool lit = s.mode == RenderMode::Density || s.mode == RenderMode::Fire;
    RenderParams p{};
    p.eye = {eye.x, eye.y, eye.z, s.slicePosition};
    p.forward = {forward.x, forward.y, forward.z, float(s.sliceAxis)};
    p.right = {right.x * tanHalf * aspect, right.y * tanHalf * aspect, right.z * tanHalf * aspect,
               float(s.log2BlockWidth)};
    p.up = {up.x * tanHalf, up.y * tanHalf, up.z * tanHalf, s.ground ? 1.f : 0.f};
    p.boxMin = {mBoxMin[0], mBoxMin[1], mBoxMin[2], s.stepVoxels};
    p.boxMax = {mBoxMax[0], mBoxMax[1], mBoxMax[2], s.densityScale};
    p.size = {mRayWidth, mRayHeight, uint32_t(s.mode), s.maxSteps};
    p.image = {mWidth, mHeight, mPixelsPerRay, uint32_t(std::min<uint64_t>(mValueCount, UINT32_MAX))};
    p.range = {s.rangeLo, s.rangeHi, s.rangeFollowsField ? 1.f : 0.f, s.groundHeight};
    p.sun = {sun.x, sun.y, sun.z, s.sunIntensity};
    p.lightOrigin = {mBoxMin[0], mBoxMin[1], mBoxMin[2], float(mLightCell)};
    p.lightDims = {mLightDims[0], mLightDims[1], mLightDims[2], lit && s.lightResolution > 0 ? 1u : 0u};
    p.shading = {s.phaseG, s.exposure, s.skyIntensity, s.albedo};
    p.fire = {s.fireEmission, s.kelvinAtZero, s.kelvinPerUnit, s.kelvinMax};
    const size_t balls = std::min(s.obstacles.size(), MaxSurfaceBalls);
    p.counts = {uint32_t(balls), 0, uint32_t(meshOffset()), 0};
    if (mMesh) {
        p.meshMin = {mMesh->boxMin[0], mMesh->boxMin[1], mMesh->boxMin[2], 0.f};
        p.meshMax = {mMesh->boxMax[0], mMesh->boxMax[1], mMesh->boxMax[2], 0.f};
    }
    for (size_t k = 0; k < balls; ++k)
        p.obstacles[k] = {s.obstacles[k].x, s.obstacles[k].y, s.obstacles[k].z, s.obstacles[k].r};
    return p;
}

void VolumeRenderer::recordRender(VkCommandBuffer cmd, const OrbitCamera& cam, const RenderSettings& s)
{
    const RenderParams p = frameParams(cam, s);
    const bool range = s.rangeFollowsField && (s.mode == RenderMode::Emission || s.sliceAxis >= 0);
    const bool light = p.lightDims.w != 0;
    const VkPipelineStageFlags compute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, transfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
    // The last frame's passes and its copy out of the image finish before anything is overwritten.
    vkCmdPipelineBarrier(cmd, compute | transfer, compute | transfer, 0, 0, nullptr, 0, nullptr, 0, nullptr);
    if (mQueries) {
        vkCmdResetQueryPool(cmd, mQueries, 0, 2);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, mQueries, 0);
    }
    vkCmdUpdateBuffer(cmd, mParams.buffer, 0, sizeof(p), &p);
    if (range) {
        vkCmdFillBuffer(cmd, mRange.buffer, 0, sizeof(uint32_t), ~0u);
        vkCmdFillBuffer(cmd, mRange.buffer, sizeof(uint32_t), sizeof(uint32_t), 0u);
    }
    barrier(cmd, transfer, VK_ACCESS_TRANSFER_WRITE_BIT, compute,
            VK_ACCESS_UNIFORM_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, mPipelines.layout(), 0, 1, &mSet, 0, nullptr);
    const auto run = [&](Pass pass, uint32_t x, uint32_t y, uint32_t z) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, mPipelines.pipeline(pass, mMesh != nullptr));
        vkCmdDispatch(cmd, x, y, z);
    };
    if (range) {
        run(Pass::Range, std::clamp(groups(uint32_t(p.image.w), 256 * 16), 1u, 1024u), 1, 1);
        computeToCompute(cmd);
    }
    if (light) {
        run(Pass::Coarse, groups(mLightDims[0], 4), groups(mLightDims[1], 4), groups(mLightDims[2], 4));
        computeToCompute(cmd);
        run(Pass::Light, groups(mLightDims[0], 4), groups(mLightDims[1], 4), groups(mLightDims[2], 4));
        computeToCompute(cmd);
    }
    run(Pass::Volume, groups(mRayWidth, 8), groups(mRayHeight, 8), 1);
    if (mPixelsPerRay > 1) {
        computeToCompute(cmd);
        run(Pass::Upscale, groups(mWidth, 8), groups(mHeight, 8), 1);
    }
    if (mQueries) {
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, mQueries, 1);
        mTimed = true;
    }
    barrier(cmd, compute, VK_ACCESS_SHADER_WRITE_BIT, transfer, VK_ACCESS_TRANSFER_READ_BIT);
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
    uint32_t perRay = settings.pixelsPerRay;
    if (perRay == 0) perRay = !mVk.cpuDevice() ? 1 : uint64_t(size.width) * size.height > 800 * 600 ? 4 : 2;
    if (size.width != mWidth || size.height != mHeight || perRay != mPixelsPerRay)
        resize(size.width, size.height, perRay);
    fitLightVolume(settings.lightResolution);
    setObstacleSurface(settings.meshObstacles);
    const VkCommandBuffer cmd = target.beginFrame();
    if (!cmd) return false;
    recordRender(cmd, camera, settings);
    target.endFrame(mImage.buffer, nextFieldSync(), capture);
    return true;
}

} // namespace vbm::render
