#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The demo on built-in defaults: installs dependencies (as root), builds, then for each MPI
# (Open MPI and MPICH) at 2 ranks bound one per core, hympi-bench all: barrier, allreduce,
# dot, sync, ghost update (ring patterns, a 48^3 19-point grid, the 0.03 cube mesh cut by
# METIS), the applications per strategy, against the MPI library's own operations,
# neighbourhood collectives, RMA and PETSc (Open MPI), interleaved in one launch; then the
# summary table (hympi / every peer), the plots and, last, five lines per MPI: where hympi was
# faster and by how much, where slower or tied, the applications, and what that means for an
# application (bench/scripts/report.py --brief).
#   scripts/demo.sh [hympi-bench arguments]     default: all --outer 30 --rounds 3
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
out=bench-results/demo
mkdir -p "$out"
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(all --outer 30 --rounds 3)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # the demo may run as root
runs=()
for mpi in openmpi mpich; do
  echo "=== [$mpi] building (build/$mpi) ==="
  bash scripts/build.sh "$mpi" -DHYMPI_BUILD_TESTS=OFF >"$out/build-$mpi.log" 2>&1 ||
    { tail -20 "$out/build-$mpi.log"; exit 1; }
  echo "=== [$mpi] hympi-bench ${args[*]}, 2 ranks bound one per core (tables: $out/$mpi.txt) ==="
  bench="build/$mpi/bench/hympi-bench"
  case "$mpi" in
    openmpi) launch=(mpirun.openmpi -n 2 --bind-to core) ;;
    mpich) launch=(mpiexec.mpich -n 2 -bind-to core) ;;
  esac
  "${launch[@]}" "$bench" "${args[@]}" --json "$out/$mpi.json" | tee "$out/$mpi.txt" |
    grep --line-buffered -E "^# (barrier|allreduce|halo|dot|sync|stats|mesh-stats|apps|[a-z0-9]+: communication)" || true
  runs+=("$out/$mpi.json")
done
echo "Tables: $out/<mpi>.txt; every sample: $out/<mpi>.json; plots and the full table: $out/*.png, $out/summary.md"
echo "=== summary: hympi / peer, median of interleaved pairs (< 1: hympi faster), then the verdict per MPI ==="
/usr/bin/python3 bench/scripts/report.py "${runs[@]}" --out "$out" --brief
