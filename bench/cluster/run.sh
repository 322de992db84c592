#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#SBATCH --job-name=hympi-paper
#SBATCH --exclusive
#SBATCH --time=02:00:00
# The multi-node experiments of the papers hympi comes from, on the nodes of the Slurm
# allocation this runs in: `sbatch -N 4 --ntasks-per-node 36 bench/cluster/run.sh`, or
# `bench/cluster/run.sh` inside `salloc` (bench/cluster/submit.sh sends one job per node
# count). One rank per task, pinned to a core. Steps (STEPS, in this order):
#   barrier    Quaranta & Maddegedara (2021), Figs. 18-19: hympi's barriers against
#              MPI_Barrier, 100 x 100 calls, extreme values kept and counted
#   allreduce  Fig. 20: hympi's allreduce against MPI_Allreduce, 8 B - 1 MiB
#   dot        Fig. 21: the FP32 dot product's MFLOP/s per core
#   halo-mesh  Figs. 22-23: ghost updates on the cube mesh (sizes MESH_SIZES, 3 values per
#              point as the paper), every strategy against flat MPI and the RMA baselines
#   halo-grid  Jamroz & Dennis (2016), MASHM's node scaling: flat against aggregated and
#              ODM on a structured grid of GRID points per rank (weak scaling)
#   pmpi       an unchanged MPI program with libhympi_pmpi: hympi-osu-probe (OSU's method)
#              alone, preloaded serving every call at every size, and preloaded serving
#              none, PMPI_LAUNCHES (default 3) of each in turn
# Each step writes OUT/<nodes>n<tasks per node>/<step>.json (every sample and the
# machine) and .txt; `bench/cluster/collect.py OUT` makes the tables across node counts.
# pmpi writes probe-np<tasks>-{mpi,pmpi,none}-<launch>.txt there instead, which
# `bench/scripts/pmpi_compare.py --from OUT/<nodes>n<tasks per node> --np <tasks>` tables.
# A failed step is reported and the others still run; the exit code is 1 if any failed.
# Settings (environment; Slurm passes the submitting shell's):
#   HYMPI_BENCH  hympi-bench to run (default: build/openmpi/bench/hympi-bench of this repository)
#   OUT          results folder (default: bench-results/cluster)
#   LAUNCH       srun (default: Slurm's PMI must match the MPI) or mpirun (the MPI's own
#                launcher, which reads the allocation)
#   STEPS        default: barrier allreduce dot halo-mesh halo-grid pmpi
#   MESH_SIZES   default: 0.02 0.01 (the paper's 0.005 and 0.004 need about 8x and 15x the
#                memory of 0.01's 3.85 M tetrahedra)
#   GRID         points per rank per dimension of halo-grid (default 64: 64^3 per rank)
#   BENCH_ARGS   options for every hympi-bench step (e.g. --quick for a smoke run)
#   PROBE_ARGS   options for hympi-osu-probe (e.g. --iterations 20; default OSU's counts)
#   HYMPI_PMPI_LIB  libhympi_pmpi.so of the same MPI (default: the one of HYMPI_BENCH's build tree)
#   PMPI_LAUNCHES  launches of each pmpi variant (default 3)
#   EMULATE      K: emulate nodes of K ranks inside each node (a test on a small allocation)
#   BIND         none: leave the ranks unpinned (nodes that share cores: local-slurm.sh's
#                emulated hosts); default: one core each
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# sbatch runs a copy of this script from the spool: the repository is where it was submitted.
repo=${SLURM_SUBMIT_DIR:-$here/../..}
[ -f "$repo/bench/cluster/run.sh" ] || repo=$here/../..
bench=${HYMPI_BENCH:-$repo/build/openmpi/bench/hympi-bench}
nodes=${SLURM_JOB_NUM_NODES:-}
tasks=${SLURM_NTASKS:-}
if [ -z "$nodes" ] || [ -z "$tasks" ]; then
  echo "run.sh: not inside a Slurm allocation (no SLURM_JOB_NUM_NODES / SLURM_NTASKS): use sbatch or salloc" >&2
  exit 2
fi
if [ ! -x "$bench" ]; then
  echo "run.sh: no hympi-bench at $bench: build hympi (scripts/build.sh) or set HYMPI_BENCH" >&2
  exit 2
fi
per_node=$((tasks / nodes))
out=${OUT:-bench-results/cluster}/${nodes}n${per_node}
mkdir -p "$out"
read -r -a steps <<<"${STEPS:-barrier allreduce dot halo-mesh halo-grid pmpi}"
read -r -a mesh_sizes <<<"${MESH_SIZES:-0.02 0.01}"
read -r -a extra <<<"${BENCH_ARGS:-}"
read -r -a probe_args <<<"${PROBE_ARGS:-}"
[ -n "${EMULATE:-}" ] && extra+=(--ranks-per-node "$EMULATE")
bind=core
[ "${BIND:-}" = none ] && bind=none
case ${LAUNCH:-srun} in
  # A task that dies ends the step at once, as under mpirun (not its peers' watchdog).
  srun) launch=(srun --kill-on-bad-exit=1 --cpu-bind="${bind/core/cores}" --ntasks "$tasks") ;;
  mpirun) launch=(mpirun -n "$tasks" --bind-to "$bind") ;;
  *) echo "run.sh: LAUNCH=${LAUNCH}: use srun or mpirun" >&2; exit 2 ;;
esac
echo "== $nodes node(s) x $per_node tasks, $("$bench" --version | head -1), launched by ${launch[0]}, results in $out"
failed=0
launched() {  # name -- what every rank runs; its output in OUT/.../name.txt
  local name=$1
  shift
  echo "== $name: ${launch[*]} $*"
  local code=0
  "${launch[@]}" "$@" >"$out/$name.txt" 2>&1 || code=$?
  if [ $code != 0 ]; then
    echo "== $name FAILED (exit $code): see $out/$name.txt"
    failed=1
  fi
}
run() {  # name -- hympi-bench subcommand and its options
  local name=$1
  shift
  launched "$name" "$bench" "${extra[@]+"${extra[@]}"}" --json "$out/$name.json" "$@"
}
# The probe alone and preloaded, each rank given the library and its settings by `env` (a
# launcher need not pass this shell's environment to other nodes); the settings are
# bench/scripts/pmpi_served.env's: every call at every size, from the first.
pmpi() {
  local probe=$(dirname "$bench")/hympi-osu-probe lib=${HYMPI_PMPI_LIB:-$(dirname "$bench")/../src/pmpi/libhympi_pmpi.so}
  local problem="" launches=${PMPI_LAUNCHES:-3} settings=$repo/bench/scripts/pmpi_served.env
  [ -x "$probe" ] || problem="no $probe (build hympi-osu-probe)"
  [ -r "$settings" ] || problem="no $settings (the settings of the served runs)"
  [ -f "$lib" ] || problem="no $lib (build hympi_pmpi, or set HYMPI_PMPI_LIB)"
  case $launches in '' | *[!0-9]* | 0) problem="PMPI_LAUNCHES='$launches': expected a count >= 1" ;; esac
  if [ -n "$problem" ]; then
    echo "== pmpi FAILED: $problem"
    failed=1
    return
  fi
  rm -f "$out"/probe-np*-*.txt  # an earlier job's launches: none tabled as this one's
  local i lines served=(env "LD_PRELOAD=$lib")
  mapfile -t lines < <(grep -Ev '^[[:space:]]*(#|$)' "$settings")
  served+=(${lines[@]+"${lines[@]}"})
  [ -n "${EMULATE:-}" ] && served+=("HYMPI_NODE_SIZE=$EMULATE")
  local command=("$probe" "${probe_args[@]+"${probe_args[@]}"}")
  for ((i = 1; i <= launches; i++)); do
    launched "probe-np$tasks-mpi-$i" "${command[@]}"
    launched "probe-np$tasks-pmpi-$i" "${served[@]}" HYMPI_PMPI=all "${command[@]}"
    launched "probe-np$tasks-none-$i" "${served[@]}" HYMPI_PMPI=none "${command[@]}"
  done
}
for step in "${steps[@]}"; do
  case $step in
    barrier | allreduce | dot) run "$step" "$step" ;;
    halo-mesh)
      for size in "${mesh_sizes[@]}"; do run "halo-mesh-$size" halo-mesh --size "$size" --chunk 3; done ;;
    halo-grid)
      # Weak scaling: the grid grows with the ranks (a cube of ranks^(1/3) x GRID points).
      g=$(python3 -c "import sys; print(round(int(sys.argv[1]) ** (1 / 3) * int(sys.argv[2])))" "$tasks" "${GRID:-64}")
      run halo-grid halo-grid --grid "$g" "$g" "$g" --stencil star7 ;;
    pmpi) pmpi ;;
    *) echo "== $step: unknown step (barrier, allreduce, dot, halo-mesh, halo-grid, pmpi)"; failed=1 ;;
  esac
done
exit $failed
