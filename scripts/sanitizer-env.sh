# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/sanitize.sh and scripts/fuzz.sh: the sanitizer runtime options.
# Every sanitizer report ends the process with exit code 86, which no program of ours uses
# (0 ok, 1 runtime failure, 2 bad input), so a test that checks an exit code fails on it; the
# report goes to stderr, so a test that checks stderr fails on it too. Children (vbm-fluid,
# vbm-check run by the tests) inherit these variables.
# LeakSanitizer reads tests/lsan.supp: leaks inside assimp, Mesa's lavapipe, LLVM and the Vulkan
# loader and layers only (docs/testing.md says why); a leak in our code still fails.
vbm_sanitizer_env() {
  local root="$1"
  export ASAN_OPTIONS="exitcode=86:halt_on_error=1:detect_leaks=1:strict_init_order=1:check_initialization_order=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  export UBSAN_OPTIONS="exitcode=86:halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
  export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  local s
  for s in llvm-symbolizer /usr/lib/llvm-14/bin/llvm-symbolizer; do
    if command -v "$s" >/dev/null; then
      ASAN_SYMBOLIZER_PATH=$(command -v "$s")
      export ASAN_SYMBOLIZER_PATH
      break
    fi
  done
}
