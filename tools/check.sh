#!/usr/bin/env bash
# Install what is missing, build with warnings as errors, run the unit tests under ASan+UBSan,
# then every test (units, whole-program SMPI simulations, golden outputs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)

echo "== build (warnings are errors)"
"$root/tools/build.sh"

echo "== unit tests under AddressSanitizer + UBSan (code outside SMPI)"
RINGSIM_BUILD_DIR="$root/build-sanitize" "$root/tools/build.sh" -DRINGSIM_SANITIZE=ON -DRINGSIM_WITH_OPENMPI=OFF
(cd "$root/build-sanitize" && ctest -j "$jobs" --output-on-failure -R '^unit: ')

echo "== all tests"
cd "$root/build"
ctest -j "$jobs" --output-on-failure
