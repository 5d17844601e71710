# SPDX-License-Identifier: Apache-2.0
# Sourced by the build scripts: vbm_progress TAG LOG reads a build's output (ninja's "[N/M] ..."
# lines), appends every line to LOG, and prints "[TAG] N/M build steps started (S s)" on stderr
# once a minute, also while one long step runs, so a build is never silent for long.
# Use: cmake --build ... 2>&1 | vbm_progress TAG LOG
vbm_progress() {
  local tag="$1" log="$2" line status="0/?" start=$SECONDS last=$SECONDS rc
  while true; do
    if IFS= read -r -t 5 line; then
      printf '%s\n' "$line" >>"$log"
      [[ "$line" =~ ^\[([0-9]+/[0-9]+)\] ]] && status=${BASH_REMATCH[1]}
    else
      rc=$?
      if ((rc <= 128)); then # the end of the output (a timeout reads as above 128)
        [ -n "$line" ] && printf '%s\n' "$line" >>"$log"
        break
      fi
    fi
    if ((SECONDS - last >= 60)); then
      echo "[$tag] $status build steps started ($((SECONDS - start)) s)" >&2
      last=$SECONDS
    fi
  done
}
