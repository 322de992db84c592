/* SPDX-License-Identifier: BSD-3-Clause */
/* Scenario "ghost": VecGhostUpdate on unstructured ghosted vectors (VecCreateGhostBlock,
 * block size 1 and 3): each rank owns a different number of blocks and ghosts random blocks
 * of the others, in random order. Forward INSERT_VALUES (the ghost update: hympi), then
 * reverse ADD_VALUES (ghosts added to their owners: basic), with values changing every
 * round; records the local form and the owned part. */
#include <petscvec.h>

#include "harness.h"

static PetscErrorCode GhostRounds(MPI_Comm comm, PetscInt bs, Record *record)
{
  PetscMPIInt  rank, size;
  PetscInt     owned, nghost = 0, i, r, start, *ghosts, *first, total = 0;
  Vec          v, local;
  PetscScalar *a;
  unsigned     state;
  int          round;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscMalloc1(size + 1, &first));
  for (r = 0; r < size; r++) { /* blocks owned per rank, the same on every rank */
    first[r] = total;
    total += 12 + (5 * r + 2) % 9;
  }
  first[size] = total;
  owned       = first[rank + 1] - first[rank];
  state       = 31u + (unsigned)rank;
  PetscCall(PetscMalloc1(total, &ghosts));
  if (size > 1)
    for (i = 0; i < 2 * total; i++) { /* distinct random blocks of other ranks, in random order */
      PetscInt g = TestRandom(&state, total), k;
      if (g >= first[rank] && g < first[rank + 1]) continue;
      for (k = 0; k < nghost && ghosts[k] != g; k++) { }
      if (k == nghost && nghost < 15) ghosts[nghost++] = g;
    }
  PetscCall(VecCreateGhostBlock(comm, bs, bs * owned, PETSC_DECIDE, nghost, ghosts, &v));
  PetscCall(VecGetOwnershipRange(v, &start, NULL));
  for (round = 1; round <= 4; round++) {
    PetscCall(VecGhostGetLocalForm(v, &local));
    PetscCall(VecGetArray(local, &a));
    for (i = 0; i < bs * (owned + nghost); i++) a[i] = i < bs * owned ? 10.0 * (start + i) + round : -1.0;
    PetscCall(VecRestoreArray(local, &a));
    PetscCall(VecGhostUpdateBegin(v, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGhostUpdateEnd(v, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(RecordVec(record, local));

    PetscCall(VecGetArray(local, &a));
    for (i = bs * owned; i < bs * (owned + nghost); i++) a[i] = rank + 0.5 * i + round;
    PetscCall(VecRestoreArray(local, &a));
    PetscCall(VecGhostRestoreLocalForm(v, &local));
    PetscCall(VecGhostUpdateBegin(v, ADD_VALUES, SCATTER_REVERSE));
    PetscCall(VecGhostUpdateEnd(v, ADD_VALUES, SCATTER_REVERSE));
    PetscCall(RecordVec(record, v));
  }
  PetscCall(VecDestroy(&v));
  PetscCall(PetscFree(ghosts));
  PetscCall(PetscFree(first));
  PetscFunctionReturn(0);
}

PetscErrorCode ScenarioGhost(MPI_Comm comm, Record *record)
{
  PetscFunctionBegin;
  PetscCall(GhostRounds(comm, 1, record));
  PetscCall(GhostRounds(comm, 3, record));
  PetscFunctionReturn(0);
}
