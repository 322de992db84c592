#!/usr/bin/env bash
# The whole test suite with both MPIs, from a fresh machine:
#   scripts/test.sh            installs dependencies (as root), builds build/openmpi and
#                              build/mpich, runs ctest in each (unit, tsan, mpi, package)
# Environment: HYMPI_MPIS="openmpi mpich" (which to test), CTEST_ARGS (extra ctest flags).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
if ! getent hosts "$(hostname)" >/dev/null 2>&1; then
  echo "test.sh: warning: this machine's hostname '$(hostname)' does not resolve; MPI start-up then" >&2
  echo "         waits for DNS (about 10 s per launch here). Add '127.0.1.1 $(hostname)' to /etc/hosts." >&2
fi
for mpi in ${HYMPI_MPIS:-openmpi mpich}; do
  echo "=== hympi tests with $mpi ==="
  bash scripts/build.sh "$mpi" -DHYMPI_WERROR=ON -DHYMPI_BUILD_TESTS=ON
  # Oversubscribed MPI tests: two at a time on two cores is the most that stays fast.
  (cd "build/$mpi" && ctest -j2 --output-on-failure ${CTEST_ARGS:-})
done
