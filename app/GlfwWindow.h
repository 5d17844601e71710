// SPDX-License-Identifier: Apache-2.0
// The window system for the window: GLFW, one window, the Vulkan surface on it and its events.
// Only the window uses it; the headless run never starts GLFW.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

struct GLFWwindow;

namespace vbm::app {

/// No window can be opened here (no display, or GLFW finds no Vulkan); the caller runs headless.
struct NoDisplay : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class GlfwWindow {
public:
    /// Starts GLFW and opens a window of this size for Vulkan; throws NoDisplay where it cannot.
    GlfwWindow(int width, int height, const char* title);
    ~GlfwWindow();
    GlfwWindow(const GlfwWindow&) = delete;
    GlfwWindow& operator=(const GlfwWindow&) = delete;

    GLFWwindow* handle() const { return mWindow; }
    /// The instance extensions Vulkan needs to present to this display.
    const std::vector<const char*>& instanceExtensions() const { return mExtensions; }
    /// The window's surface on `instance` (VulkanOptions::makeSurface).
    VkSurfaceKHR createSurface(VkInstance instance) const;

    bool shouldClose() const;
    void pollEvents() const;
    /// Sleeps until an event comes (while minimized).
    void waitEvents() const;
    /// The framebuffer's size in pixels (0 x 0 while minimized).
    std::pair<uint32_t, uint32_t> framebufferSize() const;
    /// Asks for a new size, as a user dragging the border would; seen by the next frame.
    void setSize(int width, int height) const;

private:
    GLFWwindow* mWindow = nullptr;
    std::vector<const char*> mExtensions;
};

} // namespace vbm::app
