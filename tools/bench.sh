#!/usr/bin/env bash
# Benchmark: wall time and peak anonymous memory (RssAnon, summed over ringsim, smpirun and smpimain)
# of one 64 MiB ring allreduce simulated at 64, 256 and 512 ranks (8 GPUs per node, 10 GbE, block
# placement, 1 iteration, no warm-up). RssAnon, not max RSS: SMPI's shared-malloc pages are mapped
# once per rank and max RSS would count them again for every mapping.
#
# usage: tools/bench.sh [RANKS ...]      (default: 64 256 512; the build must exist: tools/build.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ringsim=$root/build/ringsim
[ -x "$ringsim" ] || { echo "bench: $ringsim not built; run tools/build.sh first" >&2; exit 2; }
ranks_list=("$@")
[ ${#ranks_list[@]} -gt 0 ] || ranks_list=(64 256 512)
gpus_per_node=8
work=$(mktemp -d /tmp/ringsim-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT

rss_anon_kib() {  # sum of RssAnon over the processes whose command line names the bench directory
  local total=0 pid value
  for pid in $(pgrep -f "$work" || true); do
    value=$(awk '/^RssAnon:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    total=$((total + ${value:-0}))
  done
  echo "$total"
}

printf '%6s %8s %14s %10s %16s\n' ranks nodes simulated_s wall_s peak_RssAnon_MiB
for ranks in "${ranks_list[@]}"; do
  if [ $((ranks % gpus_per_node)) -ne 0 ]; then echo "bench: $ranks is not a multiple of $gpus_per_node" >&2; exit 2; fi
  nodes=$((ranks / gpus_per_node))
  cat >"$work/topology-$ranks.json" <<JSON
{ "name": "bench-$ranks", "racks": [ { "nodes": [ { "name": "node", "count": $nodes, "gpus": $gpus_per_node,
  "nic": { "bandwidth": "10Gbps", "latency": "1us" } } ] } ] }
JSON
  placement=$(printf "${gpus_per_node}-%.0s" $(seq "$nodes")); placement=${placement%-}
  cat >"$work/scenario-$ranks.json" <<JSON
{ "name": "bench-$ranks", "topology": "topology-$ranks.json", "placements": ["$placement"],
  "sizes": ["64MiB"], "iterations": 1, "warmup": 0 }
JSON
  peak=0
  start=$(date +%s.%N)
  "$ringsim" run "$work/scenario-$ranks.json" --quiet --jobs 1 --json "$work/result-$ranks.json" --out "$work/run-$ranks" >/dev/null &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    now=$(rss_anon_kib); [ "$now" -gt "$peak" ] && peak=$now
    sleep 0.05
  done
  wait "$pid"
  wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  simulated=$(sed -n 's/.*"time_s": \([0-9.e+-]*\).*/\1/p' "$work/result-$ranks.json" | head -n1)
  printf '%6d %8d %14.6f %10.2f %16.1f\n' "$ranks" "$nodes" "$simulated" "$wall" "$(awk -v k="$peak" 'BEGIN { print k / 1024 }')"
done
