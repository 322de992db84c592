#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The aggregation measurements of BENCHMARKS.md: hympi-bench halo-grid (19-point stencil),
# emulated nodes, flat vs aggregated vs aggregated_odm:
#  - the fit set, one rank per core (the model has no term for time-sharing): np 2 as two
#    nodes of 1 (internode only) and one node of 2 (intranode only), grids 16^3 .. 96^3;
#  - indications, oversubscribed: np 8 as nodes of 1, 2 and 4 on 24^3, 48^3 and 96^3;
# then the cost model fitted on the fit set and its prediction for MASHM's 2-512 nodes x
# 16 ranks with this machine's measured links.
#   bench/scripts/aggregation_sweep.sh [BUILD_DIR] [OUT_DIR]      (default build/openmpi, bench-results/aggregation)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/openmpi}
out=${2:-bench-results/aggregation}
mkdir -p "$out"
mpiexec=$(grep -E '^MPIEXEC_EXECUTABLE:' "$build/CMakeCache.txt" | cut -d= -f2)
extra=()
case "$("$mpiexec" --version 2>&1)" in *OpenRTE*|*"Open MPI"*) extra=(--oversubscribe) ;; esac
run() {  # np node n
  local np=$1 node=$2 n=$3
  echo "== np $np, nodes of $node, ${n}^3" >&2
  HYMPI_NODE_SIZE=$node "$mpiexec" "${extra[@]}" -n "$np" "$build/bench/hympi-bench" halo-grid \
    --grid "$n,$n,$n" --outer 30 --inner 20 --json "$out/halo-grid-np$np-node$node-$n.json" >"$out/halo-grid-np$np-node$node-$n.txt"
}
for node in 1 2; do for n in 16 24 32 48 64 96; do run 2 $node $n; done; done
for node in 1 2 4; do for n in 24 48 96; do run 8 $node $n; done; done
"$mpiexec" -n 1 "$build/bench/hympi-bench" stats --json "$out/stats.json" >"$out/stats.txt"
/usr/bin/python3 bench/scripts/cost_model.py predict "$out"/halo-grid-np2-*.json --stats "$out/stats.json" | tee "$out/cost-model.md"
