#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# on_rank.sh RANK NAME=VALUE PROGRAM [ARGS...]: runs PROGRAM with NAME=VALUE in its
# environment on world rank RANK only (Open MPI's and MPICH's launchers say the rank in
# OMPI_COMM_WORLD_RANK and PMI_RANK): a setting that differs on one rank. NAME ARGS appends
# VALUE's words to PROGRAM's arguments there instead (PETSc reads PETSC_OPTIONS on rank 0
# only, its command line on every rank).
rank=$1 setting=$2
shift 2
if [ "${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-}}" = "$rank" ]; then
  case $setting in
    ARGS=*) set -- "$@" ${setting#ARGS=} ;;  # split into words on purpose
    *) export "$setting" ;;
  esac
fi
exec "$@"
