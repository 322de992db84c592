/* SPDX-License-Identifier: BSD-3-Clause */
/* A PETSc program that knows nothing of hympi: its SF takes the type from the options
 * database. Run with -dll_append <libdir>/libhympi_petsc_plugin.so -sf_type hympi, PETSc
 * loads the type itself. Broadcasts rank 0's root to a leaf on every rank. */
#include <petscsf.h>

int main(int argc, char **argv)
{
  PetscSF     sf;
  PetscSFType type;
  PetscSFNode root_of_leaf = {0, 0};
  double      root, leaf = 0;
  PetscMPIInt rank;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  root = rank == 0 ? 42 : -1;
  PetscCall(PetscSFCreate(PETSC_COMM_WORLD, &sf));
  PetscCall(PetscSFSetFromOptions(sf));
  PetscCall(PetscSFSetGraph(sf, 1, 1, NULL, PETSC_COPY_VALUES, &root_of_leaf, PETSC_COPY_VALUES));
  PetscCall(PetscSFBcastBegin(sf, MPI_DOUBLE, &root, &leaf, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf, MPI_DOUBLE, &root, &leaf, MPI_REPLACE));
  PetscCall(PetscSFGetType(sf, &type));
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "plain_petsc: rank %d type %s leaf %g\n", rank, type, leaf));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscCall(PetscSFDestroy(&sf));
  PetscCall(PetscFinalize());
  return 0;
}
