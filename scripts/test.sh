#!/usr/bin/env bash
# The whole test suite with both MPIs, from a fresh machine:
#   scripts/test.sh            installs dependencies (as root), builds build/openmpi and
#                              build/mpich, runs ctest in each (unit, tsan, mpi, package)
# Environment: HYMPI_MPIS="openmpi mpich" (which to test), CTEST_ARGS (extra ctest flags).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
for mpi in ${HYMPI_MPIS:-openmpi mpich}; do
  echo "=== hympi tests with $mpi ==="
  bash scripts/build.sh "$mpi" -DHYMPI_WERROR=ON
  # Oversubscribed MPI tests: two at a time on two cores is the most that stays fast.
  (cd "build/$mpi" && ctest -j2 --output-on-failure ${CTEST_ARGS:-})
done
