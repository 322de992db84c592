#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One multicore node's figures (BENCHMARKS.md, "One node of 16 cores"): what a 2-core machine
# cannot give, one rank per core, pinned. At the largest rank count first (most wanted first,
# so that a time limit cuts the least wanted):
#  - halo with the single copy on from 1 KiB (HYMPI_SINGLE_COPY=1024), so that one launch
#    times shm (single copy), shm-two_copies and the floors cma_copy and two_copies: the
#    smallest size where shm / shm-two_copies < 1 is where HYMPI_SINGLE_COPY should start
#    on this node (the floors say what the system call costs);
#  - allreduce, barrier, bcast and reduce against the MPI library's (bcast and reduce: the
#    flat protocol up to 32 / (P - 1) doubles, then the tree), halo-grid, and petsc (PETSc's
#    VecScatter per PetscSF type; a build without PETSc says so and exits 0);
#  - with SWEEP_PARTITIONS (files of `hympi-mesh partition` cut for the largest count): the
#    cube mesh's ghost update of Quaranta & Maddegedara (2021), Fig. 16 (halo-mesh: flat MPI,
#    hympi's strategies, MPI's neighbourhood exchange and the RMA baselines), 3 values per
#    point as their data sizes imply, one step per file;
#  - affinity (their Fig. 13: the allreduce's tree per socket against one tree by rank) with
#    the ranks mapped by core ("bunch") and by socket ("scatter"), twice; on a node of one
#    socket, on two emulated sockets instead (HYMPI_EMULATE_SOCKETS=2:bunch, 2:scatter);
#  - with SWEEP_PMPI (a libhympi_pmpi.so) and hympi-osu-probe beside BENCH: an unchanged MPI
#    program timed OSU's way alone, with the library serving every call at every size
#    (HYMPI_PMPI=all and pmpi_served.env) and with the library loaded but serving none
#    (HYMPI_PMPI=none), SWEEP_LAUNCHES of each interleaved, in probe-npN-{mpi,pmpi,none}-K.txt
#    (bench/scripts/pmpi_compare.py --from OUT_DIR --np N tabulates them; SWEEP_PROBE_ARGS:
#    the probe's options);
#  - halo, allreduce and petsc again, for the spread between launches (SWEEP_LAUNCHES in all);
# then halo, allreduce, barrier, small bcast and reduce (8-256 B: the flat protocol, up to
# 32 / (P - 1) doubles, applies at 2-8 ranks only) and petsc at the smaller counts, and halo
# on emulated nodes of half the largest count. The allreduce and barrier steps time hympi-seq_cst too (every atomic
# seq_cst: the paper's ablation).
# Each step has its own time limit, cut to what is left of SWEEP_SECONDS when that is set; its
# output lands in OUT_DIR/<step>.txt, its samples in OUT_DIR/<step>.json
# (bench/scripts/summarize.py OUT_DIR/*.json tabulates them). SWEEP_LAUNCHES: launches of
# the repeated steps at the largest count (default 3; affinity's: one fewer, at least 1).
# SWEEP_ARGS: hympi-bench options
# for every step (ctest's smoke run: --quick). Exit 1 if a step failed or hit its limit (its
# output's last 25 lines are printed)
# (steps left out because SWEEP_SECONDS was spent are only reported).
#   bench/scripts/node_sweep.sh BENCH MPIEXEC OUT_DIR [NP...]            (default NP: 16 8 4)
#   e.g. bench/scripts/node_sweep.sh build/openmpi/bench/hympi-bench mpirun bench-results/node 16 8
set -uo pipefail
if [ $# -lt 3 ]; then grep -E '^#   (bench/|e\.g\.)' "$0" | cut -c5- >&2; exit 2; fi
bench=$1 mpiexec=$2 out=$3
shift 3
nps=("$@")
[ ${#nps[@]} -gt 0 ] || nps=(16 8 4)
mkdir -p "$out"
rm -f "$out"/*-np[0-9]*.txt "$out"/*-np[0-9]*.json  # an earlier sweep's steps: none read as this one's
cpus=$(nproc)
cores=$(lscpu -p=CORE 2>/dev/null | grep -v '^#' | sort -u | wc -l)
echo "== $cpus CPUs, $cores cores, ptrace_scope $(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo none); $("$mpiexec" --version 2>&1 | grep -m1 -iE "open mpi|version:")"
openmpi=0 failed=0
case "$("$mpiexec" --version 2>&1)" in *"Open MPI"*|*OpenRTE*) openmpi=1 ;; esac
# name np seconds [VAR=value...] -- hympi-bench arguments. Two VARs are the step's own:
# MAP_BY=unit maps the ranks by that unit (socket) instead of by core, PROGRAM=path runs that
# program (no --json) instead of hympi-bench.
step() {
  local name=$1 np=$2 limit=$3 map="" program=$bench json=1
  shift 3
  if [ -n "${SWEEP_SECONDS:-}" ]; then
    local left=$((SWEEP_SECONDS - SECONDS))
    if [ $left -lt 20 ]; then echo "== $name: skipped, SWEEP_SECONDS spent"; return; fi
    [ $left -lt "$limit" ] && limit=$left
  fi
  local launch=(-n "$np") unit=core
  [ "$np" -gt "$cores" ] && unit=hwthread  # more ranks than cores: one per hardware thread
  local variables=()
  while [ "$1" != -- ]; do
    case $1 in
      MAP_BY=*) map=${1#*=} ;;
      PROGRAM=*) program=${1#*=} json=0 ;;
      *) if [ $openmpi = 1 ]; then variables+=(-x "$1"); else variables+=(-env "${1%%=*}" "${1#*=}"); fi ;;
    esac
    shift
  done
  shift
  if [ $openmpi = 1 ]; then
    launch+=(--map-by "${map:-$unit}:OVERSUBSCRIBE" --bind-to "$unit")
  else
    launch+=(-bind-to "$unit")
    [ -n "$map" ] && launch+=(-map-by "$map")
  fi
  launch+=(${variables[@]+"${variables[@]}"})  # (an empty array under set -u: bash before 4.4 stops)
  local options=()
  # shellcheck disable=SC2206  # SWEEP_ARGS, SWEEP_PROBE_ARGS: several options
  if [ $json = 1 ]; then options=(${SWEEP_ARGS:-} "$@" --json "$out/$name.json"); else options=(${SWEEP_PROBE_ARGS:-} "$@"); fi
  echo "== $name: $mpiexec ${launch[*]} $(basename "$program") ${options[*]+"${options[*]}"}"
  local t0=$SECONDS
  timeout "$limit" "$mpiexec" "${launch[@]}" "$program" ${options[@]+"${options[@]}"} >"$out/$name.txt" 2>&1
  local rc=$?
  echo "   exit $rc after $((SECONDS - t0)) s"
  if [ $rc != 0 ]; then  # what it said, for a report that is all a reader has (a CI log)
    failed=$((failed + 1))
    echo "   the last lines of $out/$name.txt:"
    tail -n 25 "$out/$name.txt" | sed 's/^/   | /'
    [ -s "$out/$name.txt" ] || echo "   (no output)"
    [ $rc = 124 ] && echo "   (it hit its limit of $limit s)"
  fi
  grep -E '^# ratio (shm|hympi|sf_hympi)(\(tree by [^)]*\))? / (shm-two_copies|cma_copy|flat_mpi|MPI_Allreduce|MPI_Barrier|MPI_Bcast|MPI_Reduce|sf_basic):|^# trees over' \
    "$out/$name.txt" | head -20
}
top=${nps[0]}
step "halo-np$top" "$top" 150 HYMPI_SINGLE_COPY=1024 -- halo
step "allreduce-np$top" "$top" 60 -- allreduce
step "barrier-np$top" "$top" 60 -- barrier
step "bcast-np$top" "$top" 60 -- bcast --sizes 8,16,64,256,4096,32768
step "reduce-np$top" "$top" 60 -- reduce --sizes 8,16,64,256,4096,32768
step "halo-grid-np$top" "$top" 120 -- halo-grid
step "petsc-np$top" "$top" 120 -- petsc
for partition in ${SWEEP_PARTITIONS:-}; do
  step "halo-mesh-np$top-$(basename "$partition" .part)" "$top" 150 -- halo-mesh --partition "$partition" --chunk 3
done
sockets=$(lscpu -p=SOCKET 2>/dev/null | grep -v '^#' | sort -u | wc -l)
bunch=(MAP_BY=) scatter=(MAP_BY=socket)  # MAP_BY= : the default mapping, by core
if [ "$sockets" -lt 2 ]; then bunch=(HYMPI_EMULATE_SOCKETS=2:bunch) scatter=(HYMPI_EMULATE_SOCKETS=2:scatter); fi
launches=${SWEEP_LAUNCHES:-3}
for ((i = 1; i <= (launches > 1 ? launches - 1 : 1); i++)); do
  step "affinity-np$top-bunch-$i" "$top" 60 "${bunch[@]}" -- affinity
  step "affinity-np$top-scatter-$i" "$top" 60 "${scatter[@]}" -- affinity
done
probe=$(dirname "$bench")/hympi-osu-probe
if [ -n "${SWEEP_PMPI:-}" ] && [ -x "$probe" ]; then
  settings=$(dirname "$0")/pmpi_served.env
  [ -r "$settings" ] || { echo "node_sweep.sh: no $settings (it comes with this script)" >&2; exit 2; }
  mapfile -t served < <(grep -Ev '^[[:space:]]*(#|$)' "$settings")
  served+=("LD_PRELOAD=$SWEEP_PMPI")
  for ((i = 1; i <= launches; i++)); do
    step "probe-np$top-mpi-$i" "$top" 120 PROGRAM="$probe" --
    step "probe-np$top-pmpi-$i" "$top" 120 PROGRAM="$probe" HYMPI_PMPI=all "${served[@]}" --
    step "probe-np$top-none-$i" "$top" 120 PROGRAM="$probe" HYMPI_PMPI=none "${served[@]}" --
  done
fi
for ((i = 2; i <= launches; i++)); do
  step "halo-np$top-$i" "$top" 150 HYMPI_SINGLE_COPY=1024 -- halo
  step "allreduce-np$top-$i" "$top" 60 -- allreduce
  step "petsc-np$top-$i" "$top" 120 -- petsc
done
for np in "${nps[@]:1}"; do
  step "halo-np$np" "$np" 150 HYMPI_SINGLE_COPY=1024 -- halo
  step "allreduce-np$np" "$np" 60 -- allreduce
  step "barrier-np$np" "$np" 60 -- barrier
  step "bcast-np$np" "$np" 60 -- bcast --sizes 8,32,64,256
  step "reduce-np$np" "$np" 60 -- reduce --sizes 8,32,64,256
  step "petsc-np$np" "$np" 120 -- petsc
done
if [ "$top" -ge 2 ]; then step "halo-np$top-node$((top / 2))" "$top" 150 HYMPI_NODE_SIZE=$((top / 2)) -- halo; fi
if [ $failed -gt 0 ]; then echo "== $failed steps failed: $out/*.txt"; exit 1; fi
