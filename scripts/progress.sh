# SPDX-License-Identifier: Apache-2.0
# Sourced by the build scripts: vbm_progress TAG LOG reads a build's output (ninja's "[N/M] ..."
# lines), appends every line to LOG, and prints "[TAG] N/M build steps (Ms)" on stderr at most
# once a minute, so a long compile is never silent. Use: cmake --build ... 2>&1 | vbm_progress.
vbm_progress() {
  local tag="$1" log="$2" line start=$SECONDS last=$SECONDS
  while IFS= read -r line; do
    printf '%s\n' "$line" >>"$log"
    if [[ "$line" =~ ^\[([0-9]+)/([0-9]+)\] ]] && ((SECONDS - last >= 60)); then
      echo "[$tag] ${BASH_REMATCH[1]}/${BASH_REMATCH[2]} build steps ($((SECONDS - start)) s)" >&2
      last=$SECONDS
    fi
  done
}
