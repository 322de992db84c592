#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Packs what node_sweep.sh needs on a multicore node that has no compiler, no package
# registry and no MPI: the MPI's prefix (a relocatable one: the PyPI wheel's Open MPI 5 or
# MPICH 5), hympi-bench, hympi-osu-probe, libhympi_pmpi.so and every library they load that
# is not part of the C and C++ runtime, into one folder with node_sweep.sh and a run.sh.
#   bench/scripts/device_bundle.sh TREE DIR [PARTITION...]
#   e.g. cmake --preset openmpi5 -B build/device -DHYMPI_USE_GMSH=OFF -DHYMPI_BUILD_TESTS=OFF
#        cmake --build build/device --target hympi-bench hympi-osu-probe hympi_pmpi
#        build/openmpi/mesh/hympi-mesh partition --size 0.01 --parts 16 --out cube-0.01-16.part
#        bench/scripts/device_bundle.sh build/device .devrun cube-0.01-16.part
# PARTITION: files of `hympi-mesh partition` cut for the sweep's largest rank count (the
# cube mesh travels as its partition: Gmsh does not travel), for halo-mesh steps.
# Then, on the node:
#   bash .devrun/run.sh OUT_DIR [NP...]        (default NP: 16 8 4; SWEEP_SECONDS: 540)
# run.sh sets the MPI's environment (root allowed, the bundle's libraries first), maps the
# host's name to 127.0.0.1 when it does not resolve (Open MPI 5 needs it), runs node_sweep.sh
# with SWEEP_PMPI and the probe's 2,000 calls per size, and leaves OUT_DIR/*.txt and *.json
# (bench/scripts/summarize.py and pmpi_compare.py --from tabulate them where Python is).
set -euo pipefail
if [ $# -lt 2 ]; then grep -E '^#   (bench/|e\.g\.)' "$0" | cut -c5- >&2; exit 2; fi
tree=$1 dir=$2
shift 2
mpiexec=$(sed -n 's/^MPIEXEC_EXECUTABLE:[A-Z]*=//p' "$tree/CMakeCache.txt" 2>/dev/null || true)
[ -x "$mpiexec" ] || { echo "device_bundle: $tree is no configured hympi build tree (no MPIEXEC_EXECUTABLE in its CMakeCache.txt)" >&2; exit 1; }
prefix=$(dirname "$(dirname "$mpiexec")")
programs=("$tree/bench/hympi-bench" "$tree/bench/hympi-osu-probe" "$tree/src/pmpi/libhympi_pmpi.so")
for p in "${programs[@]}"; do
  [ -e "$p" ] || { echo "device_bundle: no $p (build hympi-bench, hympi-osu-probe, hympi_pmpi in $tree)" >&2; exit 1; }
done
case $prefix in
  /usr | /usr/local) echo "device_bundle: $tree uses the system's MPI ($mpiexec), which does not travel: use a wheel's (the openmpi5 or mpich5 preset)" >&2; exit 1 ;;
esac
if [ -e "$dir" ] && [ ! -e "$dir/.hympi-device-bundle" ]; then
  echo "device_bundle: $dir exists and is no bundle of this script: not replacing it" >&2
  exit 1
fi
rm -rf "$dir"
mkdir -p "$dir/bin" "$dir/lib" "$dir/partitions"
touch "$dir/.hympi-device-bundle"
[ $# -eq 0 ] || cp "$@" "$dir/partitions/"
cp -a "$prefix" "$dir/mpi"
rm -rf "$dir/mpi/lib/python3"* "$dir/mpi/bin/python"* "$dir/mpi/bin/pip"* "$dir/mpi/bin/activate"* "$dir/mpi/include"
for p in "${programs[@]}"; do
  case $p in *.so) to=$dir/lib ;; *) to=$dir/bin ;; esac
  strip -o "$to/$(basename "$p")" "$p"
done
# The libraries they load from outside the MPI and the C/C++ runtime (fmt, hwloc, METIS, ...).
ldd "${programs[@]}" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u | while read -r lib; do
  case $lib in
    "$prefix"/* | */libc.so* | */libm.so* | */libpthread.so* | */libdl.so* | */librt.so* | */libutil.so* | */ld-linux* \
      | */libstdc++.so* | */libgcc_s.so*) ;;
    *) cp -L "$lib" "$dir/lib/" ;;
  esac
done
cp "$(dirname "$0")/node_sweep.sh" "$(dirname "$0")/pmpi_served.env" "$dir/"
printf '#!/usr/bin/env bash\nlauncher=%s\n' "$(basename "$mpiexec")" >"$dir/run.sh"
cat >>"$dir/run.sh" <<'EOF'
# Made by bench/scripts/device_bundle.sh: node_sweep.sh with this bundle (its header says more).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh OUT_DIR [NP...]}
shift
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LD_LIBRARY_PATH=$here/lib:$here/mpi/lib
export PATH=$here/mpi/bin:$PATH SWEEP_SECONDS=${SWEEP_SECONDS:-540} SWEEP_PMPI=$here/lib/libhympi_pmpi.so
export SWEEP_PROBE_ARGS=${SWEEP_PROBE_ARGS:---iterations 2000}
SWEEP_PARTITIONS=$(ls "$here"/partitions/*.part 2>/dev/null | tr '\n' ' ')
export SWEEP_PARTITIONS
getent hosts "$(hostname)" >/dev/null || echo "127.0.0.1 $(hostname)" >>/etc/hosts
bash "$here/node_sweep.sh" "$here/bin/hympi-bench" "$here/mpi/bin/$launcher" "$out" "$@"
EOF
chmod +x "$dir/run.sh"
echo "device_bundle: $dir, $(du -sh "$dir" | cut -f1): $(ls "$dir/lib" | tr '\n' ' ')"
