#!/usr/bin/env bash
# Configures and builds one MPI's tree: scripts/build.sh openmpi|mpich [cmake options...]
# -> build/<mpi>, compiled with that MPI's wrappers and tested with its launcher.
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${1:?usage: scripts/build.sh openmpi|mpich [cmake options]}
shift
case "$mpi" in
  openmpi) launcher=/usr/bin/mpirun.openmpi; extra=() ;;
  # ThreadSanitizer runs MPI-free code: once, in the Open MPI tree, is enough.
  mpich) launcher=/usr/bin/mpiexec.mpich; extra=(-DHYMPI_TSAN_TESTS=OFF) ;;
  *) echo "build.sh: unknown MPI '$mpi' (openmpi or mpich)" >&2; exit 2 ;;
esac
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B "build/$mpi" "${generator[@]}" \
  -DMPI_C_COMPILER="mpicc.$mpi" -DMPI_CXX_COMPILER="mpicxx.$mpi" \
  -DMPIEXEC_EXECUTABLE="$launcher" "${extra[@]}" "$@" >/dev/null
cmake --build "build/$mpi" --parallel 2
