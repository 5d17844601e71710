// SPDX-License-Identifier: Apache-2.0
// Where the renderer's frames go, behind one small interface: an offscreen image (the headless
// run, PNG screenshots, tests) or a window's swapchain image. The renderer records its ray march
// into the command buffer the target hands out; the target puts the volume's pixels where they
// belong, adds what it draws on top (the window's panels), submits and, for a window, presents.
// Nothing above the renderer needs to know which kind it draws into.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace vbm::render {

/// What the submit of a frame that reads the field must wait for and signal on the shared-memory
/// path (a timeline semaphore, shared with CUDA); `semaphore` is null on the staging path.
struct FieldSync {
    VkSemaphore semaphore = VK_NULL_HANDLE;
    uint64_t waitValue = 0, signalValue = 0;
};

/// A frame's pixels on the host: RGBA8 words, row by row from the top.
struct CapturedImage {
    uint32_t width = 0, height = 0;
    std::vector<uint32_t> pixels;
};

class RenderTarget {
public:
    virtual ~RenderTarget() = default;

    /// The size the volume is drawn at; the renderer's image follows it.
    virtual VkExtent2D volumeExtent() const = 0;
    /// Waits until the last frame submitted here has finished on the GPU, so what it read (the
    /// renderer's staging buffer, its timestamps) may be reused.
    virtual void wait() = 0;
    /// Whether the last submitted frame may still be running: a window's frame runs on while the
    /// next one is prepared; an offscreen frame is waited for when it is submitted.
    virtual bool frameInFlight() const = 0;
    /// Starts a frame and returns the command buffer to record the ray march into; VK_NULL_HANDLE
    /// when the target cannot take a frame now (a window's swapchain went out of date): nothing is
    /// recorded, the frame is skipped, and the target rebuilds itself before the next one.
    virtual VkCommandBuffer beginFrame() = 0;
    /// Ends the frame begun: places `volume` (the renderer's RGBA8 buffer of volumeExtent() pixels,
    /// ready for a transfer read), draws what the target adds on top, with `capture` also copies
    /// the finished pixels for the host, and submits honouring `sync` (a window then presents).
    virtual void endFrame(VkBuffer volume, const FieldSync& sync, bool capture) = 0;
    /// The pixels of the last frame ended with `capture`; waits for that frame first.
    virtual CapturedImage capturedImage() = 0;
};

} // namespace vbm::render
