/* SPDX-License-Identifier: BSD-3-Clause */
/* Scenario "dmda": DMGlobalToLocal on DMDA grids, 2D and 3D, star and box stencils, dof 1
 * and 3, stencil width 1 and 2, non-periodic and periodic (periodic grids on one rank read
 * their own roots: the local copy), with values changing every round (hympi); then
 * DMLocalToGlobal with ADD_VALUES (basic). Records the local and the global vectors. */
#include <petscdmda.h>

#include "harness.h"

static PetscErrorCode Rounds(DM da, Record *record)
{
  Vec          global, local;
  PetscScalar *a;
  PetscInt     start, end, n, i;
  int          round;

  PetscFunctionBegin;
  PetscCall(DMCreateGlobalVector(da, &global));
  PetscCall(DMCreateLocalVector(da, &local));
  PetscCall(VecGetOwnershipRange(global, &start, &end));
  PetscCall(VecGetLocalSize(local, &n));
  for (round = 1; round <= 2; round++) {
    PetscCall(VecGetArray(global, &a));
    for (i = 0; i < end - start; i++) a[i] = 7.0 * (start + i) + 0.5 * round;
    PetscCall(VecRestoreArray(global, &a));
    PetscCall(VecSet(local, -1.0));
    PetscCall(DMGlobalToLocalBegin(da, global, INSERT_VALUES, local));
    PetscCall(DMGlobalToLocalEnd(da, global, INSERT_VALUES, local));
    PetscCall(RecordVec(record, local));

    PetscCall(VecGetArray(local, &a));
    for (i = 0; i < n; i++) a[i] = 0.25 * i + round;
    PetscCall(VecRestoreArray(local, &a));
    PetscCall(VecSet(global, 0.0));
    PetscCall(DMLocalToGlobalBegin(da, local, ADD_VALUES, global));
    PetscCall(DMLocalToGlobalEnd(da, local, ADD_VALUES, global));
    PetscCall(RecordVec(record, global));
  }
  PetscCall(VecDestroy(&local));
  PetscCall(VecDestroy(&global));
  PetscFunctionReturn(0);
}

PetscErrorCode ScenarioDMDA(MPI_Comm comm, Record *record)
{
  const DMDAStencilType stencils[] = {DMDA_STENCIL_STAR, DMDA_STENCIL_BOX};
  const PetscInt        dofs[]     = {1, 3};
  DM                    da;
  int                   s, d, w, periodic;

  PetscFunctionBegin;
  for (s = 0; s < 2; s++)
    for (d = 0; d < 2; d++) {
      for (w = 1; w <= 2; w++)
        for (periodic = 0; periodic < 2; periodic++) {
          const DMBoundaryType b = periodic ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE;
          PetscCall(DMDACreate2d(comm, b, b, stencils[s], 13, 11, PETSC_DECIDE, PETSC_DECIDE, dofs[d], w, NULL, NULL, &da));
          PetscCall(DMSetUp(da));
          PetscCall(Rounds(da, record));
          PetscCall(DMDestroy(&da));
        }
      PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_PERIODIC, DM_BOUNDARY_NONE, stencils[s], 7, 6, 5, PETSC_DECIDE,
                             PETSC_DECIDE, PETSC_DECIDE, dofs[d], 1, NULL, NULL, NULL, &da));
      PetscCall(DMSetUp(da));
      PetscCall(Rounds(da, record));
      PetscCall(DMDestroy(&da));
    }
  PetscFunctionReturn(0);
}

/* Scenario "ltol", run only when named: DMLocalToLocal on a 2D DMDA. PETSc builds it from a
 * copy of the DMDA's scatter remapped in place (VecScatterRemap), which it allows only on
 * basic and neighbor: under -sf_type hympi it fails with PETSc's error on every rank whose
 * part is remapped, here both of 2 (test petsc.np2.refuses_local_to_local). */
PetscErrorCode ScenarioLocalToLocal(MPI_Comm comm, Record *record)
{
  DM           da;
  Vec          from, to;
  PetscScalar *a;
  PetscInt     n, i;

  PetscFunctionBegin;
  PetscCall(DMDACreate2d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 13, 11, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL,
                         NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateLocalVector(da, &from));
  PetscCall(VecDuplicate(from, &to));
  PetscCall(VecGetLocalSize(from, &n));
  PetscCall(VecGetArray(from, &a));
  for (i = 0; i < n; i++) a[i] = 0.5 * i;
  PetscCall(VecRestoreArray(from, &a));
  PetscCall(VecSet(to, -1.0));
  PetscCall(DMLocalToLocalBegin(da, from, INSERT_VALUES, to));
  PetscCall(DMLocalToLocalEnd(da, from, INSERT_VALUES, to));
  PetscCall(RecordVec(record, to));
  PetscCall(VecDestroy(&to));
  PetscCall(VecDestroy(&from));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(0);
}
