#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A Slurm on this machine (root, Debian 12: slurmctld, slurmd, munge), to check bench/cluster/
# under a real Slurm before a cluster sees it: this host as the one node, or N emulated hosts
# (scripts/hosts.sh: own hostname, network and /dev/shm each) with one slurmd per host and
# slurmctld on host0, so that jobs span nodes whose ranks share no memory and talk over TCP.
#   bench/cluster/local-slurm.sh up [N]      install what is missing, write the configuration, start the daemons
#   bench/cluster/local-slurm.sh run CMD...  run CMD where the cluster's commands reach it (host0, or here)
#   bench/cluster/local-slurm.sh down        stop what up started (and the emulated hosts it made)
# Each node has this machine's cores (one task per core); the partition is "local". Everything
# lives in /run/hympi-slurm (its slurm.conf: `run` sets SLURM_CONF); a Slurm or munge of the
# machine's own is left alone (a running munged is used as it is).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
hosts_sh=$here/../../scripts/hosts.sh
state=/run/hympi-slurm
subnet=10.77.0  # scripts/hosts.sh's
export SLURM_CONF=$state/slurm.conf

# Runs a command on emulated host $1 (when up made hosts) or here.
on() {
  local host=$1
  shift
  if [ "$(cat "$state/hosts" 2>/dev/null || echo 0)" -gt 0 ]; then "$hosts_sh" exec "$host" "$@"; else "$@"; fi
}

case ${1:-} in
  up)
    n=${2:-0}
    [ -e "$state" ] && { echo "local-slurm.sh: already up ($state exists): local-slurm.sh down first" >&2; exit 1; }
    if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurmctld slurmd slurm-client munge >/dev/null
    fi
    sockets=$(lscpu -p=SOCKET | grep -v '^#' | sort -u | wc -l)
    cores=$(lscpu -p=CORE | grep -v '^#' | sort -u | wc -l)
    mkdir -p "$state/ctld" "$state/log" "$state/munge"
    echo "$n" >"$state/hosts"  # first: down removes the hosts even if up stops half way
    if [ "$n" -gt 0 ]; then
      "$hosts_sh" up "$n"
      control="host0($subnet.1)"
      nodes="host[0-$((n - 1))]"
      addresses="NodeAddr=$subnet.[1-$n] "
    else
      control=$(hostname -s)
      nodes=$control
      addresses=""
    fi
    # %n: each slurmd (one per emulated host) its own spool, PID and log file, and its own
    # TmpFS, where the PMIx plugin makes each step's directory (on a shared /tmp, the hosts'
    # steps would collide).
    cat >"$SLURM_CONF" <<EOF
ClusterName=hympi-local
SlurmctldHost=$control
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmUser=root
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool/%n
TmpFS=$state/tmp/%n
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd-%n.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd-%n.log
NodeName=$nodes ${addresses}Sockets=$sockets CoresPerSocket=$((cores / sockets)) ThreadsPerCore=1 State=UNKNOWN
PartitionName=local Nodes=$nodes Default=YES MaxTime=INFINITE State=UP
EOF
    if [ "$n" -gt 0 ]; then names=$(seq -f 'host%g' 0 $((n - 1))); else names=$control; fi
    for name in $names; do mkdir -p "$state/tmp/$name" "$state/spool/$name"; done
    [ -s /etc/munge/munge.key ] || mungekey --create --keyfile /etc/munge/munge.key
    mkdir -p /run/munge
    chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge "$state/munge" 2>/dev/null || true
    # The daemons get no terminal or pipe of ours: a caller reading our output would wait on them.
    if ! munge -n </dev/null >/dev/null 2>&1; then
      su -s /bin/sh munge -c "munged --pid-file=$state/munge/munged.pid" </dev/null >/dev/null 2>&1
    fi
    on host0 slurmctld </dev/null >/dev/null 2>&1
    if [ "$n" -gt 0 ]; then
      for ((k = 0; k < n; k++)); do on "host$k" slurmd -N "host$k" </dev/null >/dev/null 2>&1; done
    else
      slurmd </dev/null >/dev/null 2>&1
    fi
    want=$((n > 0 ? n : 1)) idle=0
    for _ in $(seq 30); do
      idle=$(on host0 sinfo -h -N -t idle -o '%N' 2>/dev/null | wc -l)
      [ "$idle" -ge "$want" ] && break
      sleep 1
    done
    on host0 sinfo
    if [ "$idle" -lt "$want" ]; then
      echo "local-slurm.sh: $idle of $want nodes idle after 30 s; logs in $state/log" >&2
      exit 1
    fi
    ;;
  run)
    shift
    on host0 "$@"
    ;;
  down)
    [ -e "$state" ] || exit 0
    for pid_file in "$state"/slurmd-*.pid "$state/slurmctld.pid" "$state/munge/munged.pid"; do
      [ -s "$pid_file" ] || continue
      pid=$(cat "$pid_file")
      kill "$pid" 2>/dev/null || continue
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done  # gone before a next up
    done
    if [ "$(cat "$state/hosts" 2>/dev/null || echo 0)" -gt 0 ]; then "$hosts_sh" down; fi
    rm -rf "$state"
    ;;
  *) grep -E '^#   bench/' "$0" | cut -c5- >&2; exit 2 ;;
esac
