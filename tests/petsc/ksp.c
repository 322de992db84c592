/* SPDX-License-Identifier: BSD-3-Clause */
/* Scenario "ksp": a CG solve (Jacobi preconditioner) of the 5-point Laplacian on a 2D DMDA;
 * the matrix-vector products scatter through the matrix's VecScatter (hympi). Records
 * every iterate and residual norm (a monitor), the iteration count and the solution. */
#include <petscdmda.h>
#include <petscksp.h>

#include "harness.h"

static PetscErrorCode Assemble(DM da, Mat A)
{
  DMDALocalInfo info;
  PetscInt      i, j;

  PetscFunctionBegin;
  PetscCall(DMDAGetLocalInfo(da, &info));
  for (j = info.ys; j < info.ys + info.ym; j++)
    for (i = info.xs; i < info.xs + info.xm; i++) {
      MatStencil  row = {0}, col[5];
      PetscScalar v[5];
      PetscInt    n = 0;
      row.i = i;
      row.j = j;
      col[n].i = i;
      col[n].j = j;
      v[n++]   = 4.0;
      if (i > 0) { col[n].i = i - 1; col[n].j = j; v[n++] = -1.0; }
      if (i < info.mx - 1) { col[n].i = i + 1; col[n].j = j; v[n++] = -1.0; }
      if (j > 0) { col[n].i = i; col[n].j = j - 1; v[n++] = -1.0; }
      if (j < info.my - 1) { col[n].i = i; col[n].j = j + 1; v[n++] = -1.0; }
      PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* Each iteration: its residual norm and its iterate. */
static PetscErrorCode RecordIterate(KSP ksp, PetscInt it, PetscReal rnorm, void *record)
{
  Vec x;

  PetscFunctionBegin;
  PetscCall(KSPBuildSolution(ksp, NULL, &x));
  PetscCall(RecordBytes((Record *)record, &it, sizeof it));
  PetscCall(RecordBytes((Record *)record, &rnorm, sizeof rnorm));
  PetscCall(RecordVec((Record *)record, x));
  PetscFunctionReturn(0);
}

PetscErrorCode ScenarioKSP(MPI_Comm comm, Record *record)
{
  DM          da;
  Mat         A;
  Vec         b, x;
  KSP         ksp;
  PC          pc;
  PetscReal   history[201];
  PetscInt    its, count, start, end, i;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(DMDACreate2d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 40, 37, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(Assemble(da, A));
  PetscCall(DMCreateGlobalVector(da, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecGetOwnershipRange(b, &start, &end));
  PetscCall(VecGetArray(b, &a));
  for (i = 0; i < end - start; i++) a[i] = (PetscScalar)((start + i) % 17) - 8.0;
  PetscCall(VecRestoreArray(b, &a));
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 200));
  PetscCall(KSPSetResidualHistory(ksp, history, 201, PETSC_TRUE));
  PetscCall(KSPMonitorSet(ksp, RecordIterate, record, NULL));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetResidualHistory(ksp, NULL, &count));
  PetscCall(RecordBytes(record, &its, sizeof its));
  PetscCall(RecordBytes(record, history, (size_t)count * sizeof(PetscReal)));
  PetscCall(RecordVec(record, x));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(0);
}
