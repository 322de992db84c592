#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Sends bench/cluster/run.sh to Slurm once per node count, each job on whole nodes with
# one task per core (or TASKS_PER_NODE), from the repository's root so that run.sh finds
# the build; the jobs' settings (OUT, LAUNCH, STEPS, ...: run.sh) pass with the environment,
# and each job's output goes to OUT/slurm-<job>.out.
#   bench/cluster/submit.sh NODES... [-- sbatch options]
#   e.g. bench/cluster/submit.sh 1 2 4 8 16 -- --partition=compute --account=proj --time=01:00:00
# then, when they have run: bench/cluster/collect.py bench-results/cluster
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
counts=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    '' | *[!0-9]* | 0) echo "submit.sh: '$1' is not a node count" >&2; exit 2 ;;
  esac
  counts+=("$1")
  shift
done
[ $# -gt 0 ] && shift  # the --
if [ ${#counts[@]} -eq 0 ]; then grep -E '^#   (bench/|e\.g\.)' "$0" | cut -c5- >&2; exit 2; fi
command -v sbatch >/dev/null || { echo "submit.sh: no sbatch here: run it on the cluster's login node" >&2; exit 2; }
cd "$here/../.."
# Tasks per node: TASKS_PER_NODE, else the cores (sockets x cores per socket) of the first
# node of the partition named in the sbatch options (or the default one).
partition=()
for option in "$@"; do
  case $option in --partition=*) partition=(--partition "${option#--partition=}") ;; esac
done
per_node=${TASKS_PER_NODE:-$(sinfo -h -N -o '%X %Y' ${partition[@]+"${partition[@]}"} 2>/dev/null | awk 'NR == 1 { print $1 * $2 }')}
[ -n "$per_node" ] || { echo "submit.sh: sinfo gave no cores per node: set TASKS_PER_NODE" >&2; exit 2; }
out=${OUT:-bench-results/cluster}
mkdir -p "$out"
for n in "${counts[@]}"; do
  sbatch --parsable -N "$n" --ntasks-per-node "$per_node" --output "$out/slurm-%j.out" "$@" bench/cluster/run.sh |
    sed "s/^/submit.sh: $n node(s) x $per_node tasks: job /"
done
