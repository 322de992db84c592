#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Emulated hosts on one machine: each host is a network + UTS + mount + IPC namespace
# (own hostname host<k>, own /dev/shm and /etc/hosts), kept alive by one process, wired by
# a veth to a bridge in a "switch" namespace, address 10.77.0.<k+1>/24, no default route.
# MPI reaches the hosts through scripts/hosts-agent, an ssh stand-in.
#
#   scripts/hosts.sh up N [--rate 1gbit]   bring up host0..host<N-1> (refuses if already up)
#   scripts/hosts.sh run-openmpi P CMD...  Open MPI (4 or 5), P ranks per host, from host0
#   scripts/hosts.sh run-mpich P CMD...    MPICH (4 over UCX or 5 over OFI), likewise
#   scripts/hosts.sh exec HOST CMD...      run a command on one host
#   scripts/hosts.sh down                  remove everything `up` made
#   scripts/hosts.sh check                 exit 0 when namespaces can be made here (root)
# Environment variables named in HYMPI_HOSTS_ENV (default: the HYMPI_* ones set now) are
# passed to every rank. HYMPI_HOSTS_MPIEXEC names the launcher (default: Debian's
# mpirun.openmpi or mpiexec.mpich; e.g. .deps/mpich5/bin/mpiexec for PyPI's MPICH 5).
# State lives in ${HYMPI_HOSTS_DIR:-/run/hympi-hosts}.
set -euo pipefail
state=${HYMPI_HOSTS_DIR:-/run/hympi-hosts}
switch=hympi-switch
subnet=10.77.0
here=$(cd "$(dirname "$0")" && pwd)

die() { echo "hosts.sh: $*" >&2; exit 1; }
host_pid() { cat "$state/host$1.pid" 2>/dev/null || die "host$1 is not up (scripts/hosts.sh up N)"; }
host_count() { cat "$state/count" 2>/dev/null || die "no hosts are up (scripts/hosts.sh up N)"; }

check() {
  [ "$(id -u)" -eq 0 ] || { echo "hosts.sh: needs root (namespaces, veth, mounts)"; return 1; }
  unshare --net --uts --mount --ipc --fork true 2>/dev/null ||
    { echo "hosts.sh: this kernel or sandbox does not allow namespaces"; return 1; }
  command -v ip >/dev/null || { echo "hosts.sh: needs iproute2 (scripts/deps.sh)"; return 1; }
}

up() {
  local n=${1:?usage: hosts.sh up N [--rate R]} rate=""
  shift
  [ "${1:-}" = "--rate" ] && rate=${2:?--rate needs a value, e.g. 1gbit}
  check >&2 || exit 1
  [ -e "$state" ] && die "hosts are already up ($state exists): scripts/hosts.sh down first"
  mkdir -p "$state"
  echo "$n" > "$state/count"
  ip netns add "$switch"
  ip -n "$switch" link add br0 type bridge
  ip -n "$switch" link set br0 up
  { echo "127.0.0.1 localhost"; for ((k = 0; k < n; k++)); do echo "$subnet.$((k + 1)) host$k"; done; } > "$state/hosts"
  for ((k = 0; k < n; k++)); do
    # The keeper: private /dev/shm and /etc/hosts, then sleeps; its namespaces are the host.
    unshare --net --uts --mount --ipc --fork --propagation private sh -c \
      "hostname host$k; mount -t tmpfs -o size=1g tmpfs /dev/shm; mount --bind '$state/hosts' /etc/hosts; exec sleep infinity" &
    local keeper=$!
    local pid=""
    for _ in $(seq 50); do  # the forked child (the sleep) owns the namespaces
      pid=$(pgrep -P "$keeper" sleep || true)
      [ -n "$pid" ] && [ "$(nsenter -t "$pid" -u hostname 2>/dev/null)" = "host$k" ] && break
      sleep 0.05
    done
    [ -n "$pid" ] || die "host$k did not start"
    echo "$pid" > "$state/host$k.pid"
    echo "$keeper" > "$state/host$k.keeper"
    ip link add "hv$k" type veth peer name eth0 netns "$pid"
    ip link set "hv$k" netns "$switch"
    ip -n "$switch" link set "hv$k" master br0 up
    nsenter -t "$pid" -n sh -c "ip link set lo up; ip addr add $subnet.$((k + 1))/24 dev eth0; ip link set eth0 up"
    if [ -n "$rate" ]; then
      nsenter -t "$pid" -n tc qdisc add dev eth0 root tbf rate "$rate" burst 256kb latency 50ms
    fi
  done
  echo "hosts.sh: host0..host$((n - 1)) up on $subnet.0/24${rate:+, $rate per host}"
}

down() {
  [ -e "$state" ] || return 0
  for f in "$state"/host*.keeper; do
    [ -e "$f" ] || continue
    local keeper pid
    keeper=$(cat "$f")
    pid=$(cat "${f%.keeper}.pid" 2>/dev/null || true)
    # Everything started inside the host's namespaces goes with it.
    if [ -n "$pid" ]; then
      for p in $(ls /proc | grep -E '^[0-9]+$'); do
        [ "$p" = "$pid" ] && continue
        [ "$(readlink "/proc/$p/ns/net" 2>/dev/null)" = "$(readlink "/proc/$pid/ns/net" 2>/dev/null)" ] && kill -9 "$p" 2>/dev/null || true
      done
      kill -9 "$pid" 2>/dev/null || true
    fi
    kill -9 "$keeper" 2>/dev/null || true
  done
  ip netns del "$switch" 2>/dev/null || true
  rm -rf "$state"
}

exec_on() {
  local host=${1:?usage: hosts.sh exec HOST CMD...}
  shift
  local pid
  pid=$(host_pid "${host#host}")
  exec nsenter -t "$pid" -n -u -m -i --wd="$PWD" -- "$@"
}

# host0:P,host1:P,... for every host that is up.
host_list() {
  local n list=""
  n=$(host_count)
  for ((k = 0; k < n; k++)); do list+="${list:+,}host$k:$1"; done
  echo "$list"
}

forwarded_env() {
  local names=${HYMPI_HOSTS_ENV:-$(compgen -e | grep '^HYMPI_' || true)}
  for v in $names; do echo "$v"; done
}

# The launcher's release: the first number its --version prints (mpirun (Open MPI) 5.0.11,
# HYDRA build details: Version: 4.0.2).
launcher_major() { "$1" --version 2>/dev/null | grep -m1 -oE '[0-9]+\.[0-9]+' | cut -d. -f1; }

run_openmpi() {
  local per_host=${1:?usage: hosts.sh run-openmpi P CMD...}
  shift
  local launcher=${HYMPI_HOSTS_MPIEXEC:-mpirun.openmpi} xs=() options
  for v in $(forwarded_env); do xs+=(-x "$v"); done
  # TCP between hosts, shared memory inside; no single copy (CMA) as in the test launcher.
  # Open MPI 5 starts its daemons through PRRTE, whose settings are --prtemca.
  if [ "$(launcher_major "$launcher")" -ge 5 ]; then
    options=(--prtemca plm_ssh_agent "$here/hosts-agent" --prtemca oob_tcp_if_include "$subnet.0/24"
             --mca btl self,sm,tcp --mca smsc ^cma)
  else
    options=(--mca plm_rsh_agent "$here/hosts-agent" --mca oob_tcp_if_include "$subnet.0/24"
             --mca btl self,vader,tcp -x OMPI_MCA_btl_vader_single_copy_mechanism=none)
  fi
  exec_on host0 env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    "$launcher" -n $(($(host_count) * per_host)) --host "$(host_list "$per_host")" --map-by slot --bind-to none \
    --mca pml ob1 --mca btl_tcp_if_include "$subnet.0/24" "${options[@]}" "${xs[@]}" "$@"
}

run_mpich() {
  local per_host=${1:?usage: hosts.sh run-mpich P CMD...}
  shift
  local launcher=${HYMPI_HOSTS_MPIEXEC:-mpiexec.mpich} envs=()
  for v in $(forwarded_env); do envs+=(-genv "$v" "${!v}"); done
  # Debian's MPICH 4 runs over UCX, told to use eth0's TCP; PyPI's MPICH 5 over libfabric,
  # whose tcp provider finds eth0 (the only route) by itself.
  if [ "$(launcher_major "$launcher")" -lt 5 ]; then
    envs+=(-genv UCX_NET_DEVICES eth0 -genv UCX_TLS tcp,self,sm)
  fi
  exec_on host0 "$launcher" -n $(($(host_count) * per_host)) -launcher ssh -launcher-exec "$here/hosts-agent" \
    -iface eth0 -hosts "$(host_list "$per_host")" "${envs[@]}" "$@"
}

cmd=${1:-}
shift || true
case "$cmd" in
  up) up "$@" ;;
  down) down ;;
  exec) exec_on "$@" ;;
  run-openmpi) run_openmpi "$@" ;;
  run-mpich) run_mpich "$@" ;;
  check) check ;;
  *) sed -n '2,16p' "$0" >&2; exit 2 ;;
esac
