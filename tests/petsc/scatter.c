/* SPDX-License-Identifier: BSD-3-Clause */
/* Scenario "scatter": a VecScatter between two arbitrary layouts: x and y split unevenly
 * and differently over the ranks, y's entries scattered to (a random subset, each once) and
 * x's read (random, some several times, some by their own rank), block size 1 and 2.
 * Forward INSERT_VALUES (hympi); forward ADD_VALUES, reverse INSERT_VALUES and ADD_VALUES
 * (basic); SCATTER_FORWARD_LOCAL (the own-rank part: an SF PETSc makes from this one, on
 * PETSC_COMM_SELF). Values change every round; records y and x. */
#include <petscvec.h>

#include "harness.h"

/* first[r]: the first block of rank r, uneven, the same on every rank. */
static void Layout(PetscMPIInt size, PetscInt base, PetscInt step, PetscInt *first)
{
  PetscMPIInt r;

  first[0] = 0;
  for (r = 0; r < size; r++) first[r + 1] = first[r] + base + (step * r + 1) % 7;
}

static PetscErrorCode Fill(Vec v, PetscScalar scale, PetscScalar shift)
{
  PetscScalar *a;
  PetscInt     start, end, i;

  PetscFunctionBegin;
  PetscCall(VecGetOwnershipRange(v, &start, &end));
  PetscCall(VecGetArray(v, &a));
  for (i = 0; i < end - start; i++) a[i] = scale * (start + i) + shift;
  PetscCall(VecRestoreArray(v, &a));
  PetscFunctionReturn(0);
}

static PetscErrorCode ScatterRounds(MPI_Comm comm, PetscInt bs, Record *record)
{
  PetscMPIInt rank, size;
  PetscInt   *xfirst, *yfirst, *perm, *ix, *iy, m, i, mine_from, mine_count;
  Vec         x, y;
  IS          from, to;
  VecScatter  scatter;
  unsigned    state = 5u;
  int         round;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscMalloc2(size + 1, &xfirst, size + 1, &yfirst));
  Layout(size, 9, 3, xfirst);
  Layout(size, 14, 5, yfirst);
  /* y's blocks in one random order, the same on every rank; rank r scatters to its slice */
  PetscCall(PetscMalloc1(yfirst[size], &perm));
  for (i = 0; i < yfirst[size]; i++) perm[i] = i;
  for (i = 0; i < yfirst[size]; i++) {
    PetscInt j = i + TestRandom(&state, yfirst[size] - i), t = perm[i];
    perm[i]    = perm[j];
    perm[j]    = t;
  }
  m          = (2 * yfirst[size]) / (3 * size); /* two thirds of y's blocks are written */
  mine_from  = rank * m;
  mine_count = m;
  state      = 77u + (unsigned)rank;
  PetscCall(PetscMalloc2(mine_count, &ix, mine_count, &iy));
  for (i = 0; i < mine_count; i++) {
    iy[i] = perm[mine_from + i];
    ix[i] = i % 4 == 0 ? xfirst[rank] + TestRandom(&state, xfirst[rank + 1] - xfirst[rank]) : TestRandom(&state, xfirst[size]);
  }
  PetscCall(VecCreateMPI(comm, bs * (xfirst[rank + 1] - xfirst[rank]), PETSC_DETERMINE, &x));
  PetscCall(VecCreateMPI(comm, bs * (yfirst[rank + 1] - yfirst[rank]), PETSC_DETERMINE, &y));
  PetscCall(VecSetBlockSize(x, bs));
  PetscCall(VecSetBlockSize(y, bs));
  PetscCall(ISCreateBlock(comm, bs, mine_count, ix, PETSC_COPY_VALUES, &from));
  PetscCall(ISCreateBlock(comm, bs, mine_count, iy, PETSC_COPY_VALUES, &to));
  PetscCall(VecScatterCreate(x, from, y, to, &scatter));
  for (round = 1; round <= 3; round++) {
    PetscCall(Fill(x, 3.0, 0.5 * round));
    PetscCall(VecSet(y, -1.0));
    PetscCall(VecScatterBegin(scatter, x, y, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(scatter, x, y, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(RecordVec(record, y));

    PetscCall(VecScatterBegin(scatter, x, y, ADD_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(scatter, x, y, ADD_VALUES, SCATTER_FORWARD));
    PetscCall(RecordVec(record, y));

    PetscCall(Fill(y, 0.25, round));
    PetscCall(VecSet(x, 0.0));
    PetscCall(VecScatterBegin(scatter, y, x, ADD_VALUES, SCATTER_REVERSE));
    PetscCall(VecScatterEnd(scatter, y, x, ADD_VALUES, SCATTER_REVERSE));
    PetscCall(RecordVec(record, x));
    PetscCall(VecScatterBegin(scatter, y, x, INSERT_VALUES, SCATTER_REVERSE));
    PetscCall(VecScatterEnd(scatter, y, x, INSERT_VALUES, SCATTER_REVERSE));
    PetscCall(RecordVec(record, x));

    PetscCall(VecSet(y, -2.0));
    PetscCall(VecScatterBegin(scatter, x, y, INSERT_VALUES, SCATTER_FORWARD_LOCAL));
    PetscCall(VecScatterEnd(scatter, x, y, INSERT_VALUES, SCATTER_FORWARD_LOCAL));
    PetscCall(RecordVec(record, y));
  }
  PetscCall(VecScatterDestroy(&scatter));
  PetscCall(ISDestroy(&from));
  PetscCall(ISDestroy(&to));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(PetscFree2(ix, iy));
  PetscCall(PetscFree(perm));
  PetscCall(PetscFree2(xfirst, yfirst));
  PetscFunctionReturn(0);
}

PetscErrorCode ScenarioScatter(MPI_Comm comm, Record *record)
{
  PetscFunctionBegin;
  PetscCall(ScatterRounds(comm, 1, record));
  PetscCall(ScatterRounds(comm, 2, record));
  PetscFunctionReturn(0);
}
