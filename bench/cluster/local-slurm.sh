#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A Slurm on this machine (root, Debian 12: slurmctld, slurmd, munge), to check bench/cluster/
# under a real Slurm before a cluster sees it: this host as the one node, or N emulated hosts
# (scripts/hosts.sh: own hostname, network and /dev/shm each) with one slurmd per host and
# slurmctld on host0, so that jobs span nodes whose ranks share no memory and talk over TCP.
#   bench/cluster/local-slurm.sh up [N]      install what is missing, write the configuration, start the daemons
#   bench/cluster/local-slurm.sh run CMD...  run CMD where the cluster's commands reach it (host0, or here)
#   bench/cluster/local-slurm.sh down        stop the daemons (and the emulated hosts that up made)
# Each node has this machine's cores (one task per core); the partition is "local".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
hosts_sh=$here/../../scripts/hosts.sh
state=/run/hympi-slurm
subnet=10.77.0  # scripts/hosts.sh's

# Runs a command on emulated host $1 (with N hosts up) or here.
on() {
  local host=$1
  shift
  if [ -s "$state/hosts" ]; then "$hosts_sh" exec "$host" "$@"; else "$@"; fi
}

case ${1:-} in
  up)
    n=${2:-0}
    if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurmctld slurmd slurm-client munge >/dev/null
    fi
    sockets=$(lscpu -p=SOCKET | grep -v '^#' | sort -u | wc -l)
    cores=$(lscpu -p=CORE | grep -v '^#' | sort -u | wc -l)
    mkdir -p "$state" /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
    if [ "$n" -gt 0 ]; then
      "$hosts_sh" up "$n"
      echo "$n" >"$state/hosts"
      control="host0($subnet.1)"
      nodes="host[0-$((n - 1))]"
      addresses="NodeAddr=$subnet.[1-$n] "
      for ((k = 0; k < n; k++)); do mkdir -p "$state/tmp/host$k"; done
    else
      rm -f "$state/hosts"
      control=$(hostname -s)
      nodes=$control
      addresses=""
      mkdir -p "$state/tmp/$control"
    fi
    # %n: each slurmd (one per emulated host) its own spool, PID and log file, and its own
    # TmpFS, where the PMIx plugin makes each step's directory (on a shared /tmp, the hosts'
    # steps would collide).
    cat >/etc/slurm/slurm.conf <<EOF
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
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd/%n
SlurmdPidFile=/run/slurmd-%n.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd-%n.log
TmpFS=$state/tmp/%n
NodeName=$nodes ${addresses}Sockets=$sockets CoresPerSocket=$((cores / sockets)) ThreadsPerCore=1 State=UNKNOWN
PartitionName=local Nodes=$nodes Default=YES MaxTime=INFINITE State=UP
EOF
    [ -s /etc/munge/munge.key ] || mungekey --create --keyfile /etc/munge/munge.key
    chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
    pgrep -x munged >/dev/null || su -s /bin/sh munge -c "munged" </dev/null >/dev/null 2>&1
    # The daemons get no terminal or pipe of ours: a caller reading our output would wait on them.
    if [ "$n" -gt 0 ]; then
      on host0 slurmctld </dev/null >/dev/null 2>&1
      for ((k = 0; k < n; k++)); do on "host$k" slurmd -N "host$k" </dev/null >/dev/null 2>&1; done
    else
      pgrep -x slurmctld >/dev/null || slurmctld </dev/null >/dev/null 2>&1
      pgrep -x slurmd >/dev/null || slurmd </dev/null >/dev/null 2>&1
    fi
    want=$((n > 0 ? n : 1))
    for _ in $(seq 30); do
      [ "$(on host0 sinfo -h -N -t idle -o '%N' 2>/dev/null | wc -l)" -ge "$want" ] && break
      sleep 1
    done
    on host0 sinfo
    ;;
  run)
    shift
    on host0 "$@"
    ;;
  down)
    for daemon in slurmd slurmctld munged; do
      pkill -x "$daemon" || true
      for _ in $(seq 50); do pgrep -x "$daemon" >/dev/null || break; sleep 0.1; done  # gone before a next up
    done
    if [ -s "$state/hosts" ]; then "$hosts_sh" down; fi
    rm -rf "$state"
    ;;
  *) grep -E '^#   bench/' "$0" | cut -c5- >&2; exit 2 ;;
esac
