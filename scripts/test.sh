#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The whole test suite, from a fresh machine:
#   scripts/test.sh          installs dependencies (scripts/deps.sh: Debian's packages as
#                            root, PyPI's Open MPI 5 and MPICH 5 wheels in .deps/), then
#                            builds and tests each tree as the table below says
#   scripts/test.sh --all    every test in every tree (about half as long again) but
#                            label "large" (messages above 2 GiB: ctest -L large by hand)
# Environment: HYMPI_TREES (which trees, default all of the table), CTEST_ARGS (extra
# ctest flags).
set -euo pipefail
cd "$(dirname "$0")/.."
all=0
case "${1:-}" in
  "") ;;
  --all) all=1 ;;
  *) echo "test.sh: unknown option '$1' (--all, or nothing)" >&2; exit 2 ;;
esac
bash scripts/deps.sh
if ! getent hosts "$(hostname)" >/dev/null 2>&1; then
  echo "test.sh: warning: this machine's hostname '$(hostname)' does not resolve; MPI start-up then" >&2
  echo "         waits for DNS (about 10 s per launch here). Add '127.0.1.1 $(hostname)' to /etc/hosts." >&2
fi

# What runs where, to stay within CI's 60 minutes on two cores (a clean clone: 70m40s on
# 2026-11-27; 67m30s on 2026-11-28 with the long runs at 7-8 ranks, on emulated hosts and
# under the sanitizers shortened; about 57 minutes later that day with -g1 and the unit
# tests in one tree: builds about 22 minutes, tests 35; 56m55s on 2026-11-28 with the 7-8
# rank ghost-update shapes split between the two full trees below; each tree's start is stamped
# below, its tests' time is ctest's "Total Test time"). An MPI test asks ctest for
# one processor per rank: with -j2 the tests of two or more ranks ran one at a time, so -j4
# below (Open MPI 5's core: 329 s instead of 381).
# Every protocol runs against its plain-MPI reference at 1-8 ranks with an Open MPI and an
# MPICH: Debian's Open MPI 4.1 and MPICH 5.0 (PyPI's wheel) run everything they can build
# but the "trimmed" tests (the ghost update at 7-8 ranks on nodes of 1 and 4, where nodes
# of 2 and 3 run; Open MPI 4.1's multihost 4x1, where its 2x2 runs) and, of the ghost
# update's six other 7-8 rank shapes (each 13-26 s, alone on the machine), half each: Open
# MPI 4.1 runs np7.node2, np8 and np8.node3, MPICH 5 np7, np7.node3 and np8.node2 (each MPI at
# 7 and 8 ranks, on real and emulated nodes; together every shape). Open MPI 5.0 (PyPI's
# wheel) runs "core": the MPI protocols and every bad-input and lifetime path at 1-4 ranks,
# real and emulated nodes, and MPICH's test suite's selection. Debian's MPICH 4.0,
# the slowest here when oversubscribed (it spins), runs core with the ghost update at 1-2
# ranks only, and the bindings the wheels cannot carry (Fortran: no wrappers in them;
# Python: mpi4py). The sanitizer tree (Open MPI 4.1, ASan + UBSan) runs core, its long runs
# a tenth as long (cmake/HympiMpiTests.cmake). Trees that
# run core only build no benchmark, mesh tool or application they do not test. --all runs
# and builds everything in every tree. The minimal install (package.minimal: the library
# configured with every optional package hidden, built, installed and consumed) runs in the
# Open MPI 4.1 tree only (but with --all).
core='^(misuse|bad_input|finalize|watchdog|killed|c|topology|window|visibility|node_shared|collectives|contexts|halo|grid|pmpi)\..*np[1-4]($|\.)'
bindings='^(fortran|python|examples|package)\.'
trimmed='^halo\.np[78]\.node[14]$'  # --all runs them
minimal='^package\.minimal$'
declare -A selection=(
  [openmpi]="-E $trimmed|^multihost\.4x1$|^halo\.np7(\.node3)?$|^halo\.np8\.node2$"
  [mpich5]="-E $trimmed|^halo\.np7\.node2$|^halo\.np8(\.node3)?$|$minimal"
  [openmpi5]="-R $core|^mpich_suite\\."
  [mpich]="-R $core|$bindings -E ^halo\.np[34]|$minimal"
  [openmpi-sanitize]="-L sanitize -R $core")
# Each tree names every optional component ON or OFF (here, in CMakePresets.json or below):
# a component left AUTO would be skipped, its tests with it, where a dependency went missing.
components=(-DHYMPI_BUILD_TESTS=ON -DHYMPI_BUILD_PMPI=ON -DHYMPI_BUILD_MAPPING=ON)
declare -A tree_components=(
  [openmpi]="-DHYMPI_BUILD_FORTRAN=ON -DHYMPI_PETSC=ON -DHYMPI_BUILD_APPS=ON -DHYMPI_BUILD_BENCH=ON -DHYMPI_BUILD_MESH=ON"
  [mpich5]="-DHYMPI_BUILD_APPS=ON -DHYMPI_BUILD_BENCH=ON -DHYMPI_BUILD_MESH=ON -DHYMPI_BUILD_PYTHON=OFF"
  [openmpi5]="-DHYMPI_BUILD_PYTHON=OFF"
  [mpich]="-DHYMPI_BUILD_FORTRAN=ON -DHYMPI_BUILD_APPS=ON"
  [openmpi-sanitize]="-DHYMPI_PETSC=ON -DHYMPI_BUILD_PYTHON=OFF")
declare -A core_build=(
  [openmpi5]="-DHYMPI_BUILD_APPS=OFF -DHYMPI_BUILD_BENCH=OFF -DHYMPI_BUILD_MESH=OFF"
  [mpich]="-DHYMPI_BUILD_BENCH=OFF -DHYMPI_BUILD_MESH=OFF")  # its examples need the apps
# ctest's slots: an MPI test takes one per rank (PROCESSORS), so -j4 runs at most four ranks
# at once (two tests of two ranks, or one of four; one of 7-8 ranks alone), as a four-rank
# test does on its own; tests that only wait (the watchdog's) take one slot. MPICH 4.0 spins
# when oversubscribed: one MPI test at a time (-j2).
declare -A jobs=([mpich]=2)
# debian13 (scripts/debian13.sh, as root: a Debian 13 chroot): MPICH 4.2 and Open MPI 5.0
# with their Fortran bindings, the libhympi_pmpi and Fortran tests, about 8 minutes from a
# bare chroot (making it and the two builds 4, tests 3 + 1); a developer who is not root is
# told it was left out.
trees=${HYMPI_TREES:-openmpi mpich5 openmpi5 mpich openmpi-sanitize debian13}

for tree in $trees; do
  [ "$tree" = debian13 ] || [ -v "selection[$tree]" ] || { echo "test.sh: unknown tree '$tree'" >&2; exit 2; }
  echo "=== hympi tests: $tree ($(date -u +%H:%M:%S) UTC) ==="
  if [ "$tree" = debian13 ]; then
    if [ "$(id -u)" -eq 0 ]; then
      bash scripts/debian13.sh ${CTEST_ARGS:-}
    else
      echo "test.sh: tree debian13 left out: it needs root (scripts/debian13.sh)" >&2
    fi
    continue
  fi
  # Line tables only (-g1): backtraces and sanitizer reports keep files and lines, the
  # builds take a quarter less (-g: hympi-bench's main.cpp 30 s, with -g1 23 s).
  read -r -a own <<<"${tree_components[$tree]}"
  options=(-DHYMPI_WERROR=ON "${components[@]}" "${own[@]}")
  for language in C CXX Fortran; do
    options+=("-DCMAKE_${language}_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")
  done
  case "$tree" in
    openmpi|mpich)
      # The Python package's venv (build tools, mpi4py on this MPI); its tests run in the tree.
      bash scripts/python.sh "$tree" venv
      options+=(-DHYMPI_BUILD_PYTHON=ON -DPython_EXECUTABLE="$PWD/build/python-$tree/bin/python") ;;
  esac
  what=()
  if [ $all = 0 ] || [ "$tree" = openmpi-sanitize ]; then
    read -r -a what <<<"${selection[$tree]}"
    read -r -a lighter <<<"${core_build[$tree]:-}"
    options+=("${lighter[@]}")
  elif [ "$tree" != openmpi-sanitize ]; then
    options+=(-DHYMPI_BUILD_APPS=ON -DHYMPI_BUILD_BENCH=ON -DHYMPI_BUILD_MESH=ON)
  fi
  bash scripts/build.sh "$tree" "${options[@]}"
  # Label "large": messages above 2 GiB (tests/pmpi), run by hand only (`ctest -L large`).
  (cd "build/$tree" && ctest -j"${jobs[$tree]:-4}" --output-on-failure -LE large "${what[@]}" ${CTEST_ARGS:-})
done
