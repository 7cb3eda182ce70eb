#!/usr/bin/env bash
# Installs missing packages, configures and builds ringsim into build/ (or $RINGSIM_BUILD_DIR).
# Extra arguments go to cmake's configure step, e.g. tools/build.sh -DRINGSIM_SANITIZE=ON.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RINGSIM_BUILD_DIR:-$root/build}

"$root/tools/bootstrap.sh"
# Unity build (16 files per compiler run): every file parses nlohmann/json, fmt and doctest and
# instantiates the same templates, so batching them cuts the compilers' CPU time by about 2.4x (docs/layout.md,
# "Build"). Pass -DCMAKE_UNITY_BUILD=OFF for one file per compiler run (e.g. to check
# that each file includes what it uses).
# Ninja compiles a target's files as soon as their inputs exist, without waiting for the libraries the
# target links to be linked (Make does wait), so both cores stay busy across the chain of libraries.
# A build folder configured before keeps its generator (CMake refuses to change it).
generator=()
[ -f "$build/CMakeCache.txt" ] || generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRINGSIM_WERROR=ON \
  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 "$@" >/dev/null
cmake --build "$build" -j "$(nproc)"
