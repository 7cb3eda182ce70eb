#!/usr/bin/env bash
# A sweep over two topologies (4 cases, seconds): the merged results name both topologies and each
# row's, read back by `ringsim report`, whose plots and ranking keep the topologies apart.
set -euo pipefail
ringsim=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$ringsim" sweep run "$here/two-topologies-sweep.json" --out "$work/dir" --shards 2 --quiet
"$ringsim" sweep merge "$work/dir" -o "$work/merged.json" 2>/dev/null
python3 - "$work/merged.json" "$here" <<'PY' || fail "the merged results lost a topology"
import json, sys
merged = json.load(open(sys.argv[1]))
# The files as the sweep resolves them: relative to the sweep file.
topologies = [f"{sys.argv[2]}/../../topologies/{name}.json" for name in ("seed-rack", "cloud-vm-pair")]
assert merged["topologies"] == topologies, merged.get("topologies")
rows = merged["results"]
assert len(rows) == 8, len(rows)  # 2 topologies x 2 placements x 2 sizes
assert [r["topology"] for r in rows] == [t for t in topologies for _ in range(4)], [r.get("topology") for r in rows]
assert all("case" not in r for r in rows)
# The same placement is slower behind the cloud's 1 Gbit/s NICs than on the rack's 10 Gbit/s ones.
time = {(r["topology"], r["placement"], r["bytes"]): r["time_s"] for r in rows}
assert time[(topologies[1], "2-1", 262144)] > time[(topologies[0], "2-1", 262144)], time
PY

# ringsim report: a panel per topology (N = 3 and N = 2 ranks on each), the ranking per topology.
"$ringsim" report "$work/merged.json" -o "$work/report.html" >"$work/report.txt"
for topology in seed-rack cloud-vm-pair; do
  for ranks in 2 3; do
    grep -q "N = $ranks ranks, $topology" "$work/report.html" || fail "the report has no panel N = $ranks ranks, $topology"
  done
done
echo "sweep over two topologies: merged, read back and reported per topology"
