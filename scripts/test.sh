#!/usr/bin/env bash
# The whole test suite with both MPIs, from a fresh machine:
#   scripts/test.sh            installs dependencies (as root), builds build/openmpi and
#                              build/mpich (with the Python package, scripts/python.sh's
#                              venv), runs ctest in each (unit, tsan, mpi, c, fortran,
#                              python, package),
#                              then the MPI tests of build/openmpi-sanitize (ASan + UBSan)
# Environment: HYMPI_MPIS="openmpi mpich" (which to test), CTEST_ARGS (extra ctest flags),
# HYMPI_SANITIZE_TESTS=0 skips the sanitizer tree.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
if ! getent hosts "$(hostname)" >/dev/null 2>&1; then
  echo "test.sh: warning: this machine's hostname '$(hostname)' does not resolve; MPI start-up then" >&2
  echo "         waits for DNS (about 10 s per launch here). Add '127.0.1.1 $(hostname)' to /etc/hosts." >&2
fi
for mpi in ${HYMPI_MPIS:-openmpi mpich}; do
  echo "=== hympi tests with $mpi ==="
  # The Python package's venv (build tools, mpi4py on this MPI); its tests run in the tree.
  bash scripts/python.sh "$mpi" venv
  bash scripts/build.sh "$mpi" -DHYMPI_WERROR=ON -DHYMPI_BUILD_TESTS=ON \
    -DHYMPI_BUILD_PYTHON=ON -DPython_EXECUTABLE="$PWD/build/python-$mpi/bin/python"
  # Oversubscribed MPI tests: two at a time on two cores is the most that stays fast.
  (cd "build/$mpi" && ctest -j2 --output-on-failure ${CTEST_ARGS:-})
done
if [ "${HYMPI_SANITIZE_TESTS:-1}" != 0 ]; then
  echo "=== hympi MPI tests under AddressSanitizer + UBSan (Open MPI) ==="
  bash scripts/build.sh openmpi-sanitize -DHYMPI_WERROR=ON -DHYMPI_BUILD_TESTS=ON
  # The misuse, lifetime and fault paths, and the protocols at 1-4 ranks on real and
  # emulated nodes; the long runs at 7-8 ranks stay in the plain trees.
  (cd build/openmpi-sanitize && ctest -j2 --output-on-failure -L sanitize \
     -R "misuse|finalize|bad_input|killed|watchdog|topology|window|visibility|collectives\.np[1-4]|halo\.np[1-4]|grid\.np[1-4]" \
     ${CTEST_ARGS:-})
fi
