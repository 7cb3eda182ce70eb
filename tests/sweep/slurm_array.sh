#!/usr/bin/env bash
# `ringsim sweep run --slurm` on a real Slurm: a single-node cluster on this machine started by
# tools/slurm-local.sh (slurmctld, slurmd and munged with a configuration, key, state and spool under a
# temporary directory, on ports of their own), a 20-case sweep submitted as a job array of 5 tasks,
# cancelled midway with scancel, submitted again (only the shards not done), merged, and compared byte
# for byte with the same sweep run locally. tools/slurm-local.sh installs Debian's Slurm and munge when
# root and missing; exit 77 (skipped, with the reason) when not root. The daemons are stopped on every
# exit path.
set -euo pipefail
ringsim=$1
here=$(cd "$(dirname "$0")" && pwd)
cluster_tool=$here/../../tools/slurm-local.sh
fail() { echo "FAIL: $*" >&2; exit 1; }

work=$(mktemp -d)
cleanup() {
  "$cluster_tool" stop "$work/cluster"
  rm -rf "$work"
}
trap cleanup EXIT
status=0
"$cluster_tool" start "$work/cluster" >"$work/start.txt" || status=$?
[ "$status" -ne 77 ] || { cat "$work/start.txt"; exit 77; }
[ "$status" -eq 0 ] || fail "tools/slurm-local.sh start: exit $status: $(cat "$work/start.txt")"
export SLURM_CONF=$work/cluster/slurm.conf

wait_for_array() {  # until squeue lists no task of the job, at most 90 s
  for _ in $(seq 180); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  fail "job $1 still queued after 90 s: $(squeue -j "$1")"
}

sweep=$here/slurm-sweep.json
"$ringsim" sweep run "$sweep" --out "$work/local" --shards 5 --quiet
"$ringsim" sweep merge "$work/local" -o "$work/local.json" 2>/dev/null

# Submit; once one shard is done, cancel the array; then submit what is left.
"$ringsim" sweep run "$sweep" --out "$work/slurm" --shards 5 --slurm -- --time=5 >"$work/submit.txt"
job=$(cat "$work/slurm/slurm/job-id")
grep -q "submitted job array $job (5 of 5 shards): sbatch --parsable --array=0-4 --time=5" "$work/submit.txt" ||
  fail "submission: $(cat "$work/submit.txt")"
for _ in $(seq 180); do
  ls "$work/slurm"/shard-*.json >/dev/null 2>&1 && break
  sleep 0.5
done
scancel "$job"
wait_for_array "$job"
"$ringsim" sweep status "$work/slurm" >"$work/status.txt"
grep -q "^slurm job array $job" "$work/status.txt" || fail "status names no job: $(cat "$work/status.txt")"
done_shards=$(ls "$work/slurm"/shard-*.json 2>/dev/null | wc -l)
echo "after scancel: $done_shards of 5 shards done"
for f in "$work/slurm"/shard-*.json; do python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f" || fail "$f is not whole"; done

"$ringsim" sweep run "$sweep" --out "$work/slurm" --slurm >"$work/resubmit.txt"
if [ "$done_shards" -lt 5 ]; then
  job=$(cat "$work/slurm/slurm/job-id")
  grep -q "submitted job array $job ($((5 - done_shards)) of 5 shards)" "$work/resubmit.txt" || fail "resubmission: $(cat "$work/resubmit.txt")"
  wait_for_array "$job"
fi
"$ringsim" sweep status "$work/slurm" | grep -Eq "^done +5 shards +20 cases" || fail "not every shard done: $("$ringsim" sweep status "$work/slurm"; tail -5 "$work"/slurm/slurm/*.log)"
"$ringsim" sweep merge "$work/slurm" -o "$work/slurm.json" 2>/dev/null
cmp "$work/local.json" "$work/slurm.json" || fail "the Slurm array's merged results differ from the local run's"
echo "slurm: 20 cases as a 5-task array, cancelled midway and resubmitted, merged byte-identical to the local run"
