#!/usr/bin/env bash
# A private single-node Slurm cluster on this machine, for trying `ringsim sweep run --slurm` and for
# the suite's Slurm test: munged, slurmctld and slurmd with a configuration, key, state, spool and logs
# under DIR, on TCP ports of their own; nothing of the system's Slurm or munge is used or changed.
#
#   tools/slurm-local.sh start DIR   # prints the line to source: export SLURM_CONF=DIR/slurm.conf
#   tools/slurm-local.sh stop DIR    # stops the daemons it started (their ids are in DIR/pids)
#
# start installs Debian's slurmctld, slurmd, slurm-client and munge with apt-get when root and missing;
# it exits 77 with the reason when it cannot (not root, no apt-get), 1 when the node does not come up
# (and then stops what it started). The node has this machine's CPUs; its partition is "local".
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$2

stop() {
  [ -f "$dir/pids" ] || return 0
  local pid
  while read -r pid; do kill -TERM "$pid" 2>/dev/null || true; done <"$dir/pids"
  # The daemons are not this shell's children: poll until they are gone, at most 10 s, then SIGKILL.
  for _ in $(seq 100); do
    local alive=0
    while read -r pid; do kill -0 "$pid" 2>/dev/null && alive=1; done <"$dir/pids"
    [ "$alive" -eq 0 ] && break
    sleep 0.1
  done
  while read -r pid; do kill -KILL "$pid" 2>/dev/null || true; done <"$dir/pids"
  rm -f "$dir/pids"
}

install_slurm() {
  command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null &&
    command -v sbatch >/dev/null && return 0
  [ "$(id -u)" -eq 0 ] || { echo "SKIPPED: Slurm is not installed and installing it needs root"; exit 77; }
  command -v apt-get >/dev/null || { echo "SKIPPED: Slurm is not installed and there is no apt-get"; exit 77; }
  echo "installing slurmctld slurmd slurm-client munge (apt-get)" >&2
  apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge \
    >/dev/null 2>&1 || { echo "SKIPPED: apt-get could not install Slurm"; exit 77; }
}

write_config() {
  local host=$1 ctld_port=$2 slurmd_port=$3
  cat >"$dir/slurm.conf" <<CONF
ClusterName=ringsim-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
}

start() {
  # slurmd runs jobs as their user and munged must own its key: both need root.
  [ "$(id -u)" -eq 0 ] || { echo "SKIPPED: starting slurmctld, slurmd and munged needs root"; exit 77; }
  install_slurm
  [ ! -f "$dir/pids" ] || { echo "$dir: a cluster is already started there (stop it first)" >&2; exit 1; }
  mkdir -p "$dir"/{state,spool,munge}
  chmod 700 "$dir/munge"
  dir=$(cd "$dir" && pwd)
  trap 'stop' ERR
  : >"$dir/pids"
  # Two free TCP ports for slurmctld and slurmd.
  local ports
  ports=$(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  munged --foreground --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/seed" \
    </dev/null >"$dir/munge/munged.out" 2>&1 &
  echo $! >>"$dir/pids"
  local host
  host=$(hostname -s)
  # shellcheck disable=SC2086
  write_config "$host" $ports
  export SLURM_CONF=$dir/slurm.conf
  for _ in $(seq 50); do [ -S "$dir/munge/socket" ] && break; sleep 0.1; done
  slurmctld -D -i -f "$SLURM_CONF" </dev/null >"$dir/slurmctld.out" 2>&1 &
  echo $! >>"$dir/pids"
  slurmd -D -f "$SLURM_CONF" -N "$host" </dev/null >"$dir/slurmd.out" 2>&1 &
  echo $! >>"$dir/pids"
  for _ in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -Eq '^idle' && break
    sleep 0.5
  done
  if ! sinfo -h -o %T 2>/dev/null | grep -Eq '^idle'; then
    echo "the node did not come up: $(sinfo 2>&1; tail -5 "$dir"/slurm*.log)" >&2
    stop
    exit 1
  fi
  trap - ERR
  echo "export SLURM_CONF=$SLURM_CONF"
}

case $action in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
