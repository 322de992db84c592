#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The hierarchical operations across emulated hosts (scripts/hosts.sh): real separate
# shared-memory domains, hostnames and a TCP network between them.
#   run.sh openmpi|mpich MPIEXEC BUILD_DIR HOSTS RANKS_PER_HOST
# Exits 77 (ctest: skipped) with a reason when namespaces cannot be made here.
set -uo pipefail
flavor=$1 build=$3 hosts=$4 per_host=$5
export HYMPI_HOSTS_MPIEXEC=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
hosts_sh="$root/scripts/hosts.sh"
export HYMPI_HOSTS_DIR="${TMPDIR:-/tmp}/hympi-hosts-ctest"
# MPICH 4.0 (Debian's) needs the two allowances below; MPICH 5 neither.
mpich4=0
[ "$flavor" = mpich ] && "$HYMPI_HOSTS_MPIEXEC" --version | grep -qE 'Version: +4\.' && mpich4=1
if ! reason=$(bash "$hosts_sh" check); then
  echo "multihost: skipped: $reason"
  exit 77
fi
bash "$hosts_sh" down
trap 'bash "$hosts_sh" down' EXIT
bash "$hosts_sh" up "$hosts" || exit 1

# One test program across the hosts, at most 300 s. Debian's MPICH 4.0.2 (ch4:ucx, UCX 1.13)
# may hang in MPI_Finalize over TCP (gdb: all ranks but one in the PMI barrier, that one
# flushing its UCX endpoints towards them): with MPICH, once rank 0 has printed the verdict
# of every rank ("hympi-tests: all ranks passed"), a run still alive 15 s later is stopped,
# counted and reported as that hang, not as a failure. Open MPI and MPICH 5 get no such
# allowance (MPICH 5.0.2 over libfabric's tcp provider: no hang seen).
finalize_hangs=0
run_test() {
  local log
  log=$(mktemp)
  stop() { kill "$pid" 2>/dev/null; sleep 3; kill -9 "$pid" 2>/dev/null; }
  bash "$hosts_sh" "run-$flavor" "$per_host" "$1" >"$log" 2>&1 &
  local pid=$! waited=0 passed_at=-1 status=0 hung=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    waited=$((waited + 1))
    if [ "$passed_at" -lt 0 ] && grep -q "^hympi-tests: all ranks passed" "$log"; then passed_at=$waited; fi
    if [ "$mpich4" = 1 ] && [ "$passed_at" -ge 0 ] && [ $((waited - passed_at)) -ge 15 ]; then
      stop
      hung=1
      finalize_hangs=$((finalize_hangs + 1))
      echo "multihost: every rank passed, then MPI_Finalize hung (MPICH 4.0.2 over UCX/TCP); stopped" >>"$log"
    elif [ "$waited" -ge 300 ]; then
      stop
      echo "multihost: $1 still running after 300 s; stopped" >>"$log"
      status=1
    fi
  done
  wait "$pid" 2>/dev/null || [ "$hung" -eq 1 ] || status=1
  cat "$log"
  grep -q "^hympi-tests: all ranks passed" "$log" || status=1
  rm -f "$log"
  return $status
}

# Every rank must see exactly `hosts` nodes; the collectives and every ghost-update
# strategy (intranode shared memory + internode TCP) must agree with plain MPI.
export HYMPI_TIMEOUT=60 HYMPI_TEST_EXPECT_NODES=$hosts HYMPI_TEST_RMA_DIVISOR=10
export HYMPI_HOSTS_ENV="HYMPI_TIMEOUT HYMPI_TEST_EXPECT_NODES HYMPI_TEST_ITERATIONS HYMPI_TEST_RMA_DIVISOR"
status=0
# The shared-memory accounting tests (HaloResources) are rank-count independent and run
# in the mpi label; thousands of Halos set up over TCP here take minutes (42 ms each).
# Consecutive calls: 1,000 collectives, 300 ghost updates (RMA baselines 30) per strategy;
# over TCP between namespaces each costs tens of microseconds (Open MPI 4.1's 2x2 took 98 s
# with three times as many). MPICH 4 spins when ranks outnumber cores (4 ranks here on 2
# cores), and so does Open MPI's TCP transport: with other work beside it (CI's ctest -j4)
# Open MPI 4.1's 2x2 took 81-86 s, 24 s alone; fewer calls for both (Open MPI 4.1 under the
# same load: 74 s, most of it the programs' set-ups over TCP). MPICH 5 gets the test
# launcher's progress throttle instead.
runs="test_topology:1000 test_collectives:1000 test_halo:300"
export GTEST_FILTER=-HaloResources.*
HYMPI_HOSTS_ENV="$HYMPI_HOSTS_ENV GTEST_FILTER"
if [ "$flavor" = mpich ] && [ "$mpich4" = 0 ]; then
  export MPIR_CVAR_CH4_PROGRESS_THROTTLE=1 MPIR_CVAR_CH4_PROGRESS_THROTTLE_NO_PROGRESS_COUNT=64
  HYMPI_HOSTS_ENV="$HYMPI_HOSTS_ENV MPIR_CVAR_CH4_PROGRESS_THROTTLE MPIR_CVAR_CH4_PROGRESS_THROTTLE_NO_PROGRESS_COUNT"
fi
if [ "$mpich4" = 1 ] || [ "$flavor" = openmpi ]; then
  runs="test_topology:300 test_collectives:300 test_halo:100"
fi
for run in $runs; do
  t=${run%:*}
  echo "=== $t on $hosts hosts x $per_host ranks ($flavor)"
  HYMPI_TEST_ITERATIONS=${run#*:} run_test "$build/tests/mpi/$t" || status=1
done
[ "$finalize_hangs" -gt 0 ] && echo "multihost: MPI_Finalize hung after all ranks passed in $finalize_hangs of 3 programs"
[ $status -eq 0 ] && echo "multihost: all passed on $hosts hosts x $per_host ranks"
exit $status
