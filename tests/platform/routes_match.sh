#!/usr/bin/env bash
# The routes of one topology under one model, three ways, must be equal link by link (names, directions,
# order) with equal latencies: SimGrid on the generated XML (every node pair routed), SimGrid on
# the platform library (star-routed racks, what simulations load; its per-node copies of a
# non-blocking switch, "rack0-switch@node3-out", are read as the switch), and the platform plan (what
# the analysis reads).
# usage: routes_match.sh RINGSIM ROUTE_DUMP PLATFORM_LIBRARY TOPOLOGY.json 'MODEL JSON'
set -euo pipefail
ringsim=$1 dump=$2 library=$3 topology=$4 model=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%s\n' "$model" > "$work/model.json"
"$ringsim" platform "$topology" --model "$work/model.json" -o "$work/platform.xml"
"$ringsim" platform "$topology" --model "$work/model.json" -o "$work/plan.json"
# Routes and host and link counts from one load each (every SimGrid process start costs ~0.1 s of CPU).
"$dump" --summary-to "$work/xml.summary" "$work/platform.xml" > "$work/xml.routes"
RINGSIM_PLATFORM_PLAN="$work/plan.json" "$dump" --summary-to "$work/library.summary" "$library" > "$work/library.routes"
"$dump" --plan "$work/plan.json" > "$work/plan.routes"
pairs=$(wc -l < "$work/xml.routes")
if [ "$pairs" -lt 1 ]; then echo "no route printed for $topology"; exit 1; fi
status=0
xml_summary=$(cat "$work/xml.summary")
library_summary=$(cat "$work/library.summary")
[ "$xml_summary" = "$library_summary" ] || { echo "XML has $xml_summary, the library $library_summary"; status=1; }
diff -u "$work/xml.routes" "$work/library.routes" > "$work/diff" || { echo "XML and library routes differ:"; head -20 "$work/diff"; status=1; }
diff -u "$work/xml.routes" "$work/plan.routes" > "$work/diff" || { echo "XML and plan routes differ:"; head -20 "$work/diff"; status=1; }
[ $status -eq 0 ] && echo "$pairs routes equal in XML, library and plan: $(basename "$topology") under $model"
exit $status
