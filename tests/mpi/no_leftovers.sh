#!/usr/bin/env bash
# Runs a job that must fail (a rank is killed) and checks that it ended and left no file
# in /dev/shm: no_leftovers.sh <launcher and program ...>. Run alone (ctest RUN_SERIAL):
# another job's files would count.
set -u
before=$(ls -A /dev/shm | sort)
"$@"
code=$?
after=$(ls -A /dev/shm | sort)
if [ "$code" -eq 0 ]; then
  echo "no-leftovers: the job exited 0, but one of its ranks was killed"; exit 1
fi
new=$(comm -13 <(echo "$before") <(echo "$after"))
if [ -n "$new" ]; then
  echo "no-leftovers: the job left in /dev/shm:"; echo "$new"; exit 1
fi
echo "no-leftovers: the job ended (exit $code) and left nothing in /dev/shm"
