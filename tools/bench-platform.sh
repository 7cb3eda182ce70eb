#!/usr/bin/env bash
# The platform at scale: for racks of N single-GPU nodes (10 GbE), the size of the platform plan that
# `ringsim run` loads through libringsim-platform.so and of the Full-routed XML `ringsim platform -o
# FILE.xml` writes (XML only up to 1024 nodes: it grows as N^2), SimGrid's time to load each
# (tests' route_dump --summary: engine start, platform load, host and link count), and the time of
# `ringsim analyze` on a ring of one rank per node (placement 1xN).
# Then the same for rail fabrics of N nodes of 8 GPUs and 8 NICs (topology-format.md, "Rail-optimized
# fabrics"), whose XML routes every GPU pair (up to 32 nodes) and whose library routes them from the plan.
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
# Plan size and library load of TOPOLOGY (LABEL), and its XML's when WITH_XML is yes.
measure() {
  local label=$1 t=$2 with_xml=$3
  "$ringsim" platform "$t" -o "$work/plan.json"
  echo "$label: plan $(stat -c %s "$work/plan.json") bytes; library load: $(RINGSIM_PLATFORM_PLAN="$work/plan.json" timed "$dump" --summary "$library")"
  if [ "$with_xml" = yes ]; then
    "$ringsim" platform "$t" -o "$work/platform.xml"
    echo "$label: XML $(stat -c %s "$work/platform.xml") bytes; XML load: $(timed "$dump" --summary "$work/platform.xml")"
    rm -f "$work/platform.xml"
  fi
}
for n in 1024 4096; do
  measure "$n nodes" "$(topology $n)" "$([ "$n" -le 1024 ] && echo yes || echo no)"
done
for n in 4096 65536; do
  t=$(topology $n)
  echo "ringsim analyze, $n ranks (1 per node): $(timed "$ringsim" analyze "$t" --placement "1x$n")"
done
rails() {
  printf '{"name": "rails-%s", "rails": {"oversubscription": 4}, "racks": [{"name": "su0", "nodes": [{"name": "node", "count": %s, "gpus": 8, "nics": 8, "intra": {"kind": "nvlink"}}]}]}\n' "$1" "$1" > "$work/rails-$1.json"
  echo "$work/rails-$1.json"
}
for n in 32 512; do
  measure "rails, $n nodes x 8 GPUs" "$(rails $n)" "$([ "$n" -le 32 ] && echo yes || echo no)"
done
