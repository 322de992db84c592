#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The tree "debian13": hympi against Debian 13's MPICH 4.2 and Open MPI 5.0, both with their
# Fortran bindings: the only MPICH of 4.1 or later and the only Open MPI 5 with Fortran
# that Debian's packages offer (Debian 12 has MPICH 4.0 and Open MPI 4.1, PyPI's wheels no
# Fortran). Inside a Debian 13 chroot (debootstrap from Debian's archive, kept for the next
# run) it builds the library, libhympi_pmpi and the tests with each MPI (CMakePresets.json's
# mpich and openmpi) and runs the libhympi_pmpi and Fortran tests (but label large), with
# more ctest options if given:
#   scripts/debian13.sh [ctest options]        (as root: debootstrap, mount, chroot)
# The work tree (tracked and untracked files, not the ignored ones) is copied in each run;
# the builds are kept in the chroot (/srv/build), so a second run builds what changed.
# Environment: HYMPI_DEBIAN13_ROOT (the chroot, default /var/tmp/hympi-debian13).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "debian13.sh: needs root (debootstrap, mount, chroot)" >&2; exit 2; }
root=${HYMPI_DEBIAN13_ROOT:-/var/tmp/hympi-debian13}
packages=(build-essential gfortran cmake ninja-build pkg-config python3 libhwloc-dev libgtest-dev
          libmpich-dev mpich libopenmpi-dev openmpi-bin)
selection=(-R '^(pmpi|fortran)\.' -LE large "$@")  # (a later -R replaces this one)

command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; }
if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "debian13.sh: a Debian 13 system in $root (debootstrap, about a minute)"
  debootstrap --variant=minbase trixie "$root" http://deb.debian.org/debian >"$root.log" 2>&1 ||
    { tail -5 "$root.log" >&2; exit 1; }
fi
# The chroot gets device nodes and a /dev/shm of its own, never a bind of the host's /dev
# (through which an rm -rf of the chroot would delete the host's devices); /proc is its own
# mount, /sys the host's (hwloc reads the topology there; sysfs refuses deletions).
for node in "null 1 3" "zero 1 5" "full 1 7" "random 1 8" "urandom 1 9" "tty 5 0"; do
  read -r name major minor <<<"$node"
  [ -c "$root/dev/$name" ] || { rm -f "$root/dev/$name"; mknod -m 666 "$root/dev/$name" c "$major" "$minor"; }
done
mkdir -p "$root/dev/shm" && ln -sfn /proc/self/fd "$root/dev/fd"
unmount() {
  for m in dev/shm sys proc; do
    while mountpoint -q "$root/$m"; do umount -R "$root/$m" 2>/dev/null || umount -R -l "$root/$m"; done
  done
}
trap unmount EXIT
unmount  # (what an interrupted run left mounted)
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
cp /etc/resolv.conf "$root/etc/" 2>/dev/null || true
[ ! -f /etc/hosts ] || cp /etc/hosts "$root/etc/"
# MPI's start-up waits for DNS where the hostname does not resolve (see .ci/run)
grep -qw "$(hostname)" "$root/etc/hosts" 2>/dev/null || echo "127.0.1.1 $(hostname)" >>"$root/etc/hosts"
in_root() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 bash -c "$1"; }
in_root "dpkg -s ${packages[*]} >/dev/null 2>&1 ||
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages[*]} >/dev/null; }"

rm -rf "$root/srv/hympi" && mkdir -p "$root/srv/hympi"
git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -T - -cf - | tar -xf - -C "$root/srv/hympi"
printf -v ctest_args '%q ' "${selection[@]}"
# Left out with MPICH 4.2 for faults of its own: its mpiexec sometimes exits 0 when every
# rank exits 1 without MPI_Finalize or MPI_Abort (pmodels/mpich#7057: the Fortran module's
# ERROR STOP, a session program's bad setting); it maps 3-4 more regions once, in a round
# that differs by rank, where pmpi.free.kept allows 2 (the other trees run all three).
declare -A left_out=([mpich]='^(fortran\.error_stop|pmpi\.sessions\.bad_setting|pmpi\.free\.kept)\.')
for mpi in mpich openmpi; do
  echo "=== debian13: $mpi ==="
  skip=""
  [ -z "${left_out[$mpi]:-}" ] || printf -v skip -- '-E %q' "${left_out[$mpi]}"
  in_root "cd /srv/hympi && cmake --preset $mpi -B /srv/build/$mpi -G Ninja -DHYMPI_WERROR=ON \
      -DHYMPI_BUILD_TESTS=ON -DHYMPI_BUILD_PMPI=ON -DHYMPI_BUILD_FORTRAN=ON -DHYMPI_UNIT_TESTS=OFF \
      -DHYMPI_BUILD_MAPPING=OFF -DHYMPI_PETSC=OFF -DHYMPI_BUILD_APPS=OFF -DHYMPI_BUILD_BENCH=OFF \
      -DHYMPI_BUILD_MESH=OFF -DHYMPI_BUILD_PYTHON=OFF | grep -E 'MPI tests use|Fortran module' &&
    cmake --build /srv/build/$mpi && cd /srv/build/$mpi && ctest -j2 --output-on-failure $skip $ctest_args"
done
