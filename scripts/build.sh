#!/usr/bin/env bash
# Configures and builds one tree: scripts/build.sh openmpi|mpich|openmpi-sanitize [cmake options...]
# -> build/<tree>, compiled with that MPI's wrappers and tested with its launcher.
# openmpi-sanitize: the library and its MPI tests under AddressSanitizer + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=${1:?usage: scripts/build.sh openmpi|mpich|openmpi-sanitize [cmake options]}
shift
case "$tree" in
  openmpi) mpi=openmpi; launcher=/usr/bin/mpirun.openmpi; extra=() ;;
  # ThreadSanitizer runs MPI-free code: once, in the Open MPI tree, is enough.
  mpich) mpi=mpich; launcher=/usr/bin/mpiexec.mpich; extra=(-DHYMPI_TSAN_TESTS=OFF) ;;
  openmpi-sanitize) mpi=openmpi; launcher=/usr/bin/mpirun.openmpi
    extra=(-DHYMPI_SANITIZE=address,undefined -DHYMPI_BUILD_BENCH=OFF -DHYMPI_TSAN_TESTS=OFF) ;;
  *) echo "build.sh: unknown tree '$tree' (openmpi, mpich or openmpi-sanitize)" >&2; exit 2 ;;
esac
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B "build/$tree" "${generator[@]}" \
  -DMPI_C_COMPILER="mpicc.$mpi" -DMPI_CXX_COMPILER="mpicxx.$mpi" \
  -DMPIEXEC_EXECUTABLE="$launcher" "${extra[@]}" "$@" >/dev/null
cmake --build "build/$tree" --parallel 2
