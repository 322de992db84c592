#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A one-node Slurm on this machine (root, Debian 12: slurmctld, slurmd, munge), to check
# bench/cluster/ under a real Slurm before a cluster sees it:
#   bench/cluster/local-slurm.sh up      install what is missing, write the configuration, start the daemons
#   bench/cluster/local-slurm.sh down    stop them
# The node is this host with its cores (one task per core); the partition is "local".
set -euo pipefail
node=$(hostname -s)
case ${1:-} in
  up)
    if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurmctld slurmd slurm-client munge >/dev/null
    fi
    sockets=$(lscpu -p=SOCKET | grep -v '^#' | sort -u | wc -l)
    cores=$(lscpu -p=CORE | grep -v '^#' | sort -u | wc -l)
    mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
    cat >/etc/slurm/slurm.conf <<EOF
ClusterName=hympi-local
SlurmctldHost=$node
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmUser=root
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$node Sockets=$sockets CoresPerSocket=$((cores / sockets)) ThreadsPerCore=1 State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
    [ -s /etc/munge/munge.key ] || mungekey --create --keyfile /etc/munge/munge.key
    chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
    pgrep -x munged >/dev/null || su -s /bin/sh munge -c "munged"
    pgrep -x slurmctld >/dev/null || slurmctld
    pgrep -x slurmd >/dev/null || slurmd
    for _ in $(seq 30); do
      sinfo -h -o '%T' 2>/dev/null | grep -q idle && break
      sleep 1
    done
    sinfo
    ;;
  down)
    pkill -x slurmd || true
    pkill -x slurmctld || true
    pkill -x munged || true
    ;;
  *) grep -E '^#   bench/' "$0" | cut -c5- >&2; exit 2 ;;
esac
