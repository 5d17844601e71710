# SPDX-License-Identifier: Apache-2.0
# Finds Dear ImGui 1.86 as Debian's libimgui-dev ships it and defines the target vbm::imgui.
# The package installs the headers (/usr/include/imgui, backends/ included) and one static
# archive, libimgui.a, compiled from its sources, that already holds the core and the GLFW and
# Vulkan backends; nothing of ImGui is built or committed here. Its backend .cpp files are only
# shipped as documentation examples (often stripped from minimal images), so we link the archive.
# The headers are SYSTEM includes: their warnings are not ours.
find_path(IMGUI_INCLUDE_DIR imgui.h PATH_SUFFIXES imgui)
find_path(IMGUI_BACKENDS_DIR imgui_impl_vulkan.h imgui_impl_glfw.h
          HINTS ${IMGUI_INCLUDE_DIR}/backends PATH_SUFFIXES imgui/backends)
find_library(IMGUI_LIBRARY NAMES libimgui.a imgui)
# Debian builds ImGui against its packaged stb (libstb-dev, a dependency of libimgui-dev).
find_library(STB_LIBRARY NAMES stb)
find_package(glfw3 3.3 CONFIG QUIET)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(DebianImGui
  REQUIRED_VARS IMGUI_INCLUDE_DIR IMGUI_BACKENDS_DIR IMGUI_LIBRARY STB_LIBRARY glfw3_DIR
  REASON_FAILURE_MESSAGE "install libimgui-dev and libglfw3-dev (scripts/setup.sh does)")

if(DebianImGui_FOUND AND NOT TARGET vbm::imgui)
  add_library(vbm::imgui INTERFACE IMPORTED)
  target_include_directories(vbm::imgui SYSTEM INTERFACE ${IMGUI_INCLUDE_DIR} ${IMGUI_BACKENDS_DIR})
  find_package(Vulkan REQUIRED)
  target_link_libraries(vbm::imgui INTERFACE ${IMGUI_LIBRARY} ${STB_LIBRARY} glfw Vulkan::Vulkan m)
endif()
