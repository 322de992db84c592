/* SPDX-License-Identifier: BSD-3-Clause */
/* The harness of the PETSc test programs. A scenario runs twice in one process: with
 * PetscSF type basic (the reference) and with the type under test (-sf_type on the command
 * line, default hympi), recording what it computes; both records must be bit-identical on
 * every rank, and the counts of HympiPetscGetCounts (summed over ranks) must show that
 * hympi moved broadcasts and that the delegated paths the scenario expects ran. */
#ifndef HYMPI_TESTS_PETSC_HARNESS_H
#define HYMPI_TESTS_PETSC_HARNESS_H

#include <petscvec.h>

#include "hympi_petsc.h"

/* What a scenario computed, as bytes. */
typedef struct {
  char  *data;
  size_t size, capacity;
} Record;

PetscErrorCode RecordBytes(Record *record, const void *bytes, size_t size);
/* The local array of `v`. */
PetscErrorCode RecordVec(Record *record, Vec v);

typedef PetscErrorCode (*Scenario)(MPI_Comm comm, Record *record);

/* HympiPetscGetCounts, linked or found in the plugin PETSc loaded (main.c). */
typedef PetscErrorCode (*GetCounts)(HympiPetscCounts *counts);

/* Runs `scenario` with basic, then with the type under test; `expect` holds the least
 * count of each kind the test run must start (summed over ranks), read with `counts`, and
 * in `contexts` the most hympi Contexts any rank may make during it: one for the
 * scenario's communicator, whose Context outlives the objects of each round (a program
 * that destroys every object between solves pays a Context once); an SF on
 * PETSC_COMM_SELF makes its own for each life of PETSc's inner communicator there
 * (src/petsc/context_cache.hpp).
 * Sets *ok on every rank. */
PetscErrorCode RunScenario(MPI_Comm comm, const char *name, Scenario scenario, GetCounts counts, HympiPetscCounts expect,
                           PetscBool *ok);

/* Fails on every rank of `comm` unless each rank moved the same number of broadcasts
 * through hympi since `*since` (HympiPetscGetCounts of this process), which it then sets
 * to now: ranks that take different paths for the same call leave a collective update
 * behind, whatever the data. Start with *since = -1. */
PetscErrorCode CheckSamePaths(MPI_Comm comm, const char *what, PetscInt64 *since);

/* Deterministic numbers, the same on every rank for the same state. */
PetscInt TestRandom(unsigned *state, PetscInt bound);

/* The scenarios (one file each). */
PetscErrorCode ScenarioSF(MPI_Comm comm, Record *record);
PetscErrorCode ScenarioGhost(MPI_Comm comm, Record *record);
PetscErrorCode ScenarioDMDA(MPI_Comm comm, Record *record);
PetscErrorCode ScenarioLocalToLocal(MPI_Comm comm, Record *record);
PetscErrorCode ScenarioScatter(MPI_Comm comm, Record *record);
PetscErrorCode ScenarioKSP(MPI_Comm comm, Record *record);

#endif
