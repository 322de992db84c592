/* SPDX-License-Identifier: BSD-3-Clause */
/* hympi-petsc-ksp: a plain PETSc program (it links PETSc alone, no hympi) that solves the
 * 7-point Laplacian of an N^3 DMDA with CG + Jacobi for a fixed number of iterations,
 * `-solves` times, and prints the time per iteration (max over ranks) of each solve, the
 * median, and the residual norms of the last solve. Run it as is (PETSc's basic SF, MPI's
 * own MPI_Allreduce for the dot products and norms) and with hympi added from outside:
 * `-dll_append libhympi_petsc_plugin.so -sf_type hympi` (the scatters) and/or
 * `LD_PRELOAD=libhympi_pmpi.so` (the allreduces); bench/scripts/petsc_ksp_compare.py
 * interleaves the four. The right-hand side is the same every solve and the initial guess
 * zero, so every solve does the same work.
 *
 *   mpiexec -n 2 hympi-petsc-ksp [-n 24] [-its 400] [-solves 5] [PETSc options]
 */
#include <petscdmda.h>
#include <petscksp.h>
#include <stdlib.h>

enum { kMaxSolves = 100 };

static int compare(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The 7-point Laplacian with zero Dirichlet values outside the grid: 6 on the diagonal, -1
 * for each neighbour inside it (symmetric positive definite, as CG needs). */
static PetscErrorCode Assemble(DM da, Mat A)
{
  PetscInt    i, j, k, xs, ys, zs, xm, ym, zm, n, d, m;
  MatStencil  row, col[7];
  PetscScalar v[7];
  const int   step[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, NULL, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (k = zs; k < zs + zm; k++)
    for (j = ys; j < ys + ym; j++)
      for (i = xs; i < xs + xm; i++) {
        row.i = i, row.j = j, row.k = k, row.c = 0;
        col[0] = row, v[0] = 6.0, m = 1;
        for (d = 0; d < 6; d++) {
          const PetscInt ci = i + step[d][0], cj = j + step[d][1], ck = k + step[d][2];
          if (ci < 0 || cj < 0 || ck < 0 || ci >= n || cj >= n || ck >= n) continue;
          col[m] = row, col[m].i = ci, col[m].j = cj, col[m].k = ck, v[m++] = -1.0;
        }
        PetscCall(MatSetValuesStencil(A, 1, &row, m, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt    n = 24, its = 400, solves = 5, s, done, i;
  DM          da;
  Mat         A;
  Vec         x, b;
  KSP         ksp;
  PC          pc;
  double      per_it[kMaxSolves], t, sorted[kMaxSolves];
  PetscReal  *history;
  PetscInt    nhistory;
  PetscMPIInt size;
  char        type[64] = "basic";

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-its", &its, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-solves", &solves, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-sf_type", type, sizeof type, NULL));
  PetscCheck(n >= 4 && its >= 1 && solves >= 1 && solves <= kMaxSolves, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE,
             "hympi-petsc-ksp: -n >= 4, -its >= 1, 1 <= -solves <= %d", (int)kMaxSolves);
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n,
                         PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(Assemble(da, A));
  PetscCall(DMCreateGlobalVector(da, &x));
  PetscCall(VecDuplicate(x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-300, 1e-300, PETSC_DEFAULT, its)); /* exactly `its` iterations */
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(PetscMalloc1(its + 1, &history));
  PetscCall(KSPSetResidualHistory(ksp, history, its + 1, PETSC_TRUE));
  PetscCall(KSPSetFromOptions(ksp));
  for (s = 0; s < solves; s++) {
    PetscCall(VecZeroEntries(x));
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    t = MPI_Wtime();
    PetscCall(KSPSolve(ksp, b, x));
    t = MPI_Wtime() - t;
    PetscCall(KSPGetIterationNumber(ksp, &done));
    PetscCheck(done == its, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "hympi-petsc-ksp: %" PetscInt_FMT " iterations, expected %" PetscInt_FMT, done, its);
    t /= (double)its;
    PetscCallMPI(MPI_Allreduce(&t, &per_it[s], 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  }
  for (s = 0; s < solves; s++) sorted[s] = per_it[s];
  qsort(sorted, (size_t)solves, sizeof(double), compare);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# hympi-petsc-ksp: %d ranks, CG + Jacobi, %" PetscInt_FMT "^3 DMDA, %" PetscInt_FMT
                                          " iterations per solve, -sf_type %s\n", size, n, its, type));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "us per iteration, solve by solve:"));
  for (s = 0; s < solves; s++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %.3f", 1e6 * per_it[s]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nmedian us per iteration: %.3f\n", 1e6 * sorted[solves / 2]));
  PetscCall(KSPGetResidualHistory(ksp, NULL, &nhistory));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "residual norms:"));
  for (i = 0; i < nhistory; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %.17g", (double)history[i]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  PetscCall(PetscFree(history));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
