#!/usr/bin/env bash
# Sets up what is missing, builds, and runs the main program. Until the vbm-fluid app
# exists that is vbm-check on the built-in sphere shell; arguments are passed on.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
vbm_build -DBUILD_TESTING=OFF
exec "$root/build/bin/vbm-check" "$@"
