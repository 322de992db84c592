/* SPDX-License-Identifier: BSD-3-Clause */
#include "harness.h"

#include <string.h>

PetscErrorCode RecordBytes(Record *record, const void *bytes, size_t size)
{
  PetscFunctionBegin;
  if (record->size + size > record->capacity) {
    size_t capacity = 2 * (record->size + size) + 64;
    PetscCall(PetscRealloc(capacity, &record->data));
    record->capacity = capacity;
  }
  if (size) memcpy(record->data + record->size, bytes, size);
  record->size += size;
  PetscFunctionReturn(0);
}

PetscErrorCode RecordVec(Record *record, Vec v)
{
  const PetscScalar *a;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetArrayRead(v, &a));
  PetscCall(RecordBytes(record, a, (size_t)n * sizeof(PetscScalar)));
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscFunctionReturn(0);
}

PetscInt TestRandom(unsigned *state, PetscInt bound)
{
  *state = *state * 1103515245u + 12345u;
  return bound > 0 ? (PetscInt)((*state >> 8) % (unsigned)bound) : 0;
}

static GetCounts current_counts; /* RunScenario's */

PetscErrorCode CheckSamePaths(MPI_Comm comm, const char *what, PetscInt64 *since)
{
  HympiPetscCounts now;
  PetscInt64       moved[2];

  PetscFunctionBegin;
  PetscCall(current_counts(&now));
  moved[0] = *since < 0 ? 0 : now.bcasts_hympi - *since;
  moved[1] = -moved[0];
  *since   = now.bcasts_hympi;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, moved, 2, MPIU_INT64, MPI_MAX, comm));
  PetscCheck(moved[0] == -moved[1], comm, PETSC_ERR_PLIB, "petsc-sf: %s: ranks moved %" PetscInt64_FMT " to %" PetscInt64_FMT " broadcasts through hympi: they took different paths for the same calls", what, -moved[1], moved[0]);
  PetscFunctionReturn(0);
}

static PetscErrorCode RunWithType(MPI_Comm comm, const char *type, Scenario scenario, Record *record)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-sf_type", type));
  PetscCall(scenario(comm, record));
  PetscFunctionReturn(0);
}

PetscErrorCode RunScenario(MPI_Comm comm, const char *name, Scenario scenario, GetCounts counts, HympiPetscCounts expect,
                           PetscBool *ok)
{
  char             type[64] = PETSCSFHYMPI;
  Record           reference = {NULL, 0, 0}, test = {NULL, 0, 0};
  HympiPetscCounts before, after;
  PetscInt64       ran[4], least[4], contexts;
  PetscMPIInt      rank, same, all_same;
  size_t           at = 0;
  int              k;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-sf_type", type, sizeof type, NULL));
  current_counts = counts;
  PetscCall(RunWithType(comm, PETSCSFBASIC, scenario, &reference));
  PetscCall(counts(&before));
  PetscCall(RunWithType(comm, type, scenario, &test));
  PetscCall(counts(&after));
  PetscCall(PetscOptionsSetValue(NULL, "-sf_type", type));

  same = reference.size == test.size;
  if (same) {
    while (at < reference.size && reference.data[at] == test.data[at]) at++;
    same = at == reference.size;
  }
  if (!same)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "petsc-sf: %s: rank %d: %s record differs from basic's (%zu vs %zu bytes, first difference at byte %zu)\n",
                          name, rank, type, test.size, reference.size, at));
  PetscCallMPI(MPI_Allreduce(&same, &all_same, 1, MPI_INT, MPI_LAND, comm));
  ran[0]   = after.bcasts_hympi - before.bcasts_hympi;
  ran[1]   = after.bcasts_basic - before.bcasts_basic;
  ran[2]   = after.reduces_basic - before.reduces_basic;
  ran[3]   = after.fetch_and_ops_basic - before.fetch_and_ops_basic;
  least[0] = expect.bcasts_hympi;
  least[1] = expect.bcasts_basic;
  least[2] = expect.reduces_basic;
  least[3] = expect.fetch_and_ops_basic;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, ran, 4, MPIU_INT64, MPI_SUM, comm));
  contexts = after.contexts - before.contexts;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &contexts, 1, MPIU_INT64, MPI_MAX, comm));
  *ok = all_same && contexts <= expect.contexts ? PETSC_TRUE : PETSC_FALSE;
  for (k = 0; k < 4; k++)
    if (ran[k] < least[k]) *ok = PETSC_FALSE;
  PetscCall(PetscPrintf(comm, "petsc-sf: %s: %s (%zu bytes on rank 0); %s ran %" PetscInt64_FMT " broadcasts through hympi (expected >= %" PetscInt64_FMT "), "
                              "on basic %" PetscInt64_FMT " broadcasts, %" PetscInt64_FMT " reductions, %" PetscInt64_FMT " fetch-and-ops (expected >= %" PetscInt64_FMT ", %" PetscInt64_FMT ", %" PetscInt64_FMT "); "
                              "made %" PetscInt64_FMT " Contexts on a rank (expected <= %" PetscInt64_FMT ")\n",
                        name, all_same ? "identical to basic on every rank" : "DIFFERS from basic", reference.size, type, ran[0], least[0], ran[1], ran[2], ran[3], least[1], least[2], least[3],
                        contexts, expect.contexts));
  PetscCall(PetscFree(reference.data));
  PetscCall(PetscFree(test.data));
  PetscFunctionReturn(0);
}
