# SPDX-License-Identifier: Apache-2.0
# Finds NanoVDB 13 headers (NanoVDB.h version 32.9 or later) and defines the target nanovdb::headers.
# Order: NANOVDB_ROOT (cache or environment), .deps/nanovdb/include (scripts/setup.sh puts
# Debian's libnanovdb-dev 13.0.0 there), the system include path; if none qualifies,
# FetchContent of the upstream v13.0.0 tag (needs internet). Prints which one it used.

function(_vbm_nanovdb_version dir out)
  set(${out} "" PARENT_SCOPE)
  if(EXISTS "${dir}/nanovdb/NanoVDB.h")
    file(STRINGS "${dir}/nanovdb/NanoVDB.h" _maj REGEX "^#define NANOVDB_MAJOR_VERSION_NUMBER")
    file(STRINGS "${dir}/nanovdb/NanoVDB.h" _min REGEX "^#define NANOVDB_MINOR_VERSION_NUMBER")
    string(REGEX MATCH "[0-9]+" _maj "${_maj}")
    string(REGEX MATCH "[0-9]+" _min "${_min}")
    if(_maj AND NOT _min STREQUAL "")
      set(${out} "${_maj}.${_min}" PARENT_SCOPE)
    endif()
  endif()
endfunction()

set(_vbm_candidates "")
if(NANOVDB_ROOT)
  list(APPEND _vbm_candidates "NANOVDB_ROOT|${NANOVDB_ROOT}" "NANOVDB_ROOT|${NANOVDB_ROOT}/include")
elseif(DEFINED ENV{NANOVDB_ROOT})
  list(APPEND _vbm_candidates "NANOVDB_ROOT|$ENV{NANOVDB_ROOT}" "NANOVDB_ROOT|$ENV{NANOVDB_ROOT}/include")
endif()
list(APPEND _vbm_candidates "project .deps (Debian libnanovdb-dev)|${PROJECT_SOURCE_DIR}/.deps/nanovdb/include")
list(APPEND _vbm_candidates "system|/usr/include" "system|/usr/local/include")

set(NANOVDB_INCLUDE_DIR "")
foreach(_c IN LISTS _vbm_candidates)
  string(REPLACE "|" ";" _c "${_c}")
  list(GET _c 0 _what)
  list(GET _c 1 _dir)
  _vbm_nanovdb_version("${_dir}" _ver)
  if(_ver AND NOT _ver VERSION_LESS 32.9)
    set(NANOVDB_INCLUDE_DIR "${_dir}")
    message(STATUS "vbm-fluid: NanoVDB ${_ver} from ${_what}: ${_dir}")
    break()
  elseif(_ver)
    message(STATUS "vbm-fluid: skipping NanoVDB ${_ver} in ${_dir} (need 32.9 = release 13.0 or later)")
  endif()
endforeach()

if(NOT NANOVDB_INCLUDE_DIR)
  message(STATUS "vbm-fluid: no NanoVDB 13 headers found; fetching upstream openvdb v13.0.0 (needs internet)")
  include(FetchContent)
  FetchContent_Declare(openvdb_src
    GIT_REPOSITORY https://github.com/AcademySoftwareFoundation/openvdb.git
    GIT_TAG v13.0.0
    GIT_SHALLOW TRUE)
  FetchContent_GetProperties(openvdb_src)
  if(NOT openvdb_src_POPULATED)
    FetchContent_Populate(openvdb_src)
  endif()
  set(NANOVDB_INCLUDE_DIR "${openvdb_src_SOURCE_DIR}/nanovdb")
  _vbm_nanovdb_version("${NANOVDB_INCLUDE_DIR}" _ver)
  if(NOT _ver OR _ver VERSION_LESS 32.9)
    message(FATAL_ERROR "vbm-fluid: NanoVDB 13 not found: run scripts/setup.sh, or set NANOVDB_ROOT to a folder holding nanovdb/NanoVDB.h of release 13.0")
  endif()
  message(STATUS "vbm-fluid: NanoVDB ${_ver} from FetchContent (upstream v13.0.0): ${NANOVDB_INCLUDE_DIR}")
endif()

add_library(nanovdb_headers INTERFACE)
add_library(nanovdb::headers ALIAS nanovdb_headers)
target_include_directories(nanovdb_headers SYSTEM INTERFACE "${NANOVDB_INCLUDE_DIR}")
# NanoVDB's own switch (its CMake option NANOVDB_USE_INTRINSICS, off by default): hardware
# popcount and bit scans in its leaf getValue and masks. Without it every OnIndex lookup runs a
# 64-bit software popcount; on the H200 the 4.2M plume step took 8.82 ms without, 8.27 with
# (measured at commit aaa98e2, docs/history.md). It applies to everything, NanoVDB's reference path too.
target_compile_definitions(nanovdb_headers INTERFACE NANOVDB_USE_INTRINSICS)
