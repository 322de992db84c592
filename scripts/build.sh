#!/usr/bin/env bash
# Configures and builds one tree: scripts/build.sh openmpi|mpich|openmpi-sanitize [cmake options...]
# -> build/<tree>, through the CMake preset of that name (CMakePresets.json: that MPI's
# compiler wrappers and launcher; openmpi-sanitize: the library and its MPI tests under
# AddressSanitizer + UBSan). Ninja when it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=${1:?usage: scripts/build.sh openmpi|mpich|openmpi-sanitize [cmake options]}
shift
case "$tree" in
  openmpi|mpich|openmpi-sanitize) ;;
  *) echo "build.sh: unknown tree '$tree' (openmpi, mpich or openmpi-sanitize)" >&2; exit 2 ;;
esac
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake --preset "$tree" "${generator[@]}" "$@" >/dev/null
cmake --build --preset "$tree"
