#!/usr/bin/env bash
# Re-makes every trace in this directory on the emulated cluster of this machine. Needs root and a
# build (tools/build.sh); takes about 20 minutes on 2 cores. Run nothing else meanwhile: the ranks
# share the machine's cores, so other load shows up in the times.
# Each trace's "source.command" is the exact command that made it, relative to the repository root.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
traces=validate/traces/emulated

measure() {  # measure TRACE.json SCENARIO.json [ringsim measure options]
  local trace=$1 scenario=$2
  shift 2
  echo "== $trace"
  build/ringsim measure "$scenario" --emulated "$@" --json "$traces/$trace"
}

# The flagship question at two NIC rates the machine emulates faithfully.
measure locality-200M.json scenarios/emulated/locality-200M.json
measure locality-100M.json scenarios/emulated/locality-100M.json
# Scaling: 2, 4 and 8 ranks over two nodes.
measure scaling-200M.json scenarios/emulated/scaling-200M.json
# The anomaly experiment: NICs fast enough (2 Gbit/s) that per-process CPU is the limit.
measure anomaly-2G-uncapped.json scenarios/emulated/anomaly-2G.json --beyond-emulation-limit
measure anomaly-2G-cpu0.2.json scenarios/emulated/anomaly-2G.json --beyond-emulation-limit --rank-cpu 0.2
measure anomaly-2G-cpu0.1.json scenarios/emulated/anomaly-2G.json --beyond-emulation-limit --rank-cpu 0.1
