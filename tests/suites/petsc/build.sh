#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds PETSc's own tests (the C examples of PETSc 3.18.5's source tree, with their /*TEST*/
# blocks; from Debian 12's source package petsc 3.18.5+dfsg1-1, sha256-checked, fetched
# once by tests/suites/debian_source.sh) against the PETSc pkg-config finds, which must be
# that version, for tests/suites/petsc/run.py (it runs them plainly and through hympi).
#   tests/suites/petsc/build.sh <mpicc> <out> [folder | folder/example ...]
# <mpicc> is the compiler wrapper of PETSc's MPI; folders are under PETSc's src/ (default:
# vec/is/sf/tests vec/is/sf/tutorials vec/vec/tests vec/vec/tutorials dm/tests dm/tutorials
# ksp/ksp/tutorials). <out>/src holds the sources, <out>/ex/<folder>/<example> the programs;
# an example that does not build here (a package this PETSc lacks) is left out. PETSc's
# sources are PETSc's (BSD-2-Clause); none is kept in this repository. Exit 2 when the
# sources cannot be had or pkg-config's PETSc is another version.
set -euo pipefail
usage="usage: build.sh <mpicc> <out> [folder | folder/example ...]"
mpicc=${1:?$usage}
out=${2:?$usage}
shift 2
folders=("$@")
[ ${#folders[@]} -gt 0 ] ||
  folders=(vec/is/sf/tests vec/is/sf/tutorials vec/vec/tests vec/vec/tutorials dm/tests dm/tutorials ksp/ksp/tutorials)
mkdir -p "$out"
out=$(cd "$out" && pwd)

version=3.18.5 debian=3.18.5+dfsg1-1
sha256=e80001ace81706271c25701d3200e75cb62d69194f9e0ed85e4ae213eecb33b6  # petsc_3.18.5+dfsg1.orig.tar.xz
have=$(pkg-config --modversion PETSc 2>/dev/null || true)
if [ "$have" != "$version" ]; then
  echo "petsc-suite: pkg-config's PETSc is '${have:-none}', the suite here is $version's" >&2
  exit 2
fi
src=$out/src/petsc-$version
if [ ! -f "$src/config/testparse.py" ]; then
  "$(dirname "$0")/../debian_source.sh" petsc "$debian" "petsc_$version+dfsg1.orig.tar.xz" "$sha256" "$out/src"
  tar -xJf "$out/src/petsc_$version+dfsg1.orig.tar.xz" -C "$out/src" "petsc-$version/config" "petsc-$version/src"
fi
# One compile per example, as many at once as there are cores.
for target in "${folders[@]}"; do
  if [ -f "$src/src/$target.c" ]; then sources=("$src/src/$target.c")  # one example
  elif [ -d "$src/src/$target" ]; then sources=("$src/src/$target"/*.c)
  else echo "petsc-suite: no src/$target(.c) in PETSc $version" >&2; exit 1
  fi
  for c in "${sources[@]}"; do
    exe=$out/ex/${c#"$src/src/"}
    exe=${exe%.c}
    mkdir -p "$(dirname "$exe")"
    [ "$exe" -nt "$c" ] || printf '%s\0%s\0' "$c" "$exe"
  done
done | xargs -0 -r -n 2 -P "$(nproc)" sh -c \
  "$mpicc -O1 -w \$(pkg-config --cflags PETSc) \"\$0\" -o \"\$1\" \$(pkg-config --libs PETSc) -lm >\"\$1.log\" 2>&1 || rm -f \"\$1\""
echo "petsc-suite: $out/ex"
