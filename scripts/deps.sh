#!/usr/bin/env bash
# Installs everything hympi builds, tests and benchmarks with, from Debian 12's packages.
# Idempotent and non-interactive. Without root it prints the command to run instead.
#   scripts/deps.sh            the build, test and benchmark dependencies
set -euo pipefail

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
  # peer (built on Open MPI: used in that tree)
  petsc-dev
  # benchmark report
  python3 python3-numpy python3-matplotlib
  # the Python package (scripts/python.sh: venvs on Debian's python3 with numpy and mpi4py)
  python3-dev python3-venv python3-mpi4py
  # emulated hosts (network namespaces)
  iproute2 util-linux
)

missing=()
for p in "${packages[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#packages[@]} packages already installed"
  exit 0
fi

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
