#!/usr/bin/env bash
# The platform at scale: for racks of N single-GPU nodes (10 GbE), the size of the platform plan that
# `ringsim run` loads through libringsim-platform.so and of the Full-routed XML `ringsim platform -o
# FILE.xml` writes (XML only up to 1024 nodes: it grows as N^2), SimGrid's time to load each
# (tests' route_dump --summary: engine start, platform load, host and link count), and the time of
# `ringsim analyze` on a ring of one rank per node (placement 1xN).
# usage: tools/bench-platform.sh [BUILD_DIR]   (default build/; needs ringsim, the platform library
#        and ringsim_route_dump built)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
ringsim=$build/ringsim
library=$build/libringsim-platform.so
dump=$build/tests/ringsim_route_dump
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
timed() { /usr/bin/time -f '%e s wall, %U s user, %S s sys, %M KB' "$@" 2>&1 >/dev/null | tail -1; }
topology() {
  printf '{"name": "rack-%s", "racks": [{"name": "rack0", "nodes": [{"name": "node", "count": %s, "gpus": 1}]}]}\n' "$1" "$1" > "$work/rack-$1.json"
  echo "$work/rack-$1.json"
}
for n in 1024 4096; do
  t=$(topology $n)
  "$ringsim" platform "$t" -o "$work/plan-$n.json"
  echo "$n nodes: plan $(stat -c %s "$work/plan-$n.json") bytes; library load: $(RINGSIM_PLATFORM_PLAN="$work/plan-$n.json" timed "$dump" --summary "$library")"
  if [ "$n" -le 1024 ]; then
    "$ringsim" platform "$t" -o "$work/platform-$n.xml"
    echo "$n nodes: XML $(stat -c %s "$work/platform-$n.xml") bytes; XML load: $(timed "$dump" --summary "$work/platform-$n.xml")"
    rm -f "$work/platform-$n.xml"
  fi
done
for n in 4096 65536; do
  t=$(topology $n)
  echo "ringsim analyze, $n ranks (1 per node): $(timed "$ringsim" analyze "$t" --placement "1x$n")"
done
