#!/usr/bin/env bash
# Install what is missing, build with warnings as errors, run every test (units, whole-program SMPI
# simulations, golden outputs) once with the ringsim command and unit tests built by clang with
# ASan+UBSan, with a few seconds of libFuzzer on every reader, then once on the normal (g++) build,
# which also runs the Open MPI twin of the rank program.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)

echo "== build (warnings are errors)"
"$root/tools/build.sh"

echo "== tests with AddressSanitizer + UBSan in the code outside SMPI, and libFuzzer on every reader"
# Built with clang, whose libFuzzer makes each reader's fuzz target a test too (docs/testing.md, "Bad input" and
# "Fuzzing"); the same build serves the sanitized tests, so the suite builds twice, not three times.
# The rank programs (never sanitized: they run inside SimGrid) are the normal build's.
CC=clang CXX=clang++ RINGSIM_BUILD_DIR="$root/build-sanitize" "$root/tools/build.sh" \
  -DRINGSIM_SANITIZE=ON -DRINGSIM_FUZZ=ON -DRINGSIM_WITH_OPENMPI=OFF -DRINGSIM_RANK_PROGRAMS_FROM="$root/build" \
  -DRINGSIM_WHOLE_PROGRAM_TESTS=OFF
# Every test but those whose time goes to SimGrid and to the rank program, neither of them sanitized:
# the whole-program simulation tests are not even built here (RINGSIM_WHOLE_PROGRAM_TESTS=OFF), and the
# page rendered in Chromium, the Slurm array, every shipped scenario, the corpus' imported topologies, the
# corpus diagnoses and the sharded sweep are left out: they run in the normal pass below, and here they
# would add a minute of simulation to the suite (docs/testing.md, "Running the tests"). The sanitized code
# they reach runs here on smaller inputs: the tesh goldens, the synthetic diagnoses, the sweep's golden.
unsanitized="^(report:|sweep: a Slurm|sweep: plan, run in shards|cli: every scenario in scenarios/|import: the corpus logs' imported|diagnosis: corpus )"
(cd "$root/build-sanitize" && ctest -j "$jobs" --output-on-failure --no-tests=error -E "$unsanitized")

echo "== all tests"
if [ "$(id -u)" -ne 0 ]; then
  echo "NOTE: not root: the emulated-cluster measurements (tests named 'measure: emulated ...') are skipped"
fi
cd "$root/build"
ctest -j "$jobs" --output-on-failure --no-tests=error
