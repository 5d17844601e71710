# SPDX-License-Identifier: Apache-2.0
# Install rules: `cmake --install build --prefix P` puts the VBM layer's headers in
# P/include/vbm/ and the CMake package vbm-fluid in P/share/cmake/vbm-fluid/, so another
# project writes find_package(vbm-fluid CONFIG REQUIRED) and links vbm::vbm. The
# executables go to P/bin. Included from the top-level CMakeLists.txt after the
# subdirectories, so the targets it installs exist.
#
# Decisions, and why:
# - Headers by pattern: install(DIRECTORY ... FILES_MATCHING "*.h" "*.cuh") reads vbm/include/vbm/
#   at install time. The house rule is explicit source lists, but the folder *is* the public
#   API (DESIGN.md: header-only, NanoVDB only), others add headers to it, and a second list
#   of them here would drift from the folder; the pattern keeps the CMakeLists.txt there out.
#   scripts/check-installed-package.sh compiles every installed header on its own, so a
#   header that reaches outside the folder fails the tests instead of the user.
# - The package's vbm::vbm is written by hand (cmake/vbm-fluidConfig.cmake.in), not exported
#   from the build's target: the build's vbm carries the build tree's include root (a link
#   to vbm/include/vbm) and links nanovdb::headers, a target of ours that is only a path and a
#   definition. Exporting it would mean installing a NanoVDB target that is not ours.
# - NanoVDB is never copied into the install. The package records the include directory this
#   build used (and its version) as its default and finds it again at find_package time;
#   NANOVDB_ROOT overrides it. See the config file.
# - Version: the top-level project() has no VERSION, so the package is 0.2.0 until it gets
#   one. SameMinorVersion: below 1.0 a minor release may change the API.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

if(PROJECT_VERSION)
  set(VBM_PACKAGE_VERSION "${PROJECT_VERSION}")
else()
  set(VBM_PACKAGE_VERSION "0.2.0")
endif()

set(VBM_INSTALL_CMAKEDIR "${CMAKE_INSTALL_DATADIR}/cmake/vbm-fluid" CACHE STRING
    "Where the vbm-fluid CMake package goes, relative to the install prefix")

install(DIRECTORY "${PROJECT_SOURCE_DIR}/vbm/include/vbm/"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/vbm"
        COMPONENT vbm
        FILES_MATCHING PATTERN "*.h" PATTERN "*.cuh")

# What the config file records: the NanoVDB include directory this build used
# (FindNanoVDB13.cmake's NANOVDB_INCLUDE_DIR) and its version as NanoVDB.h states it
# (major.minor; 32.9 is release 13.0.x). The package accepts that version and no other.
set(VBM_PACKAGE_NANOVDB_INCLUDE_DIR "${NANOVDB_INCLUDE_DIR}")
file(STRINGS "${NANOVDB_INCLUDE_DIR}/nanovdb/NanoVDB.h" _vbm_nv_lines
     REGEX "^#define NANOVDB_(MAJOR|MINOR)_VERSION_NUMBER")
string(REGEX REPLACE ".*MAJOR_VERSION_NUMBER +([0-9]+).*" "\\1" _vbm_nv_major "${_vbm_nv_lines}")
string(REGEX REPLACE ".*MINOR_VERSION_NUMBER +([0-9]+).*" "\\1" _vbm_nv_minor "${_vbm_nv_lines}")
set(VBM_PACKAGE_NANOVDB_VERSION "${_vbm_nv_major}.${_vbm_nv_minor}")
if(NOT VBM_PACKAGE_NANOVDB_VERSION MATCHES "^[0-9]+\\.[0-9]+$")
  message(FATAL_ERROR "vbm-fluid: cannot read NanoVDB's version from ${NANOVDB_INCLUDE_DIR}/nanovdb/NanoVDB.h")
endif()

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/vbm-fluidConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/package/vbm-fluidConfig.cmake"
  INSTALL_DESTINATION "${VBM_INSTALL_CMAKEDIR}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
# Header-only: no architecture in the version check, so a 32-bit consumer may use it too.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/package/vbm-fluidConfigVersion.cmake"
  VERSION "${VBM_PACKAGE_VERSION}"
  COMPATIBILITY SameMinorVersion
  ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/package/vbm-fluidConfig.cmake"
              "${PROJECT_BINARY_DIR}/package/vbm-fluidConfigVersion.cmake"
        DESTINATION "${VBM_INSTALL_CMAKEDIR}"
        COMPONENT vbm)

# The executables: they carry their scenes and shaders compiled in and link only system
# libraries (ours are static), so a copy in P/bin runs without the build tree. A target that
# is not built in this configuration (vbm-bench without CUDA) is skipped.
set(_vbm_installed_programs "")
foreach(_t vbm-fluid vbm-check vbm-bench)
  if(TARGET ${_t})
    list(APPEND _vbm_installed_programs ${_t})
  endif()
endforeach()
if(_vbm_installed_programs)
  install(TARGETS ${_vbm_installed_programs} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT programs)
endif()
