/* SPDX-License-Identifier: BSD-3-Clause */
/* Scenario "dmda": DMGlobalToLocal on DMDA grids, 2D and 3D, star and box stencils, dof 1
 * and 3, stencil width 1 and 2, non-periodic and periodic (periodic grids on one rank read
 * their own roots: the local copy), with values changing every round (hympi); then
 * DMLocalToGlobal with ADD_VALUES (basic). Records the local and the global vectors. */
#include <petscdmda.h>

#include "harness.h"

/* v[i] = step * i + first on this rank. */
static PetscErrorCode Ramp(Vec v, PetscScalar step, PetscScalar first)
{
  PetscScalar *a;
  PetscInt     n, i;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetArray(v, &a));
  for (i = 0; i < n; i++) a[i] = step * i + first;
  PetscCall(VecRestoreArray(v, &a));
  PetscFunctionReturn(0);
}

static PetscErrorCode Rounds(DM da, Record *record)
{
  Vec      global, local;
  PetscInt start;
  int      round;

  PetscFunctionBegin;
  PetscCall(DMCreateGlobalVector(da, &global));
  PetscCall(DMCreateLocalVector(da, &local));
  PetscCall(VecGetOwnershipRange(global, &start, NULL));
  for (round = 1; round <= 2; round++) {
    PetscCall(Ramp(global, 7.0, 7.0 * start + 0.5 * round));
    PetscCall(VecSet(local, -1.0));
    PetscCall(DMGlobalToLocalBegin(da, global, INSERT_VALUES, local));
    PetscCall(DMGlobalToLocalEnd(da, global, INSERT_VALUES, local));
    PetscCall(RecordVec(record, local));

    PetscCall(Ramp(local, 0.25, round));
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

/* Scenario "ltol": DMLocalToLocal on 1D and 2D DMDAs (rank 0's part of the 1D one maps to
 * itself), two rounds of changing values, beside DMGlobalToLocal on the same DMDA (hympi).
 * PETSc builds the local-to-local scatter from a copy of the DMDA's scatter remapped in
 * place (VecScatterRemap), which it allows only on basic and neighbor: the type makes its
 * copies basic (sf_hympi.cpp, duplicate), so this runs as on basic. */
PetscErrorCode ScenarioLocalToLocal(MPI_Comm comm, Record *record)
{
  DM  da;
  Vec global, from, to;
  int dim, round;

  PetscFunctionBegin;
  for (dim = 1; dim <= 2; dim++) {
    if (dim == 1) PetscCall(DMDACreate1d(comm, DM_BOUNDARY_NONE, 29, 1, 2, NULL, &da));
    else PetscCall(DMDACreate2d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 13, 11, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
    PetscCall(DMSetUp(da));
    PetscCall(DMCreateGlobalVector(da, &global));
    PetscCall(DMCreateLocalVector(da, &from));
    PetscCall(VecDuplicate(from, &to));
    for (round = 1; round <= 2; round++) {
      PetscCall(VecSet(global, 3.0 * round));
      PetscCall(DMGlobalToLocalBegin(da, global, INSERT_VALUES, from));
      PetscCall(DMGlobalToLocalEnd(da, global, INSERT_VALUES, from));
      PetscCall(RecordVec(record, from));
      PetscCall(Ramp(from, 0.5, round));
      PetscCall(VecSet(to, -1.0));
      PetscCall(DMLocalToLocalBegin(da, from, INSERT_VALUES, to));
      PetscCall(DMLocalToLocalEnd(da, from, INSERT_VALUES, to));
      PetscCall(RecordVec(record, to));
    }
    PetscCall(VecDestroy(&to));
    PetscCall(VecDestroy(&from));
    PetscCall(VecDestroy(&global));
    PetscCall(DMDestroy(&da));
  }
  PetscFunctionReturn(0);
}
