/* SPDX-License-Identifier: BSD-3-Clause */
/* petsc_sf_tests [scenario ...]: the PETSc programs of tests/petsc (sf, ghost, dmda,
 * scatter, ksp, ltol; all when none is named), each with PetscSF type basic and the type
 * under test (harness.h). Prints
 * "petsc-sf: all passed" and returns 0 when every one matched.
 * Built twice: linked with libhympi_petsc, calling HympiPetscInitialize; and as
 * petsc_sf_plugin_tests (HYMPI_TEST_PLUGIN), linked with PETSc alone, the type coming from
 * libhympi_petsc_plugin.so that PETSc loads itself (-dll_append), as in a program that
 * was never changed for hympi. */
#include <string.h>

#include "harness.h"

typedef struct {
  const char      *name;
  Scenario         run;
  HympiPetscCounts expect;     /* the least hympi broadcasts, basic broadcasts, reductions, fetch-and-ops; the most Contexts */
  PetscMPIInt      hympi_from; /* ranks from which it broadcasts at all (a sequential matrix does not) */
} Entry;

static const Entry entries[] = {
  {"sf",      ScenarioSF,           {1, 1, 1, 1, 1}, 1},
  {"ghost",   ScenarioGhost,        {1, 0, 1, 0, 1}, 1},
  {"dmda",    ScenarioDMDA,         {1, 0, 1, 0, 1}, 1},
  {"scatter", ScenarioScatter,      {1, 1, 1, 0, 3}, 1}, /* 2 on PETSC_COMM_SELF, see harness.h */
  {"ksp",     ScenarioKSP,          {1, 0, 0, 0, 1}, 2},
  {"ltol",    ScenarioLocalToLocal, {1, 0, 0, 0, 1}, 1},
};

/* Named on the command line (the arguments before the first option), or none named. */
static PetscBool Chosen(int argc, char **argv, const Entry *entry)
{
  PetscBool any = PETSC_FALSE;
  int       a;

  for (a = 1; a < argc && argv[a][0] != '-'; a++) {
    if (!strcmp(argv[a], entry->name)) return PETSC_TRUE;
    any = PETSC_TRUE;
  }
  return any ? PETSC_FALSE : PETSC_TRUE;
}

/* Registers the type where this program does it, and finds HympiPetscGetCounts. */
static PetscErrorCode SetUpType(GetCounts *counts)
{
  PetscFunctionBegin;
#if defined(HYMPI_TEST_PLUGIN)
  void *found = NULL;
  PetscCall(PetscDLLibrarySym(PETSC_COMM_WORLD, &PetscDLLibrariesLoaded, NULL, "HympiPetscGetCounts", &found));
  PetscCheck(found, PETSC_COMM_WORLD, PETSC_ERR_USER,
             "petsc-sf: libhympi_petsc_plugin.so is not loaded: run with -dll_append <path>/libhympi_petsc_plugin.so");
  memcpy(counts, &found, sizeof found); /* a function's address, as dlsym gives it */
#else
  PetscCall(HympiPetscInitialize());
  *counts = HympiPetscGetCounts;
#endif
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscBool   all = PETSC_TRUE, ok;
  PetscMPIInt size;
  size_t      e;
  GetCounts   counts = NULL;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SetUpType(&counts));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  for (e = 0; e < sizeof entries / sizeof entries[0]; e++) {
    HympiPetscCounts expect = entries[e].expect;
    if (!Chosen(argc, argv, &entries[e])) continue;
    if (size < entries[e].hympi_from) expect.bcasts_hympi = 0;
    /* One rank: PETSC_COMM_SELF's communicator is congruent with PETSC_COMM_WORLD's, and
     * the one kept may be either (the others' Contexts then join its engine, cheaply). */
    if (size == 1) expect.contexts = PETSC_MAX_INT;
    PetscCall(RunScenario(PETSC_COMM_WORLD, entries[e].name, entries[e].run, counts, expect, &ok));
    if (!ok) all = PETSC_FALSE;
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, all ? "petsc-sf: all passed\n" : "petsc-sf: FAILED\n"));
  PetscCall(PetscFinalize());
  return all ? 0 : 1;
}
