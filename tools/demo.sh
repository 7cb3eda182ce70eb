#!/usr/bin/env bash
# Quick start: install what is missing, build, and simulate the flagship question:
# 8 ranks on 3 nodes of one rack, placed 4-2-2 and 4-3-1, in block and cyclic rank order.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

"$root/tools/build.sh"
echo
"$root/build/ringsim" run "$root/scenarios/locality-4-2-2-vs-4-3-1.json" --json "$root/build/locality-results.json"
echo
echo "Results JSON: build/locality-results.json. The findings above answer the question; docs/tutorial.md, \"Reading the flagship result\", explains how."
