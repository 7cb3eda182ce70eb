#!/usr/bin/env bash
# An emulated cluster on this machine: one network namespace per node, a switch namespace with a
# bridge, one veth pair per node shaped with tc in both directions (a split-duplex NIC). Nothing is
# linked to the host's namespace; addresses come from 198.18.0.0/15, the range reserved for network
# benchmarking, and never leave our namespaces.
#
#   emulated-cluster.sh up ID NODE:RATE_BPS:DELAY_US...  create (ID: [a-z0-9]{1,12}; NIC rate in bit/s)
#   emulated-cluster.sh exec ID NODE COMMAND...          run COMMAND in NODE's namespace as host NODE
#   emulated-cluster.sh rsh ID NODE WORDS...             Open MPI's rsh agent: WORDS are a shell command
#   emulated-cluster.sh address ID NODE                  print NODE's address
#   emulated-cluster.sh cpu-controller ID                mount the cgroup v1 cpu controller for rank-cpu
#   emulated-cluster.sh rank-cpu ID FRACTION PROGRAM...  run PROGRAM capped at FRACTION of one core, in
#                                                        its own cgroup (after cpu-controller)
#   emulated-cluster.sh down ID                          kill everything inside, delete all (idempotent)
#   emulated-cluster.sh sweep                            `down` every cluster whose owner process is gone
#   emulated-cluster.sh list                             the namespaces of live clusters
#
# Namespaces are named rsim-ID-sw and rsim-ID-nK (K = node index); ID is the owner's process id, so
# two live clusters cannot collide and `sweep` can tell abandoned ones. Node names and the owner pid
# are kept in /run/ringsim-emulated/ID/.
set -Eeuo pipefail

state_root=/run/ringsim-emulated
cpu_root=$state_root/cpu  # where the cgroup v1 cpu controller is mounted for rank-cpu
subnet_prefix=198.18.0
mtu=1500

die() { echo "emulated-cluster: $*" >&2; exit 2; }
check_id() { [[ "$1" =~ ^[a-z0-9]{1,12}$ ]] || die "bad cluster id '$1' (expected [a-z0-9]{1,12})"; }
node_index() {  # index of node name $2 in cluster $1
  local i=0 name
  while read -r name; do
    [ "$name" = "$2" ] && { echo "$i"; return 0; }
    i=$((i + 1))
  done <"$state_root/$1/nodes"
  die "cluster $1 has no node '$2'"
}

# tbf shapes to RATE; its bucket is ~2 ms of traffic (at least 16 KiB) so that a message can never
# cross faster than the rate by more than that. netem under it adds the link latency where the kernel
# has netem; where it has not (CONFIG_NET_SCH_NETEM unset), links keep the veth's native latency.
# `up` prints "latency: shaped", "latency: native" (asked for, no netem) or "latency: none" (none asked).
shape() {  # shape NS DEV RATE_BPS DELAY_US
  local ns=$1 dev=$2 rate=$3 delay=$4
  local burst=$((rate / 8 / 500)); [ "$burst" -lt 16384 ] && burst=16384
  ip netns exec "$ns" tc qdisc add dev "$dev" root handle 1: tbf rate "${rate}bit" burst "$burst" latency 200ms
  if [ "$delay" != "0" ] && [ "$netem" = yes ]; then
    ip netns exec "$ns" tc qdisc add dev "$dev" parent 1:1 handle 10: netem delay "${delay}us" limit 100000
  fi
}

netem_available() {  # probe in the (already created) switch namespace, on its loopback
  if ip netns exec "$1" tc qdisc add dev lo root netem delay 1us 2>/dev/null; then
    ip netns exec "$1" tc qdisc del dev lo root
    echo yes
  else
    echo no
  fi
}

up() {
  local id=$1; shift
  check_id "$id"
  [ $# -ge 1 ] && [ $# -le 250 ] || die "between 1 and 250 nodes"
  local spec
  for spec in "$@"; do
    [[ "$spec" =~ ^[A-Za-z0-9_.-]+:[0-9]+:[0-9]+$ ]] || die "expected NODE:RATE_BPS:DELAY_US, not '$spec'"
  done
  [ -e "$state_root/$id" ] && die "cluster $id exists already"
  mkdir -p "$state_root/$id"
  echo "${RINGSIM_EMULATED_OWNER:-$PPID}" >"$state_root/$id/owner"
  printf '%s\n' "${@%%:*}" >"$state_root/$id/nodes"
  trap 'down "$id" >/dev/null 2>&1 || true' ERR

  local sw="rsim-$id-sw"
  ip netns add "$sw"
  ip -n "$sw" link set lo up
  ip -n "$sw" link add br0 type bridge
  ip -n "$sw" link set br0 up
  netem=$(netem_available "$sw")
  local k=0 node rate delay ns latency=none
  for spec in "$@"; do
    IFS=: read -r node rate delay <<<"$spec"
    if [ "$delay" != "0" ]; then
      if [ "$netem" = yes ]; then [ "$latency" = none ] && latency=shaped; else latency=native; fi
    fi
    ns="rsim-$id-n$k"
    ip netns add "$ns"
    ip -n "$ns" link set lo up
    # Create the pair inside the switch namespace, then move one end: never in the host's namespace.
    ip -n "$sw" link add "p$k" mtu "$mtu" type veth peer name "nic$k" mtu "$mtu"
    ip -n "$sw" link set "nic$k" netns "$ns"
    ip -n "$sw" link set "p$k" master br0 up
    ip -n "$ns" link set "nic$k" name eth0
    ip -n "$ns" addr add "$subnet_prefix.$((k + 1))/24" dev eth0
    ip -n "$ns" link set eth0 up
    shape "$ns" eth0 "$rate" "$delay"  # node -> switch: the NIC's upward direction
    shape "$sw" "p$k" "$rate" "$delay"  # switch -> node: downward
    k=$((k + 1))
  done
  trap - ERR
  echo "latency: $latency"
}

exec_in() {
  local id=$1 node=$2; shift 2
  check_id "$id"
  local k; k=$(node_index "$id" "$node")
  # A UTS namespace per command gives each node its own hostname (Open MPI tells nodes apart by it).
  exec ip netns exec "rsim-$id-n$k" unshare --uts sh -c 'hostname "$0" && exec "$@"' "$node" "$@"
}

rsh() {
  local id=$1 node=$2; shift 2
  check_id "$id"
  local k; k=$(node_index "$id" "$node")
  exec ip netns exec "rsim-$id-n$k" unshare --uts sh -c "hostname '$node' && $*"
}

# In the host's mount namespace, before any rank starts: `ip netns exec` gives each command a
# private copy of the mounts, so ranks see this mount but could not make it themselves.
cpu_controller() {
  local id=$1
  check_id "$id"
  [ -d "$state_root/$id" ] || die "no cluster $id"
  if ! mountpoint -q "$cpu_root"; then
    mkdir -p "$cpu_root"
    mount -t cgroup -o cpu ringsim-cpu "$cpu_root" || die "cannot mount the cgroup v1 cpu controller on $cpu_root"
  fi
  mkdir -p "$cpu_root/rsim-$id"
}

rank_cpu() {
  local id=$1 fraction=$2; shift 2
  check_id "$id"
  [[ "$fraction" =~ ^[0-9]*\.?[0-9]+$ ]] || die "FRACTION must be a number such as 0.25, not '$fraction'"
  [ -d "$cpu_root/rsim-$id" ] || die "run cpu-controller $id first"
  local group="$cpu_root/rsim-$id/rank-$$"
  mkdir -p "$group"
  # A short period: with the default 100 ms, a capped rank runs for its quota and then sleeps out the
  # period, so every ring step waits ~100 ms whatever its size. The kernel's minimum quota is 1 ms, so
  # the period is 1 ms / FRACTION (5 ms at 0.2), or 1 ms when FRACTION >= 1.
  awk -v f="$fraction" 'BEGIN { period = f < 1 ? int(1000 / f) : 1000; printf "%d %d\n", period, int(f * period) }' \
    | { read -r period quota; echo "$period" >"$group/cpu.cfs_period_us"; echo "$quota" >"$group/cpu.cfs_quota_us"; }
  echo $$ >"$group/tasks"
  exec "$@"
}

address() {
  check_id "$1"
  local k; k=$(node_index "$1" "$2")
  echo "$subnet_prefix.$((k + 1))"
}

down() {
  local id=$1 ns pids attempt remaining
  check_id "$id"
  # Kill and delete until nothing is left: a process may still be starting inside (orted spawning
  # ranks), and a namespace can be briefly busy while another `ip netns exec` holds a reference.
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    remaining=$(ip netns list | awk '{print $1}' | grep "^rsim-$id-" || true)
    [ -z "$remaining" ] && break
    for ns in $remaining; do
      pids=$(ip netns pids "$ns" 2>/dev/null || true)
      [ -n "$pids" ] && kill -9 $pids 2>/dev/null || true
    done
    for ns in $remaining; do ip netns del "$ns" 2>/dev/null || true; done
    sleep 0.2
  done
  remaining=$(ip netns list | awk '{print $1}' | grep "^rsim-$id-" || true)
  [ -z "$remaining" ] || die "could not delete namespaces: $remaining"
  # A rank's cgroup can be removed only once its exited processes are reaped; here PID 1 may take
  # a moment to reap the orphans. What is still busy after 5 s is left to the next `sweep`.
  if [ -d "$cpu_root/rsim-$id" ]; then
    local group
    for attempt in $(seq 25); do
      for group in "$cpu_root/rsim-$id"/rank-*; do [ -d "$group" ] && rmdir "$group" 2>/dev/null; done
      rmdir "$cpu_root/rsim-$id" 2>/dev/null && break
      sleep 0.2
    done
    [ -d "$cpu_root/rsim-$id" ] && echo "emulated-cluster: cgroup $cpu_root/rsim-$id still busy; the next sweep removes it" >&2
  fi
  rm -rf "${state_root:?}/$id"
}

sweep() {
  local dir id owner
  for dir in "$state_root"/*/; do
    [ -d "$dir" ] || continue
    id=$(basename "$dir")
    owner=$(cat "$dir/owner" 2>/dev/null || echo 0)
    kill -0 "$owner" 2>/dev/null || down "$id"
  done
  # Namespaces or cgroups whose state directory is gone (a crash between the two) are abandoned too.
  for id in $(ip netns list | awk '{print $1}' | sed -n 's/^rsim-\([a-z0-9]*\)-.*/\1/p' | sort -u); do
    [ -d "$state_root/$id" ] || down "$id"
  done
  for dir in "$cpu_root"/rsim-*/; do
    [ -d "$dir" ] || continue
    id=$(basename "$dir"); id=${id#rsim-}
    [ -d "$state_root/$id" ] || down "$id"
  done
}

command=${1:-}
[ $# -gt 0 ] && shift
case "$command" in
  up) [ $# -ge 2 ] || die "usage: up ID NODE:RATE_BPS:DELAY_US..."; up "$@" ;;
  exec) [ $# -ge 3 ] || die "usage: exec ID NODE COMMAND..."; exec_in "$@" ;;
  rsh) [ $# -ge 3 ] || die "usage: rsh ID NODE WORDS..."; rsh "$@" ;;
  cpu-controller) [ $# -eq 1 ] || die "usage: cpu-controller ID"; cpu_controller "$1" ;;
  rank-cpu) [ $# -ge 3 ] || die "usage: rank-cpu ID FRACTION PROGRAM..."; rank_cpu "$@" ;;
  address) [ $# -eq 2 ] || die "usage: address ID NODE"; address "$@" ;;
  down) [ $# -eq 1 ] || die "usage: down ID"; down "$1" ;;
  sweep) sweep ;;
  list) ip netns list | awk '{print $1}' | grep '^rsim-' || true ;;
  *) sed -n '2,21p' "$0" >&2; exit 2 ;;
esac
