#!/usr/bin/env bash
# slurm_cluster.sh - a throwaway multi-node Slurm cluster on this one machine, for the Slurm
# tests: one slurmctld and munged here, and N slurmd (default 2), each in its own network and
# UTS namespace with its own node name, hostname and address, so that array tasks really run on
# different nodes (a job sees its node's hostname; the nodes share this machine's filesystem,
# which stands in for a cluster's shared filesystem).
#
# Usage (as root):  scripts/slurm_cluster.sh install|start|stop|status|env
#   install  Debian's slurm-wlm + munge through ../shared/scripts/slurm_local.sh (when missing)
#   start    munge key, munged, bridge + one namespace per node, slurm.conf, slurmctld, slurmds;
#            waits until every node is idle
#   stop     ends the daemons (and any job process left in a node namespace) by pid, removes
#            the namespaces, links and bridge
#   status   sinfo
#   env      prints `export SLURM_CONF=...` for a shell that wants to use the cluster
# Knobs: CALIBER_SLURM_BASE (default /tmp/caliber-slurm), CALIBER_SLURM_NODES (2),
# CALIBER_SLURM_SUBNET (10.213.47: the bridge is .1, node i is .(10+i)).
# Needs CAP_NET_ADMIN and CAP_SYS_ADMIN (ip netns, unshare --uts); no systemd, no cgroups.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
BASE=${CALIBER_SLURM_BASE:-/tmp/caliber-slurm}
NODES=${CALIBER_SLURM_NODES:-2}
SUBNET=${CALIBER_SLURM_SUBNET:-10.213.47}
SHARED=${CALIBER_SHARED_DIR:-$here/../shared}
CONF=$BASE/etc/slurm.conf
MUNGE_DIR=$BASE/munge
MUNGE_SOCK=$MUNGE_DIR/munge.socket.2
MUNGE_PID=$MUNGE_DIR/munged.pid
CTLD_PID=$BASE/run/slurmctld.pid
BRIDGE=calslurm0
READY_TIMEOUT=${READY_TIMEOUT:-60}

log() { echo "[slurm_cluster $(date +%T)] $*"; }
node_name() { echo "node$1"; }
netns_name() { echo "caliber-slurm-node$1"; }
node_addr() { echo "$SUBNET.$((10 + $1))"; }

# A PID counts as alive unless it is gone or a zombie.
alive() {
  local st
  st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$st" ] && [ "$st" != Z ]
}

# Ends the process in `pidfile` when it is the daemon named `want`; never anything else.
stop_pidfile() {
  local pidfile=$1 want=$2 pid name i
  [ -s "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if alive "$pid"; then
    name=$(cat "/proc/$pid/comm" 2>/dev/null || echo '?')
    if [ "$name" != "$want" ]; then
      log "pid $pid from $pidfile is '$name', not $want; not killing"
    else
      kill -TERM "$pid" 2>/dev/null || true
      for i in $(seq 1 50); do alive "$pid" || break; sleep 0.1; done
      alive "$pid" && kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$pidfile"
}

dump_logs() {
  local f
  for f in "$BASE"/log/*.log "$MUNGE_DIR/munged.log"; do
    [ -f "$f" ] && { echo "----- tail $f"; tail -n 20 "$f"; }
  done
  return 0
}

do_install() {
  if command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
    command -v munged >/dev/null && command -v sbatch >/dev/null; then
    log "slurm already installed ($(slurmctld -V))"
    return 0
  fi
  [ -x "$SHARED/scripts/slurm_local.sh" ] || [ -f "$SHARED/scripts/slurm_local.sh" ] || {
    log "no $SHARED/scripts/slurm_local.sh to install Slurm with (set CALIBER_SHARED_DIR)"
    exit 1
  }
  mkdir -p "$BASE"
  BASE=$BASE bash "$SHARED/scripts/slurm_local.sh" install
}

do_stop() {
  local i ns pid
  for i in $(seq 1 "$NODES"); do
    stop_pidfile "$BASE/run/slurmd-$(node_name "$i").pid" slurmd
  done
  stop_pidfile "$CTLD_PID" slurmctld
  stop_pidfile "$MUNGE_PID" munged
  # Job processes (slurmstepd and what it started) live in the node namespaces: end them by
  # pid so that nothing of a test outlives the cluster.
  for i in $(seq 1 "$NODES"); do
    ns=$(netns_name "$i")
    ip netns list 2>/dev/null | grep -qw "^$ns" || continue
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
    ip netns del "$ns" 2>/dev/null || true
    ip link del "calsl$i" 2>/dev/null || true
  done
  ip link del "$BRIDGE" 2>/dev/null || true
}

setup_network() {
  local i ns
  ip link add "$BRIDGE" type bridge
  ip addr add "$SUBNET.1/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  for i in $(seq 1 "$NODES"); do
    ns=$(netns_name "$i")
    ip netns add "$ns"
    ip link add "calsl$i" type veth peer name eth0 netns "$ns"
    ip link set "calsl$i" master "$BRIDGE" up
    ip -n "$ns" addr add "$(node_addr "$i")/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
  done
}

write_conf() {
  local ncpu mem i nodes=""
  ncpu=$(nproc)
  # Every node is this machine: each declares a share of its memory, so that none is refused
  # for reporting less than it declares.
  mem=$(($(awk '/^MemTotal:/{print int($2/1024)}' /proc/meminfo) / (2 * NODES)))
  cat >"$CONF" <<EOF
ClusterName=caliber
SlurmctldHost=localhost($SUBNET.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCK
StateSaveLocation=$BASE/state
SlurmdSpoolDir=$BASE/spool/%n
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$BASE/run/slurmd-%n.pid
SlurmctldLogFile=$BASE/log/slurmctld.log
SlurmdLogFile=$BASE/log/slurmd-%n.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
KillWait=5
MinJobAge=600
MaxArraySize=1001
MailProg=/bin/true
EOF
  for i in $(seq 1 "$NODES"); do
    echo "NodeName=$(node_name "$i") NodeAddr=$(node_addr "$i") CPUs=$ncpu RealMemory=$mem State=UNKNOWN" >>"$CONF"
    nodes+="${nodes:+,}$(node_name "$i")"
  done
  echo "PartitionName=debug Nodes=$nodes Default=YES MaxTime=INFINITE State=UP" >>"$CONF"
}

do_start() {
  local t0 i n state deadline
  t0=$(date +%s%3N)
  do_stop
  rm -rf "$BASE/etc" "$BASE/state" "$BASE/spool" "$BASE/log" "$BASE/run" "$MUNGE_DIR"
  mkdir -p "$BASE/etc" "$BASE/state" "$BASE/log" "$BASE/run" "$MUNGE_DIR"
  for i in $(seq 1 "$NODES"); do mkdir -p "$BASE/spool/$(node_name "$i")"; done
  chmod 755 "$BASE"
  chmod 711 "$MUNGE_DIR" # munged: socket dir needs o+x, must not be group/other-writable

  # One munged for every node: its socket is a path, which a network namespace does not hide.
  mungekey --create --force --keyfile="$MUNGE_DIR/munge.key"
  munged --key-file="$MUNGE_DIR/munge.key" --socket="$MUNGE_SOCK" --pid-file="$MUNGE_PID" \
    --log-file="$MUNGE_DIR/munged.log" --seed-file="$MUNGE_DIR/munged.seed"

  setup_network
  write_conf
  SLURM_CONF=$CONF slurmctld -f "$CONF"
  for i in $(seq 1 "$NODES"); do
    # slurmd daemonizes inside the namespaces; its jobs inherit the node's address and hostname.
    # nsenter, not `ip netns exec`: that one remounts /sys, hiding the cgroup filesystem slurmd
    # looks for.
    nsenter --net="/run/netns/$(netns_name "$i")" unshare --uts -- \
      sh -c "hostname $(node_name "$i") && SLURM_CONF=$CONF exec slurmd -f $CONF -N $(node_name "$i")"
  done

  deadline=$(($(date +%s) + READY_TIMEOUT))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    n=$(SLURM_CONF=$CONF timeout 5 sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l || true)
    [ "$n" = "$NODES" ] && break
    sleep 0.5
  done
  if [ "$n" != "$NODES" ]; then
    log "only $n of $NODES nodes idle after ${READY_TIMEOUT}s"
    SLURM_CONF=$CONF sinfo -N || true
    dump_logs
    return 1
  fi
  SLURM_CONF=$CONF sinfo -N
  log "cluster of $NODES nodes ready in $(($(date +%s%3N) - t0)) ms; export SLURM_CONF=$CONF"
}

cmd=${1:-}
case "$cmd" in
  install) do_install ;;
  start) do_start ;;
  stop) do_stop ;;
  status) SLURM_CONF=$CONF sinfo -N ;;
  env) echo "export SLURM_CONF=$CONF" ;;
  *)
    echo "usage: $0 install|start|stop|status|env" >&2
    exit 2
    ;;
esac
