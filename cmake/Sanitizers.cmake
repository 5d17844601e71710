# SPDX-License-Identifier: Apache-2.0
# Sanitizer and fuzzing builds of the CPU parts (docs/testing.md).
#  VBM_SANITIZE: everything built with AddressSanitizer + UndefinedBehaviorSanitizer, UB fatal
#                (scripts/sanitize.sh; gcc or clang).
#  VBM_FUZZ:     the same, plus libFuzzer coverage, and the targets of tests/fuzz (clang only;
#                scripts/fuzz.sh).
# Both need -DVBM_CUDA=OFF: nvcc code is not instrumented and the GPU is not what they test.
option(VBM_SANITIZE "Build the CPU parts with -fsanitize=address,undefined (needs VBM_CUDA=OFF)" OFF)
option(VBM_FUZZ "Build the libFuzzer targets of tests/fuzz, sanitized (clang; needs VBM_CUDA=OFF)" OFF)

if(VBM_SANITIZE OR VBM_FUZZ)
  if(VBM_HAVE_CUDA)
    message(FATAL_ERROR "vbm-fluid: VBM_SANITIZE/VBM_FUZZ instrument the CPU parts only: configure with -DVBM_CUDA=OFF")
  endif()
  set(_vbm_san -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  if(VBM_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
      message(FATAL_ERROR "vbm-fluid: VBM_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
    endif()
    # Coverage instrumentation for all our code; the fuzz targets themselves link -fsanitize=fuzzer.
    list(APPEND _vbm_san -fsanitize=fuzzer-no-link)
  endif()
  add_compile_options(${_vbm_san}) # CXX only: the project enables no other language here
  add_link_options(-fsanitize=address,undefined)
  message(STATUS "vbm-fluid: sanitized build (${_vbm_san})")
endif()
