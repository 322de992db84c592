/* SPDX-License-Identifier: BSD-3-Clause */
/* A C PETSc program with the PetscSF type hympi: one root broadcast to rank 0's leaf on
 * every rank. */
#include <hympi_petsc.h>

int main(int argc, char **argv)
{
  PetscSF     sf;
  PetscSFNode root_of_leaf = {0, 0};
  double      root, leaf = 0;
  PetscMPIInt rank;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(HympiPetscInitialize());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  root = rank == 0 ? 42 : -1;
  PetscCall(PetscSFCreate(PETSC_COMM_WORLD, &sf));
  PetscCall(PetscSFSetType(sf, PETSCSFHYMPI));
  PetscCall(PetscSFSetGraph(sf, 1, 1, NULL, PETSC_COPY_VALUES, &root_of_leaf, PETSC_COPY_VALUES));
  PetscCall(PetscSFBcastBegin(sf, MPI_DOUBLE, &root, &leaf, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf, MPI_DOUBLE, &root, &leaf, MPI_REPLACE));
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "consumer_petsc: rank %d leaf %g\n", rank, leaf));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscCall(PetscSFDestroy(&sf));
  PetscCall(PetscFinalize());
  return 0;
}
