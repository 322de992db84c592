/* SPDX-License-Identifier: BSD-3-Clause */
/* petsc_sf_misorder BAD: on a ring SF with -sf_type hympi, after one good broadcast, rank
 * BAD calls PetscSFBcastEnd without PetscSFBcastBegin while the others broadcast. BAD's call
 * fails with its call-order error; every other rank's broadcast fails with the error naming
 * rank BAD (the Halo's refusal): in that update when it waits for BAD, else in a later one
 * (a rank d neighbours away: within d broadcasts; those that wait for nobody finish with
 * right data), never by waiting for the watchdog (HYMPI_TIMEOUT is beyond the test's own
 * time limit). Exit 0 when every rank failed so. */
#include <petscsf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hympi_petsc.h"

int main(int argc, char **argv)
{
  PetscSF        sf;
  PetscSFNode    remote;
  PetscMPIInt    rank, size;
  PetscErrorCode ierr;
  double         root, leaf = -1;
  char          *specific = NULL;
  int            bad, failed_so = 0, all = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(HympiPetscInitialize());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  bad = argc > 1 && argv[1][0] != '-' ? atoi(argv[1]) : 0;
  PetscCheck(bad >= 0 && bad < size, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "BAD %d: not a rank", bad);
  /* A ring: my one leaf is the next rank's one root. */
  remote.rank  = (rank + 1) % size;
  remote.index = 0;
  PetscCall(PetscSFCreate(PETSC_COMM_WORLD, &sf));
  PetscCall(PetscSFSetGraph(sf, 1, 1, NULL, PETSC_COPY_VALUES, &remote, PETSC_COPY_VALUES));
  PetscCall(PetscSFSetFromOptions(sf));
  PetscCall(PetscSFSetUp(sf));
  root = 10.0 * rank;
  PetscCall(PetscSFBcastBegin(sf, MPI_DOUBLE, &root, &leaf, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf, MPI_DOUBLE, &root, &leaf, MPI_REPLACE));
  PetscCheck(leaf == 10.0 * ((rank + 1) % size), PETSC_COMM_SELF, PETSC_ERR_PLIB, "good broadcast: leaf %g", leaf);
  /* Every rank past the good broadcast before BAD errs: a refusal posted on a node stops its
   * ranks at their next begin, which would otherwise be this broadcast's on a slow rank. */
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));

  /* The mistake, then broadcasts until this rank's fails; errors returned, not fatal. */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = 0;
  for (int call = 0; call <= size && !ierr; call++) {
    root = 10.0 * rank + 1 + call;
    if (rank == bad && call == 0) {
      ierr = PetscSFBcastEnd(sf, MPI_DOUBLE, &root, &leaf, MPI_REPLACE);
    } else {
      ierr = PetscSFBcastBegin(sf, MPI_DOUBLE, &root, &leaf, MPI_REPLACE);
      if (!ierr) ierr = PetscSFBcastEnd(sf, MPI_DOUBLE, &root, &leaf, MPI_REPLACE);
    }
  }
  PetscCall(PetscPopErrorHandler());
  if (ierr) PetscCall(PetscErrorMessage(ierr, NULL, &specific));
  {
    char naming[64];
    snprintf(naming, sizeof naming, "rank %d could not take part in a ghost update", bad);
    failed_so = ierr && specific &&
                (rank == bad ? strstr(specific, "hympi: Halo") != NULL : strstr(specific, naming) != NULL);
  }
  if (!failed_so) printf("petsc_sf_misorder: rank %d: error %d, '%s'\n", rank, (int)ierr, specific ? specific : "");
  PetscCallMPI(MPI_Allreduce(&failed_so, &all, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, all ? "petsc_sf_misorder: every rank failed at once, naming rank %d\n"
                                              : "petsc_sf_misorder: FAILED\n", bad));
  PetscCall(PetscSFDestroy(&sf));
  PetscCall(PetscFinalize());
  return all ? 0 : 1;
}
