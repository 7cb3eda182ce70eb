#!/usr/bin/env bash
# `ringsim sweep` end to end on a sweep of 18 small cases (seconds): plan, one shard, a failed shard,
# resume, merge; the merged results equal `ringsim run --json` of the same cases, and equal a run in
# one shard, byte for byte; SIGTERM midway leaves only whole files and a re-run completes the sweep.
set -euo pipefail
ringsim=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sweep=$here/small-sweep.json
fail() { echo "FAIL: $*" >&2; exit 1; }

# plan: 9 placements (2-1, and 4 partitions of 4 on 3 nodes x 2 orders) x 2 algorithms
"$ringsim" sweep plan "$sweep" --jobs 2 >"$work/plan.txt"
grep -q "= 18 cases, each over 2 sizes (36 result rows)" "$work/plan.txt" || fail "plan: $(cat "$work/plan.txt")"
grep -q "^estimated wall time: " "$work/plan.txt" || fail "plan gives no estimate"

# The reference: the same cases as a scenario.
"$ringsim" run "$here/small-scenario.json" --json "$work/run.json" --quiet >/dev/null

# Shard 1 of 3, then shard 0 with a broken smpirun (it fails and says so), then status.
"$ringsim" sweep run "$sweep" --out "$work/a" --shard 1/3 --quiet
test -f "$work/a/shard-0001-of-0003.json" || fail "shard 1 wrote no results file"
if RINGSIM_SMPIRUN=/bin/false "$ringsim" sweep run "$sweep" --out "$work/a" --shard 0/3 --quiet 2>"$work/fail.txt"; then
  fail "a shard whose cases fail exits 0"
fi
test -f "$work/a/shard-0000-of-0003.failed" || fail "the failed shard left no .failed file"
test ! -f "$work/a/shard-0000-of-0003.json" || fail "the failed shard wrote results"
"$ringsim" sweep status "$work/a" >"$work/status.txt"
grep -Eq "^done +1 shards +6 cases" "$work/status.txt" || fail "status: $(cat "$work/status.txt")"
grep -Eq "^failed +1 shards +6 cases  \(shards 0\)" "$work/status.txt" || fail "status: $(cat "$work/status.txt")"
grep -Eq "^pending +1 shards +6 cases  \(shards 2\)" "$work/status.txt" || fail "status: $(cat "$work/status.txt")"
"$ringsim" sweep merge "$work/a" -o "$work/early.json" 2>"$work/early.txt" && fail "merge of an unfinished sweep exits 0"
test ! -e "$work/early.json" || fail "merge of an unfinished sweep wrote a file"

# Resume: the failed and the pending shard run, the finished one is skipped (its file untouched).
before=$(stat -c %Y.%s "$work/a/shard-0001-of-0003.json")
"$ringsim" sweep run "$sweep" --out "$work/a" --jobs 2 2>"$work/resume.txt"
grep -q "18 cases in 3 shards; 2 to run (1 already done)" "$work/resume.txt" || fail "resume: $(cat "$work/resume.txt")"
grep -q "12/12 cases" "$work/resume.txt" || fail "no progress line reached 12/12: $(cat "$work/resume.txt")"
test "$before" = "$(stat -c %Y.%s "$work/a/shard-0001-of-0003.json")" || fail "the finished shard was run again"
test ! -e "$work/a/shard-0000-of-0003.failed" || fail "the re-run shard kept its .failed file"
"$ringsim" sweep merge "$work/a" -o "$work/a.json"

# ringsim report reads the merged results as any results JSON.
"$ringsim" report "$work/a.json" -o "$work/report.html" >/dev/null 2>&1 || fail "ringsim report cannot read the merged results"
test -s "$work/report.html" || fail "ringsim report wrote nothing"

# One shard, locally: byte-identical merged results.
"$ringsim" sweep run "$sweep" --out "$work/b" --shards 1 --quiet
"$ringsim" sweep merge "$work/b" -o "$work/b.json"
cmp "$work/a.json" "$work/b.json" || fail "3 shards and 1 shard merge differently"

# The same rows, model and name as `ringsim run --json` (which adds its findings, question, topology and
# the topology's assumed values).
python3 - "$work/run.json" "$work/a.json" <<'PY' || fail "merged results differ from ringsim run --json"
import json, sys
run, merged = (json.load(open(f)) for f in sys.argv[1:])
for key in ("findings", "question", "topology", "assumed"):
    run.pop(key, None)
assert len(merged["results"]) == 36, len(merged["results"])
assert json.dumps(run, indent=2) == json.dumps(merged, indent=2)
PY

# SIGTERM midway: only whole shard files, no temporary file; a re-run finishes with the same results.
"$ringsim" sweep run "$sweep" --out "$work/c" --shards 6 --jobs 1 --quiet 2>/dev/null &
pid=$!
for _ in $(seq 100); do
  ls "$work/c"/shard-*.json >/dev/null 2>&1 && break
  sleep 0.1
done
kill -TERM "$pid"
wait "$pid" && fail "an interrupted run exits 0"
done_shards=$(ls "$work/c"/shard-*.json 2>/dev/null | wc -l)
test "$done_shards" -ge 1 -a "$done_shards" -lt 6 || fail "SIGTERM was not midway ($done_shards of 6 shards done)"
for f in "$work/c"/shard-*.json; do python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f" || fail "$f is not whole"; done
test -z "$(ls -A "$work/c" | grep -v -e '^sweep-manifest.json$' -e '^shard-....-of-0006.json$')" || fail "left behind: $(ls -A "$work/c")"
"$ringsim" sweep run "$sweep" --out "$work/c" --quiet
"$ringsim" sweep merge "$work/c" -o "$work/c.json"
cmp "$work/a.json" "$work/c.json" || fail "the interrupted and resumed sweep merges differently"

# A directory holds one sweep: another sweep file, or another shard count, is refused before running.
sed 's/"64KiB", "256KiB"/"64KiB"/' "$sweep" >"$work/other.json"
sed -i 's#"\.\./\.\./topologies#"'"$here"'/../../topologies#' "$work/other.json"
set +e
"$ringsim" sweep run "$work/other.json" --out "$work/a" --quiet 2>"$work/other.txt"; status=$?
"$ringsim" sweep run "$sweep" --out "$work/a" --shards 4 --quiet 2>"$work/shards.txt"; shards_status=$?
set -e
test $status -eq 2 && grep -q "holds the results of another sweep" "$work/other.txt" || fail "another sweep: $status $(cat "$work/other.txt")"
test $shards_status -eq 2 && grep -q "was split into 3 shards, not 4" "$work/shards.txt" || fail "shards: $(cat "$work/shards.txt")"
echo "sweep: plan, shard, failure, resume, merge, interruption: all as expected"
