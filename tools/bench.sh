#!/usr/bin/env bash
# Benchmark: one allreduce (ring by default; 64 MiB, block placement, 10 GbE, 1 iteration, no warm-up) simulated by
# ringsim and by a naive baseline, side by side, for each rank count N and GPUs-per-node layout.
#
# The naive baseline is a plain `smpirun` of the same rank program (build/ringsim-rank-smpi.so) with
# SimGrid's defaults: privatization on, smpi/simulate-computation on, no clock preload, SMPI's own
# detached-send threshold. It uses the very platform, hostfile, model settings and rank options that
# ringsim passed (recorded through a stand-in smpirun), keeping only smpi/shared-malloc-blocksize
# (without it the run fails above ~256 ranks x 64 MiB with "Could not map folded virtual memory").
# Its simulated time differs from ringsim's: it charges the measured host CPU time of the rank code.
#
# Columns: wall time; CPU time (user + sys of the whole process tree, steadier than wall time on a
# shared machine); peak anonymous memory (RssAnon summed over every process of the run, sampled every
# 50 ms: SMPI's shared-malloc pages are mapped once per rank and max RSS would count them repeatedly).
# "> T s" means the baseline was stopped at its time limit. The output is a Markdown table; with
# --markdown it is the whole of docs/performance.md: what is measured, the exact command, the machine
# (CPU model, cores, memory, kernel, OS, SimGrid version) and the table.
#
# With -e, ringsim runs once per engine named (the model key "engine": auto, smpi, s4u, maestro), each
# with its own columns, and the baseline / engine ratio is given for each.
#
# usage: tools/bench.sh [--markdown] [-n "64 256 512 1024"] [-g "1 8"] [-s 64MiB] [-a ring] [-e "auto"]
#                       [-t BASELINE_LIMIT_S] [-T RINGSIM_LIMIT_S] [-B]   (the build must exist: tools/build.sh)
#   --markdown  print docs/performance.md (tools/bench.sh --markdown ... >docs/performance.md)
#   -h, --help  this help
#   -n  rank counts (default: 64 256 512 1024; 2048 and 4096 work too, e.g. -n "2048 4096" -t 60)
#   -g  GPUs per node, one row per layout (default: "1 8")
#   -s  buffer size (default: 64MiB)
#   -a  algorithm (default: ring; `ringsim run --help` lists them)
#   -e  engines ringsim runs, one set of columns each (default: auto; e.g. -e "s4u maestro")
#   -t  time limit of each baseline run in seconds (default: 300)
#   -T  time limit of each ringsim run in seconds (default: none)
#   -B  skip the baseline
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ringsim=$root/build/ringsim
rank_library=$root/build/ringsim-rank-smpi.so
[ -x "$ringsim" ] || { echo "bench: $ringsim not built; run tools/build.sh first" >&2; exit 2; }
[ -f "$rank_library" ] || { echo "bench: $rank_library not built; run tools/build.sh first" >&2; exit 2; }
smpirun=$(command -v smpirun) || { echo "bench: smpirun not found on PATH" >&2; exit 2; }

ranks_list="64 256 512 1024"; gpus_list="1 8"; size=64MiB; algorithm=ring; engines=auto; baseline_limit=300; ringsim_limit=0; baseline=1
command_line="tools/bench.sh $*"
# The command as one can paste it again: arguments with spaces or quotes in double quotes.
quoted_command="tools/bench.sh"
for arg in "$@"; do
  case $arg in
    *[\"\$\`\\]*) quoted_command+=" $(printf %q "$arg")" ;;
    *[[:space:]\']*) quoted_command+=" \"$arg\"" ;;
    *) quoted_command+=" $arg" ;;
  esac
done
# --markdown may stand anywhere; getopts reads the short options that remain.
markdown=0
options=()
for arg in "$@"; do
  case $arg in --markdown) markdown=1 ;; --help) options+=(-h) ;; *) options+=("$arg") ;; esac
done
set -- ${options[@]+"${options[@]}"}
usage() { sed -n '/^# usage/,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while getopts "n:g:s:a:e:t:T:Bh" option; do
  case $option in
    n) ranks_list=$OPTARG ;;
    g) gpus_list=$OPTARG ;;
    s) size=$OPTARG ;;
    a) algorithm=$OPTARG ;;
    e) engines=$OPTARG ;;
    t) baseline_limit=$OPTARG ;;
    T) ringsim_limit=$OPTARG ;;
    B) baseline=0 ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
for e in $engines; do
  case $e in auto|smpi|s4u|maestro) ;; *) echo "bench: unknown engine $e (auto, smpi, s4u, maestro)" >&2; exit 2 ;; esac
done
for n in $ranks_list; do
  for g in $gpus_list; do
    [ $((n % g)) -eq 0 ] || { echo "bench: $n ranks is not a multiple of $g GPUs per node" >&2; exit 2; }
  done
done

work=$(mktemp -d /tmp/ringsim-bench-XXXXXX)
[ -n "${RINGSIM_BENCH_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

# A stand-in smpirun that records ringsim's exact command (one argument per line) with copies of the
# hostfile and platform plan it names (ringsim deletes its own when it ends), then runs the real one.
# With RINGSIM_BENCH_RECORD_ONLY=1 it only records: how the baseline of an S4U-engine case is found.
cat >"$work/recording-smpirun" <<SH
#!/bin/sh
printf '%s\n' "\$@" >"\$RINGSIM_BENCH_RECORD"
mkdir -p "\$RINGSIM_BENCH_RECORD.d"
prev=
for arg in "\$@"; do [ "\$prev" = -hostfile ] && cp "\$arg" "\$RINGSIM_BENCH_RECORD.d/hostfile"; prev=\$arg; done
[ -n "\${RINGSIM_PLATFORM_PLAN:-}" ] && cp "\$RINGSIM_PLATFORM_PLAN" "\$RINGSIM_BENCH_RECORD.d/platform-plan.json"
[ -n "\${RINGSIM_BENCH_RECORD_ONLY:-}" ] && exit 0
exec "$smpirun" "\$@"
SH
chmod +x "$work/recording-smpirun"

rss_anon_kib() {  # sum of RssAnon over the processes whose command line names DIR
  local total=0 pid value
  for pid in $(pgrep -f "$1" || true); do
    value=$(awk '/^RssAnon:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    total=$((total + ${value:-0}))
  done
  echo "$total"
}

# measure TAG LIMIT_S COMMAND...: runs COMMAND in its own session under /usr/bin/time, samples the
# memory of every process naming $work/TAG, stops it after LIMIT_S seconds (0: never). Sets
# wall, cpu (empty when stopped), peak_mib and timed_out.
measure() {
  local tag=$1 limit=$2; shift 2
  local peak=0 now start pid
  start=$(date +%s.%N)
  setsid /usr/bin/time -o "$work/$tag.time" -f '%U %S' "$@" >"$work/$tag.out" 2>"$work/$tag.err" &
  pid=$!
  timed_out=0
  while kill -0 "$pid" 2>/dev/null; do
    now=$(rss_anon_kib "$work/$tag"); [ "$now" -gt "$peak" ] && peak=$now
    if [ "$limit" != 0 ] && awk -v a="$start" -v b="$(date +%s.%N)" -v t="$limit" 'BEGIN { exit !(b - a > t) }'; then
      timed_out=1
      kill -TERM -- "-$pid" 2>/dev/null || true
      sleep 1
      kill -KILL -- "-$pid" 2>/dev/null || true
      break
    fi
    sleep 0.05
  done
  wait "$pid" 2>/dev/null || status=$?
  wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  cpu=""
  [ "$timed_out" = 1 ] || cpu=$(awk '/^[0-9.]+ [0-9.]+$/ { printf "%.2f", $1 + $2 }' "$work/$tag.time" 2>/dev/null || true)
  peak_mib=$(awk -v k="$peak" 'BEGIN { printf "%.0f", k / 1024 }')
}

# The machine, as docs/performance.md states it: CPU model, cores, memory, kernel, OS.
machine_facts() {
  local cpu memory os
  cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
  memory=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
  os=$( (. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME") || uname -o)
  echo "${cpu:-unknown CPU}, $(nproc) cores, ${memory:-unknown memory}, Linux $(uname -r), $os"
}

# --markdown: the text of docs/performance.md above the table.
print_markdown_header() {
  cat <<MD
# Performance

How long ringsim takes to simulate one allreduce as the rank count grows, against a plain \`smpirun\`
of the same rank program. This file is the output of \`tools/bench.sh --markdown\`; run the command
below from the repository root, after \`tools/build.sh\`, to regenerate it on your machine. What makes
the simulation fast, and what limits it at scale: [engines.md](engines.md).

What one row measures: one $size \`$algorithm\` allreduce (10 GbE NICs, block placement, a
non-blocking switch, 1 iteration, no warm-up) on N ranks with G GPUs per node, simulated by
\`ringsim run\` (the engine it chose: \`smpi\`, or \`maestro\` from 256 ranks up; with \`-e\`, each engine named) and by the baseline: a plain
\`smpirun\` of the same rank program with SimGrid's defaults (privatization on, simulate-computation
on, no clock preload, SMPI's own detached-send threshold) on the platform, hostfile, model and rank
options ringsim used, keeping only \`smpi/shared-malloc-blocksize\`, without which it cannot map 256 or
more ranks × 64 MiB. The baseline's simulated time differs slightly: it charges the measured CPU time
of the rank code. Wall and CPU time (user + sys of the whole process tree: steadier than wall time on
a shared machine); peak memory is anonymous resident memory summed over every process of the run
(max RSS would count SMPI's shared pages once per rank). "> T" means stopped at the time limit T s.
Options (\`tools/bench.sh -h\`): \`-n\` rank counts, \`-g\` GPUs per node, \`-s\` size, \`-a\` algorithm, \`-e\` engines,
\`-t\` and \`-T\` time limits of the baseline and of ringsim, \`-B\` no baseline.

- Command: \`$quoted_command\`
- Machine: $(machine_facts)
- SimGrid $simgrid_version; measured $(date -u +%Y-%m-%d)

MD
}

json_field() {  # json_field FILE PYTHON_EXPRESSION_ON_d
  python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null || true
}

# The baseline's command from ringsim's recorded one: drop ringsim's levers, keep everything else.
baseline_command() {  # RECORD REPORT
  python3 - "$1" "$2" <<'PY'
import sys
args = open(sys.argv[1]).read().split("\n")[:-1]
levers = ("--cfg=smpi/simulate-computation:", "--cfg=smpi/send-is-detached-thresh:")
out, i = [], 0
while i < len(args):
    arg = args[i]
    if arg == "-no-privatize" or arg.startswith(levers):
        i += 1
        continue
    if arg == "-wrapper":  # the clock preload
        i += 2
        continue
    if arg == "--out" and i + 1 < len(args):
        out += [arg, sys.argv[2]]
        i += 2
        continue
    if arg == "--events" or arg == "--progress":
        i += 2
        continue
    if arg == "-hostfile" and i + 1 < len(args):
        out += [arg, sys.argv[1] + ".d/hostfile"]
        i += 2
        continue
    out.append(arg)
    i += 1
print("\n".join(out))
PY
}

simgrid_version=$(pkg-config --modversion simgrid 2>/dev/null || echo '?')
if [ "$markdown" = 1 ]; then
  print_markdown_header
else
  echo "Command: \`$command_line\` ($(date -u +%Y-%m-%d), $(nproc) cores, SimGrid $simgrid_version, $size $algorithm, 10 GbE, block placement)"
  echo
fi
# One set of columns per engine: "ringsim" alone for the default (auto), which names the engine it chose.
if [ "$engines" = auto ]; then
  header="| GPUs/node | ranks | engine | simulated s | ringsim wall s | ringsim CPU s | ringsim peak MiB |"
  rule="|---:|---:|:---|---:|---:|---:|---:|"
else
  header="| GPUs/node | ranks |"; rule="|---:|---:|"
  for e in $engines; do header+=" $e simulated s | $e wall s | $e CPU s | $e peak MiB |"; rule+="---:|---:|---:|---:|"; done
fi
header+=" baseline simulated s | baseline wall s | baseline CPU s | baseline peak MiB |"; rule+="---:|---:|---:|---:|"
if [ "$engines" = auto ]; then
  header+=" baseline / ringsim (wall) |"; rule+="---:|"
else
  for e in $engines; do header+=" baseline / $e (wall) |"; rule+="---:|"; done
fi
echo "$header"
echo "$rule"
for gpus in $gpus_list; do
  for ranks in $ranks_list; do
    nodes=$((ranks / gpus))
    tag=g$gpus-n$ranks
    cat >"$work/topology-$tag.json" <<JSON
{ "name": "bench-$tag", "racks": [ { "nodes": [ { "name": "node", "count": $nodes, "gpus": $gpus,
  "nic": { "bandwidth": "10Gbps", "latency": "1us" } } ] } ] }
JSON
    placement=$(printf "${gpus}-%.0s" $(seq "$nodes")); placement=${placement%-}
    cat >"$work/scenario-$tag.json" <<JSON
{ "name": "bench-$tag", "topology": "topology-$tag.json", "placements": ["$placement"],
  "algorithms": ["$algorithm"], "sizes": ["$size"], "iterations": 1, "warmup": 0 }
JSON
    rm -f "$work/record-$tag"
    row="| $gpus | $ranks |"
    walls=()
    for e in $engines; do
      run=$tag-$e
      echo "{\"engine\": \"$e\"}" >"$work/engine-$e.json"
      # ringsim's temporary directory (so its children's command lines name $work/ringsim-$run, which is
      # how their memory is found); no --out: per-step events would be recorded and gathered.
      mkdir -p "$work/ringsim-$run"
      measure "ringsim-$run" "$ringsim_limit" \
        env TMPDIR="$work/ringsim-$run" RINGSIM_SMPIRUN="$work/recording-smpirun" RINGSIM_BENCH_RECORD="$work/record-$tag" "$ringsim" run "$work/scenario-$tag.json" --quiet --jobs 1 --model "$work/engine-$e.json" --json "$work/ringsim-$run.json"
      if [ "$timed_out" = 1 ]; then
        r_sim="—"; engine="—"; r_wall="> $ringsim_limit"; r_cpu="—"
      elif [ ! -s "$work/ringsim-$run.json" ]; then
        echo "bench: ringsim ($e) failed at $ranks ranks ($gpus GPUs per node):" >&2; tail -n 15 "$work/ringsim-$run.err" >&2; exit 1
      else
        r_sim=$(json_field "$work/ringsim-$run.json" '"%.6f" % d["results"][0]["time_s"]')
        engine=$(json_field "$work/ringsim-$run.json" 'd["results"][0].get("engine", d.get("engine", "smpi"))')
        r_wall=$wall; r_cpu=$cpu
      fi
      walls+=("$r_wall")
      if [ "$engines" = auto ]; then row+=" $engine |"; fi
      row+=" $r_sim | $r_wall | $r_cpu | $peak_mib |"
    done
    b_sim="—"; b_wall="—"; b_cpu="—"; b_peak="—"
    if [ "$baseline" = 1 ] && [ ! -s "$work/record-$tag" ]; then
      # ringsim ran another engine: ask it for the smpirun command it would give (nothing runs).
      echo '{"engine": "smpi"}' >"$work/smpi-engine.json"
      RINGSIM_SMPIRUN="$work/recording-smpirun" RINGSIM_BENCH_RECORD="$work/record-$tag" RINGSIM_BENCH_RECORD_ONLY=1 \
        "$ringsim" run "$work/scenario-$tag.json" --quiet --jobs 1 --model "$work/smpi-engine.json" >/dev/null 2>&1 || true
    fi
    if [ "$baseline" = 1 ]; then
      if [ -s "$work/record-$tag" ]; then
        mapfile -t base_args < <(baseline_command "$work/record-$tag" "$work/baseline-$tag/report.json")
        mkdir -p "$work/baseline-$tag"
        # The baseline's processes carry $work/baseline-$tag in their command line (the report path),
        # which is how their memory is found.
        measure "baseline-$tag" "$baseline_limit" env RINGSIM_PLATFORM_PLAN="$work/record-$tag.d/platform-plan.json" "$smpirun" "${base_args[@]}"
        b_peak=$peak_mib
        if [ "$timed_out" = 1 ]; then
          b_wall="> $baseline_limit"
        elif [ -s "$work/baseline-$tag/report.json" ]; then
          b_sim=$(json_field "$work/baseline-$tag/report.json" '"%.6f" % d["sizes"][0]["times_s"][0]')
          b_wall=$wall; b_cpu=$cpu
        else
          b_wall="failed"
          echo "bench: the baseline failed at $ranks ranks ($gpus GPUs per node):" >&2; tail -n 5 "$work/baseline-$tag.err" >&2
        fi
      else
        b_wall="n/a"  # ringsim gave no smpirun command to replay
      fi
    fi
    row+=" $b_sim | $b_wall | $b_cpu | $b_peak |"
    for r_wall in "${walls[@]}"; do
      ratio="—"
      if [ "$r_wall" != "> $ringsim_limit" ]; then
        case $b_wall in
          ">"*) ratio=$(awk -v b="$baseline_limit" -v r="$r_wall" 'BEGIN { printf "> %.1f", b / r }') ;;
          [0-9]*) ratio=$(awk -v b="$b_wall" -v r="$r_wall" 'BEGIN { printf "%.1f", b / r }') ;;
        esac
      fi
      row+=" $ratio |"
    done
    echo "$row"
  done
done
[ "$markdown" = 1 ] && exit 0
echo
echo "Baseline: plain \`smpirun\` of the same rank program with SimGrid's defaults (privatization, simulate-computation on, no preload, default detached-send threshold), ringsim's platform, hostfile, model and rank options, and smpi/shared-malloc-blocksize:67108864."
