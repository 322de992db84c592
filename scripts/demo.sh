#!/usr/bin/env bash
# The demo on built-in defaults: installs dependencies (as root), builds, and runs
# hympi-bench (barrier, allreduce, dot, sync, ghost update: hympi vs the MPI library's own) at 2 ranks pinned
# one per core, with Open MPI and MPICH. Tables on the terminal, every sample in
# bench-results/<mpi>.json.
#   scripts/demo.sh [hympi-bench arguments]     default: all
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
mkdir -p bench-results
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(all)
for mpi in openmpi mpich; do
  echo "=== building with $mpi ==="
  bash scripts/build.sh "$mpi" -DHYMPI_BUILD_TESTS=OFF
  echo "=== hympi-bench ${args[*]} with $mpi, 2 ranks bound one per core ==="
  bench="build/$mpi/bench/hympi-bench"
  case "$mpi" in
    openmpi) OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
               mpirun.openmpi -n 2 --bind-to core "$bench" "${args[@]}" --json "bench-results/$mpi.json" ;;
    mpich) mpiexec.mpich -n 2 -bind-to core "$bench" "${args[@]}" --json "bench-results/$mpi.json" ;;
  esac
done
echo "Results: bench-results/openmpi.json bench-results/mpich.json (see BENCHMARKS.md for how to read them)"
