// SPDX-License-Identifier: Apache-2.0
// The window system for the window (see GlfwWindow.h).
#include "GlfwWindow.h"

#include "VulkanContext.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include <algorithm>
#include <string>

namespace vbm::app {

namespace {

// GLFW reports why a call failed through a callback; the last reason makes the NoDisplay line.
std::string gGlfwError = "unknown reason";
void onGlfwError(int, const char* description) { gGlfwError = description; }

} // namespace

GlfwWindow::GlfwWindow(int width, int height, const char* title)
{
    glfwSetErrorCallback(onGlfwError);
    if (!glfwInit()) throw NoDisplay("no display (" + gGlfwError + ")");
    try {
        if (!glfwVulkanSupported()) throw NoDisplay("GLFW finds no Vulkan loader with window-system support");
        uint32_t count = 0;
        const char** extensions = glfwGetRequiredInstanceExtensions(&count);
        if (!extensions) throw NoDisplay("Vulkan cannot present to this display (" + gGlfwError + ")");
        mExtensions.assign(extensions, extensions + count);
        glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
        mWindow = glfwCreateWindow(width, height, title, nullptr, nullptr);
        if (!mWindow) throw NoDisplay("cannot open a window (" + gGlfwError + ")");
    } catch (...) {
        glfwTerminate();
        throw;
    }
}

GlfwWindow::~GlfwWindow()
{
    if (mWindow) glfwDestroyWindow(mWindow);
    glfwTerminate();
}

VkSurfaceKHR GlfwWindow::createSurface(VkInstance instance) const
{
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    render::checkVk(glfwCreateWindowSurface(instance, mWindow, nullptr, &surface), "glfwCreateWindowSurface");
    return surface;
}

bool GlfwWindow::shouldClose() const { return glfwWindowShouldClose(mWindow); }

void GlfwWindow::pollEvents() const { glfwPollEvents(); }

void GlfwWindow::waitEvents() const { glfwWaitEvents(); }

std::pair<uint32_t, uint32_t> GlfwWindow::framebufferSize() const
{
    int w = 0, h = 0;
    glfwGetFramebufferSize(mWindow, &w, &h);
    return {uint32_t(std::max(w, 0)), uint32_t(std::max(h, 0))};
}

void GlfwWindow::setSize(int width, int height) const { glfwSetWindowSize(mWindow, width, height); }

} // namespace vbm::app
