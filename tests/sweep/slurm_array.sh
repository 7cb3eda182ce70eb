#!/usr/bin/env bash
# `ringsim sweep run --slurm` on a real Slurm: a single-node cluster on this machine (slurmctld, slurmd
# and munged with a configuration, key, state and spool written under a temporary directory, on ports
# of their own), a 20-case sweep submitted as a job array of 5 tasks, cancelled midway with scancel,
# submitted again (only the shards not done), merged, and compared byte for byte with the same sweep
# run locally. Installs Debian's slurmctld/slurmd/slurm-client/munge when root and missing; exit 77
# (skipped, with the reason) when not root. The daemons are stopped on every exit path.
set -euo pipefail
ringsim=$1
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || skip "the Slurm test starts slurmctld, slurmd and munged: run the suite as root"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null ||
   ! command -v sbatch >/dev/null; then
  echo "installing slurmctld slurmd slurm-client munge (apt-get)"
  apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge \
    >/dev/null 2>&1 || skip "apt-get could not install Slurm"
fi

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work"/{state,spool,munge}
chmod 700 "$work"/munge

# Two free TCP ports for slurmctld and slurmd.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

# munged with its own key and socket.
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --foreground --force --key-file="$work/munge/munge.key" --socket="$work/munge/socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/seed" \
  >"$work/munge/munged.out" 2>&1 &
pids+=($!)

host=$(hostname -s)
cpus=$(nproc)
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=ringsim-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
for _ in $(seq 50); do [ -S "$work/munge/socket" ] && break; sleep 0.1; done
slurmctld -D -i -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$work/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -Eq '^idle' && break
  sleep 0.5
done
sinfo -h -o %T | grep -Eq '^idle' || fail "the node did not come up: $(sinfo 2>&1; tail -5 "$work"/slurm*.log)"

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
