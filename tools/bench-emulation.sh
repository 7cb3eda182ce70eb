#!/usr/bin/env bash
# How fast a NIC can this machine emulate faithfully? Measures block 4-2-2 at 16 MiB (8 ranks,
# 3 nodes) on the emulated cluster at several NIC rates and prints the median time against the
# alpha-beta bound of the shaped links, 2(N-1) * (S/N) / rate. Where the ratio climbs, the CPU, not
# the shaped NIC, sets the pace. Needs root and a build; about 2 minutes.
#
# usage: tools/bench-emulation.sh [RATE_Mbps ...]     (default: 100 200 400 800 1600)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(100 200 400 800 1600)
work=$(mktemp -d /tmp/ringsim-bench-emulation-XXXXXX)
trap 'rm -rf "$work"' EXIT

printf '%10s %10s %10s %8s\n' NIC_Mbps median_s bound_s ratio
for rate in "${rates[@]}"; do
  cat >"$work/topology.json" <<JSON
{ "racks": [ { "nodes": [ { "name": "node", "count": 3, "gpus": 4, "nic": { "bandwidth": "${rate}Mbps", "latency": "0us" } } ] } ] }
JSON
  cat >"$work/scenario.json" <<JSON
{ "name": "emulation-limit", "topology": "topology.json", "placements": ["4-2-2"], "sizes": ["16MiB"], "iterations": 3, "warmup": 1 }
JSON
  "$root/build/ringsim" measure "$work/scenario.json" --emulated --beyond-emulation-limit --quiet --json "$work/r.json" >/dev/null
  median=$(sed -n 's/.*"time_s": \([0-9.e+-]*\).*/\1/p' "$work/r.json" | head -n1)
  awk -v rate="$rate" -v t="$median" 'BEGIN {
    bound = 2 * 7 * (16 * 1048576 / 8) / (rate * 1e6 / 8)
    printf "%10d %10.3f %10.3f %8.2f\n", rate, t, bound, t / bound }'
done
