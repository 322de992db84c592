#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds, installs and tests the Python package with one MPI:
#   scripts/python.sh openmpi|mpich         venv, pip install ., check, pytest suites
#   scripts/python.sh openmpi|mpich venv    only the venv (for a build tree configured with
#       -DHYMPI_BUILD_PYTHON=ON -DPython_EXECUTABLE=$PWD/build/python-<mpi>/bin/python,
#       whose ctest then runs the same suites on the tree's own build)
# The virtual environment build/python-<mpi> (Debian's /usr/bin/python3, with its
# python3-numpy visible; idempotent) gets the pinned build and test tools and mpi4py on the
# same MPI as hympi (openmpi: Debian's python3-mpi4py; mpich: PyPI's binary mpi4py wheel,
# whose MPICH build runs on Debian's MPICH through one library link). `pip install .` builds hympi
# with that MPI's wrappers in build/python-<mpi>/build (kept: a rerun rebuilds only what
# changed); a one-rank run checks the installed package, a two-rank mpi4py run its
# libhympi_pmpi (python -m hympi.pmpi), then ctest runs the pytest suites
# under that MPI's launcher (label python). Needs scripts/deps.sh's packages and the
# package registry.
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${1:?usage: scripts/python.sh openmpi|mpich [venv]}
only_venv=${2:-}
case "$only_venv" in
  ""|venv) ;;
  *) echo "python.sh: unknown mode '$only_venv' (venv, or nothing for all)" >&2; exit 2 ;;
esac
case "$mpi" in
  openmpi) launcher=/usr/bin/mpirun.openmpi ;;
  mpich) launcher=/usr/bin/mpiexec.mpich ;;
  *) echo "python.sh: unknown MPI '$mpi' (openmpi or mpich)" >&2; exit 2 ;;
esac
venv=build/python-$mpi
python=$venv/bin/python
tools=(nanobind==3.1.0 scikit-build-core==1.1.2 pytest==9.2.0 pytest-timeout==2.4.0)
mpi4py_wheel=mpi4py==4.1.2  # for MPICH; Open MPI: Debian's python3-mpi4py

if [ ! -x "$python" ]; then
  echo "python.sh: [${SECONDS} s] creating $venv"
  /usr/bin/python3 -m venv --system-site-packages "$venv"
fi
pip=("$python" -m pip install --quiet --disable-pip-version-check)
"${pip[@]}" "${tools[@]}"
if [ "$mpi" = mpich ]; then
  # PyPI's mpi4py wheel carries an Open MPI and an MPICH build and picks one at import
  # (MPI4PY_MPIABI=mpich). Its MPICH build needs libmpi.so.12, MPICH's ABI name, which
  # Debian ships as libmpich.so.12: a link in $venv/lib/mpich-abi, which the tests
  # (python/CMakeLists.txt) and the check below put on LD_LIBRARY_PATH.
  "${pip[@]}" --only-binary=mpi4py "$mpi4py_wheel"
  # awk reads all of ldconfig's output (no early exit: with pipefail, ldconfig's SIGPIPE
  # would fail the script).
  libmpich=$(ldconfig -p | awk '$1 == "libmpich.so.12" && !found { print $NF; found = 1 }')
  [ -n "$libmpich" ] || { echo "python.sh: libmpich.so.12 not found (scripts/deps.sh installs MPICH)" >&2; exit 1; }
  mkdir -p "$venv/lib/mpich-abi"
  ln -sfn "$libmpich" "$venv/lib/mpich-abi/libmpi.so.12"
  export MPI4PY_MPIABI=mpich LD_LIBRARY_PATH="$PWD/$venv/lib/mpich-abi${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
[ "$only_venv" = venv ] && exit 0

echo "python.sh: [${SECONDS} s] pip install . ($mpi)"
"${pip[@]}" --no-build-isolation --no-deps --config-settings=build-dir="$venv/build" \
  --config-settings=cmake.define.MPI_C_COMPILER="mpicc.$mpi" \
  --config-settings=cmake.define.MPI_CXX_COMPILER="mpicxx.$mpi" \
  --config-settings=cmake.define.MPIEXEC_EXECUTABLE="$launcher" .

# The installed package (not the build tree's copy the tests import) with mpi4py.
if [ "$mpi" = openmpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
fi
(cd "$venv" && "$launcher" -n 1 bin/python -c '
import hympi
with hympi.Context() as ctx:
    assert ctx.allreduce(2.0, "sum") == 2.0
print("python.sh: installed", hympi.__file__, hympi.__version__, "on", hympi.mpi_library_version().splitlines()[0].split(",")[0])')

# The installed libhympi_pmpi (python -m hympi.pmpi) under a plain mpi4py program: hympi
# serves its MPI_Allreduce.
preload=$("$python" -m hympi.pmpi)
served=$(cd "$venv" && "$launcher" -n 2 env LD_PRELOAD="$preload" MPI4PY_RC_THREAD_LEVEL=funneled \
  HYMPI_PMPI_AFTER=0 HYMPI_PMPI_REPORT=1 bin/python -c '
import numpy as np
from mpi4py import MPI
x = np.ones(4)
MPI.COMM_WORLD.Allreduce(MPI.IN_PLACE, x)
assert (x == MPI.COMM_WORLD.size).all(), x') ||
  { echo "python.sh: an mpi4py run under $preload failed:" >&2; echo "$served" >&2; exit 1; }
grep -qE 'MPI_Allreduce +<= 64 B +hympi ' <<<"$served" ||
  { echo "python.sh: $preload did not serve mpi4py's MPI_Allreduce:" >&2; echo "$served" >&2; exit 1; }
echo "python.sh: installed $preload serves mpi4py's MPI_Allreduce"

echo "python.sh: [${SECONDS} s] tests"
ctest --test-dir "$venv/build" -L python -j2 --output-on-failure ${CTEST_ARGS:-}
echo "python.sh: [${SECONDS} s] done ($mpi)"
