#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer, ASan + UBSan) of every reader ringsim has: docs/testing.md, "Fuzzing".
#
# usage: tools/fuzz.sh [TARGET ...] [-t SECONDS] [-j JOBS]
#   TARGET   scenario sweep topology model results units trace_nccl_tests trace_osu trace_imb
#            trace_horovod_timeline trace_ringsim_results simgrid_xml timeline import_nccl_xml import_nvidia_smi_topo
#            import_nccl_info import_ibstat import_slurm_topology (default: all, one after the other)
#   -t       seconds per target (default 60)
#   -j       parallel fuzzing processes per target (default 1)
# Builds build-fuzz/ with clang when needed. Each target starts from its committed corpus
# (tests/fuzz/corpus/TARGET/) and the fixtures; inputs that add coverage are merged back into the
# committed corpus (minimised, `-merge=1`) at the end; a finding is saved as build-fuzz/findings/TARGET-*,
# the other targets still run, and the script ends with one line per finding (its target and file, the
# last lines of the output) and status 1.
#
# tools/fuzz.sh --run BINARY CORPUS SECONDS: what CTest runs: replay CORPUS, then fuzz SECONDS more
# with new inputs kept in a scratch directory (the committed corpus is not changed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" = --run ]; then
  binary=$2; corpus=$3; seconds=$4
  dict=$(dirname "$corpus")/../$(basename "$corpus").dict  # tests/fuzz/TARGET.dict for corpus/TARGET
  if [ -f "$dict" ]; then dict=(-dict="$dict"); else dict=(); fi
  scratch=$(mktemp -d /tmp/ringsim-fuzz-XXXXXX)
  trap 'rm -rf "$scratch"' EXIT
  mkdir -p "$scratch/new"
  # -timeout: an input taking over 10 s is a hang; -rss_limit_mb: over 2 GB is a finding. TMPDIR: the
  # targets that read a path write their input under the temporary directory, which goes with the scratch.
  TMPDIR="$scratch" "$binary" -timeout=10 -rss_limit_mb=2048 -max_total_time="$seconds" -print_final_stats=1 "${dict[@]}" \
    -artifact_prefix="$scratch/" "$scratch/new" "$corpus"
  exit 0
fi

targets=(); seconds=60; jobs=1
all=(scenario sweep topology model results units trace_nccl_tests trace_osu trace_imb trace_horovod_timeline trace_ringsim_results
     simgrid_xml timeline import_nccl_xml import_nvidia_smi_topo import_nccl_info import_ibstat import_slurm_topology)
while [ $# -gt 0 ]; do
  case $1 in
    -t) seconds=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -h|--help) sed -n '/^# usage/,/^# tools/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) printf '%s\n' "${all[@]}" | grep -qx "$1" || { echo "fuzz.sh: unknown target $1 (one of: ${all[*]})" >&2; exit 2; }
       targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (apt-get install clang)" >&2; exit 2; }

build=$root/build-fuzz
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DRINGSIM_SANITIZE=ON -DRINGSIM_FUZZ=ON -DRINGSIM_WITH_OPENMPI=OFF >/dev/null
fi
cmake --build "$build" -j "$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null
mkdir -p "$build/findings"

findings=()
for target in "${targets[@]}"; do
  corpus=$root/tests/fuzz/corpus/$target
  work=$build/fuzz-work/$target
  mkdir -p "$corpus" "$work" "$work.tmp"  # .tmp: where targets that read a path write their input (TMPDIR)
  echo "== $target: ${seconds} s"
  parallel=()
  [ -f "$root/tests/fuzz/$target.dict" ] && parallel+=(-dict="$root/tests/fuzz/$target.dict")  # its dictionary
  [ "$jobs" -gt 1 ] && parallel+=(-jobs="$jobs" -workers="$jobs")  # workers log to fuzz-N.log in $work
  if ! (cd "$work" && TMPDIR="$work.tmp" "$build/tests/fuzz/fuzz_$target" -timeout=10 -rss_limit_mb=2048 -max_total_time="$seconds" \
      "${parallel[@]}" -print_final_stats=1 -artifact_prefix="$build/findings/$target-" "$work" "$corpus" \
      2>"$build/fuzz-work/$target.log"); then
    found=$(ls -t "$build/findings/$target-"* | head -1)
    echo "fuzz.sh: $target found an input that breaks the contract: $found" >&2
    tail -n 30 "$build/fuzz-work/$target.log" >&2
    findings+=("$target $found")
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/fuzz-work/$target.log" | sed 's/^/   /' || true
  # Keep only inputs that add coverage: the committed corpus stays small.
  TMPDIR="$work.tmp" "$build/tests/fuzz/fuzz_$target" -merge=1 "$corpus" "$work" >/dev/null 2>&1 || true
  echo "   corpus: $(ls "$corpus" | wc -l) inputs"
done
# The findings last, where a reader of the output looks: replay one with build-fuzz/tests/fuzz/fuzz_TARGET FILE.
for finding in "${findings[@]}"; do
  echo "fuzz.sh: finding: target ${finding%% *}, input ${finding#* }" >&2
done
[ ${#findings[@]} -eq 0 ]
