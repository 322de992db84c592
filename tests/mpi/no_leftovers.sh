#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs a job that must fail (a rank is killed) and checks that it ended and left no file
# in /dev/shm: no_leftovers.sh <launcher and program ...>. Run alone (ctest RUN_SERIAL):
# another job's files would count. HYMPI_MPI_OWN_SHM: a glob of the files the MPI library
# itself makes at MPI_Init and leaves when a rank is killed (MPICH 5: mpich_shm_*), before
# hympi exists; those are named, removed and not counted.
set -u
before=$(ls -A /dev/shm | sort)
"$@"
code=$?
after=$(ls -A /dev/shm | sort)
if [ "$code" -eq 0 ]; then
  echo "no-leftovers: the job exited 0, but one of its ranks was killed"; exit 1
fi
new=$(comm -13 <(echo "$before") <(echo "$after"))
if [ -n "${HYMPI_MPI_OWN_SHM:-}" ] && [ -n "$new" ]; then
  for f in $new; do
    # shellcheck disable=SC2254  # the glob is the point
    case "$f" in
      $HYMPI_MPI_OWN_SHM) echo "no-leftovers: $f is the MPI library's own (removed)"; rm -f "/dev/shm/$f" ;;
    esac
  done
  new=$(comm -13 <(echo "$before") <(ls -A /dev/shm | sort))
fi
if [ -n "$new" ]; then
  echo "no-leftovers: the job left in /dev/shm:"; echo "$new"; exit 1
fi
echo "no-leftovers: the job ended (exit $code) and left nothing in /dev/shm"
