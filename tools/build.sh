#!/usr/bin/env bash
# Installs missing packages, configures and builds ringsim into build/ (or $RINGSIM_BUILD_DIR).
# Extra arguments go to cmake's configure step, e.g. tools/build.sh -DRINGSIM_SANITIZE=ON.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RINGSIM_BUILD_DIR:-$root/build}

"$root/tools/bootstrap.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRINGSIM_WERROR=ON "$@" >/dev/null
cmake --build "$build" -j "$(nproc)"
