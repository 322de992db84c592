/* SPDX-License-Identifier: BSD-3-Clause */
/* hympi for PETSc codes: a PetscSF type "hympi" (libhympi_petsc, CMake component
 * hympi::hympi_petsc, pkg-config hympi_petsc). After PetscInitialize:
 *
 *   PetscCall(HympiPetscInitialize());
 *
 * then every PetscSF set from the options database (VecScatter, VecGhost, DMDA,
 * MatMult's scatter, ...) takes the type with `-sf_type hympi`, or one SF with
 * PetscSFSetType(sf, PETSCSFHYMPI). Broadcasts with MPI_REPLACE on host memory of
 * contiguous units of double, float or PetscInt run through a hympi Halo (intranode
 * shared memory); every other operation runs on a PetscSF of type basic over the same
 * graph. An SF starts on basic and moves to hympi after -sf_hympi_after broadcasts it
 * could move (default 100: a scatter used a few times never pays hympi's set-up). The
 * first communicator congruent with PETSC_COMM_WORLD that gets a hympi Context is kept
 * until PetscFinalize, so SFs made after every object was destroyed find it alive.
 * Options: -sf_hympi_strategy <shm|flat_mpi|...> (default shm). docs/usage.md,
 * section "PETSc", says what runs where, and what PETSc refuses on this type as on every
 * type but basic and neighbor (VecScatterRemap, so DMLocalToLocal of a DMDA).
 *
 * A program that does not link hympi gets the same type from the module
 * libhympi_petsc_plugin.so, which PETSc loads itself:
 *   -dll_append <libdir>/libhympi_petsc_plugin.so -sf_type hympi */
#ifndef HYMPI_PETSC_H
#define HYMPI_PETSC_H

#include <petscsf.h>

#define PETSCSFHYMPI "hympi"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers the PetscSF type "hympi". Not collective; call it after PetscInitialize, on
 * every rank, before any SF takes the type. Calling it again does nothing. */
PetscErrorCode HympiPetscInitialize(void);

/* What this process's SFs of type hympi started since HympiPetscInitialize: broadcasts
 * moved by hympi, and the operations they ran on PetscSF's basic type. */
typedef struct {
  PetscInt64 bcasts_hympi;            /* MPI_REPLACE, host memory, a unit hympi moves */
  PetscInt64 bcasts_basic;            /* any other broadcast */
  PetscInt64 reduces_basic;           /* PetscSFReduceBegin */
  PetscInt64 fetch_and_ops_basic;     /* PetscSFFetchAndOpBegin */
  PetscInt64 contexts;                /* hympi Contexts made for SFs' communicators */
} HympiPetscCounts;

PetscErrorCode HympiPetscGetCounts(HympiPetscCounts *counts);

#ifdef __cplusplus
}
#endif

#endif /* HYMPI_PETSC_H */
