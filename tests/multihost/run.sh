#!/usr/bin/env bash
# The hierarchical operations across emulated hosts (scripts/hosts.sh): real separate
# shared-memory domains, hostnames and a TCP network between them.
#   run.sh openmpi|mpich BUILD_DIR HOSTS RANKS_PER_HOST
# Exits 77 (ctest: skipped) with a reason when namespaces cannot be made here.
set -uo pipefail
flavor=$1 build=$2 hosts=$3 per_host=$4
root=$(cd "$(dirname "$0")/../.." && pwd)
hosts_sh="$root/scripts/hosts.sh"
export HYMPI_HOSTS_DIR="${TMPDIR:-/tmp}/hympi-hosts-ctest"
if ! reason=$(bash "$hosts_sh" check); then
  echo "multihost: skipped: $reason"
  exit 77
fi
bash "$hosts_sh" down
trap 'bash "$hosts_sh" down' EXIT
bash "$hosts_sh" up "$hosts" || exit 1

# Every rank must see exactly `hosts` nodes; the collectives and every ghost-update
# strategy (intranode shared memory + internode TCP) must agree with plain MPI.
export HYMPI_TIMEOUT=60 HYMPI_TEST_EXPECT_NODES=$hosts HYMPI_TEST_RMA_DIVISOR=10
export HYMPI_HOSTS_ENV="HYMPI_TIMEOUT HYMPI_TEST_EXPECT_NODES HYMPI_TEST_ITERATIONS HYMPI_TEST_RMA_DIVISOR"
status=0
for run in test_topology:3000 test_collectives:3000 test_halo:1000; do
  t=${run%:*}
  echo "=== $t on $hosts hosts x $per_host ranks ($flavor)"
  HYMPI_TEST_ITERATIONS=${run#*:} timeout 300 bash "$hosts_sh" "run-$flavor" "$per_host" "$build/tests/mpi/$t" || status=1
done
[ $status -eq 0 ] && echo "multihost: all passed on $hosts hosts x $per_host ranks"
exit $status
