/* SPDX-License-Identifier: BSD-3-Clause */
/* hympi-petsc-short: what a VecScatter costs a short run, set-up included. Each round makes
 * a ring scatter (every rank's first and last `--ghosts` entries of a vector of `--local`
 * doubles to its neighbours' ghost vectors), runs it `--uses` times on data that changes
 * every time, reads what arrived, and destroys it; the time of all that, max over ranks,
 * per PetscSF type, the types interleaved round by round:
 *   basic         PETSc's default
 *   hympi         -sf_type hympi as a user gets it (-sf_hympi_after default: starts on basic)
 *   hympi_after0  -sf_type hympi -sf_hympi_after 0 (hympi from the first broadcast)
 * Prints per type the median and the spread (lowest-highest) over rounds, and the ratio of
 * the medians to basic's. The first round of each type (the communicator's first Context
 * for hympi) is printed apart: a short job pays it once.
 *
 *   mpiexec -n 2 hympi-petsc-short [--uses 3] [--rounds 30] [--local 10000] [--ghosts 100] */
#include <petscvec.h>
#include <stdlib.h>
#include <string.h>

#include "hympi_petsc.h"

typedef struct {
  const char *name, *type, *after; /* after: NULL for the type's default */
} Kind;

static const Kind kinds[] = {{"basic", "basic", NULL}, {"hympi", "hympi", NULL}, {"hympi_after0", "hympi", "0"}};
enum { kKinds = 3, kMaxRounds = 1000 };

static int compare(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* One round of `kind`: make, use `uses` times, destroy. Seconds, max over ranks. */
static PetscErrorCode Round(const Kind *kind, PetscInt local, PetscInt ghosts, PetscInt uses, int round, double *seconds)
{
  PetscMPIInt rank, size;
  Vec         x, y;
  IS          from, to;
  VecScatter  scatter;
  PetscInt   *index, i, u, start, next, prev;
  PetscScalar *a;
  const PetscScalar *b;
  double      t, sum = 0;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsSetValue(NULL, "-sf_type", kind->type));
  if (kind->after) PetscCall(PetscOptionsSetValue(NULL, "-sf_hympi_after", kind->after));
  else PetscCall(PetscOptionsClearValue(NULL, "-sf_hympi_after"));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, local, PETSC_DECIDE, &x));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * ghosts, &y));
  PetscCall(PetscMalloc1(2 * ghosts, &index));
  next = ((rank + 1) % size) * local;
  prev = ((rank + size - 1) % size) * local;
  for (i = 0; i < ghosts; i++) {
    index[i]          = next + i;                  /* the next rank's first entries */
    index[ghosts + i] = prev + local - ghosts + i; /* the previous rank's last ones */
  }
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, 2 * ghosts, index, PETSC_OWN_POINTER, &from));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, 2 * ghosts, 0, 1, &to));
  PetscCall(VecGetOwnershipRange(x, &start, NULL));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  t = MPI_Wtime();
  PetscCall(VecScatterCreate(x, from, y, to, &scatter));
  for (u = 0; u < uses; u++) {
    PetscCall(VecGetArray(x, &a)); /* the application writes its data */
    for (i = 0; i < local; i++) a[i] = (PetscScalar)(start + i + round * 7 + u);
    PetscCall(VecRestoreArray(x, &a));
    PetscCall(VecScatterBegin(scatter, x, y, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(scatter, x, y, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(y, &b)); /* and reads what arrived */
    for (i = 0; i < 2 * ghosts; i++) sum += PetscRealPart(b[i]);
    PetscCall(VecRestoreArrayRead(y, &b));
  }
  PetscCall(VecScatterDestroy(&scatter));
  t = MPI_Wtime() - t;
  PetscCheck(sum != -1.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "unreachable"); /* keeps the reads */
  PetscCallMPI(MPI_Allreduce(&t, seconds, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(ISDestroy(&from));
  PetscCall(ISDestroy(&to));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt    uses = 3, rounds = 30, local = 10000, ghosts = 100;
  double      times[kKinds][kMaxRounds], first[kKinds], median[kKinds];
  PetscMPIInt rank, size;
  int         k, r;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(HympiPetscInitialize());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-uses", &uses, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-rounds", &rounds, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-local", &local, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ghosts", &ghosts, NULL));
  PetscCheck(uses > 0 && rounds > 1 && rounds < kMaxRounds && ghosts > 0 && local >= ghosts, PETSC_COMM_WORLD,
             PETSC_ERR_ARG_OUTOFRANGE, "hympi-petsc-short: -uses >= 1, 1 < -rounds < %d, 1 <= -ghosts <= -local", (int)kMaxRounds);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  for (r = 0; r <= rounds; r++) /* round 0: each type's first, apart */
    for (k = 0; k < kKinds; k++) PetscCall(Round(&kinds[k], local, ghosts, uses, r, r ? &times[k][r - 1] : &first[k]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "# hympi-petsc-short: %d ranks, ring VecScatter of 2 x %" PetscInt_FMT " doubles per rank, made, used %" PetscInt_FMT
                        " times (data written before, read after), destroyed; %" PetscInt_FMT " rounds, types interleaved; max over ranks\n",
                        size, ghosts, uses, rounds));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# %-12s %12s %12s %12s %12s %10s\n", "type", "first(us)", "median(us)", "lowest(us)",
                        "highest(us)", "ratio"));
  for (k = 0; k < kKinds; k++) {
    qsort(times[k], (size_t)rounds, sizeof(double), compare);
    median[k] = times[k][rounds / 2];
  }
  for (k = 0; k < kKinds; k++)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-14s %12.1f %12.1f %12.1f %12.1f %10.2f\n", kinds[k].name, 1e6 * first[k], 1e6 * median[k],
                          1e6 * times[k][0], 1e6 * times[k][rounds - 1], median[k] / median[0]));
  PetscCall(PetscFinalize());
  return 0;
}
