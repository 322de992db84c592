#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The cluster kit (bench/cluster/) under a real Slurm on two emulated hosts: local-slurm.sh
# brings up scripts/hosts.sh's namespaces with one slurmd each, submit.sh sends one job on
# both nodes (sbatch --wait; srun through Slurm's PMIx plugin, one rank per node, --quick),
# and collect.py must table every step with no step failed (its merging of node counts:
# tools.cluster_collect), pmpi_compare.py the probe with and without libhympi_pmpi.
#   tests/cluster/emulated_slurm.sh BUILD_DIR OUT_DIR
# Prints "cluster: skipped: <reason>" (ctest's SKIP_REGULAR_EXPRESSION) and exits 77 where
# namespaces cannot be made or Slurm cannot be installed; exits 1 with the jobs' output when
# a step fails.
set -uo pipefail
build=$1 out=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
slurm=$repo/bench/cluster/local-slurm.sh
if ! reason=$(bash "$repo/scripts/hosts.sh" check); then
  echo "cluster: skipped: $reason"
  exit 77
fi
bash "$slurm" down
trap 'bash "$slurm" down >/dev/null 2>&1' EXIT
if ! bash "$slurm" up 2 </dev/null; then
  command -v slurmd >/dev/null || { echo "cluster: skipped: Slurm could not be installed (scripts/deps.sh)"; exit 77; }
  echo "cluster: local-slurm.sh up 2 failed"
  exit 1
fi
rm -rf "$out"
mkdir -p "$out"
cd "$repo" || exit 1
# Nodes that share this machine's cores: unpinned (BIND=none); TCP between hosts.
bash "$slurm" run env OUT="$out" BIND=none BENCH_ARGS=--quick MESH_SIZES=0.05 GRID=8 TASKS_PER_NODE=1 \
  "PROBE_ARGS=--iterations 20" PMPI_LAUNCHES=1 \
  SLURM_MPI_TYPE=pmix HYMPI_BENCH="$build/bench/hympi-bench" HYMPI_MESH_DIR="$build/tests/meshes" \
  OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_vader_single_copy_mechanism=none \
  bash bench/cluster/submit.sh 2 -- --partition=local --wait </dev/null
status=$?
cat "$out"/slurm-*.out
if [ $status != 0 ] || grep -q FAILED "$out"/slurm-*.out; then
  echo "cluster: a job failed (exit $status)"
  exit 1
fi
tables=$(python3 "$repo/bench/cluster/collect.py" "$out") || { echo "cluster: collect.py failed"; exit 1; }
echo "$tables"
for row in "| MPI_Barrier |" "| MPI_Allreduce |" "| rma_lock_target |" "| aggregated |" "| implementation | 2 node(s) |" \
  "2 ranks on 2 node(s)"; do
  grep -qF "$row" <<<"$tables" || { echo "cluster: no '$row' in collect.py's tables"; exit 1; }
done
probes=$(python3 "$repo/bench/scripts/pmpi_compare.py" --from "$out/2n1" --np 2) ||
  { echo "cluster: pmpi_compare.py failed"; exit 1; }
echo "$probes"
for row in "| allreduce | 8 |" "| neighbor | 8 |"; do
  grep -qF "$row" <<<"$probes" || { echo "cluster: no '$row' in pmpi_compare.py's table"; exit 1; }
done
echo "cluster: 2 nodes, every step tabled"
