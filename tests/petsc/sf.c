/* SPDX-License-Identifier: BSD-3-Clause */
/* Scenario "sf": a PetscSF made directly, on a random graph (leaves scattered in a longer
 * leaf array, roots referenced by several leaves and by leaves of their own rank, a rank
 * without roots or leaves), and every operation and path of the type: broadcasts with
 * MPI_REPLACE of double, float, PetscInt and contiguous units (hympi), of a strided unit,
 * of MPI_2INT and with MPI_SUM (basic), three broadcasts of one unit in flight together
 * (the first through hympi, the others on basic, ended in either order), reductions,
 * fetch-and-op, and the gather/scatter of the multi-SF (PetscSF's own graph built from
 * this one). Data changes every round. The SF's root ranks (PetscSFGetRootRanks) are
 * recorded and viewed in detail (PetscSFView reads them from the SF's own fields). */
#include <petscsf.h>
#include <string.h>

#include "harness.h"

/* Roots of rank r, the same on every rank. */
static PetscInt RootsOf(PetscMPIInt r, PetscMPIInt size)
{
  return (size > 2 && r == 1) ? 0 : 8 + (r * 7 + 3) % 13;
}

static PetscErrorCode MakeGraph(MPI_Comm comm, PetscSF *sf, PetscInt *nroots, PetscInt *extent)
{
  PetscMPIInt  rank, size;
  PetscInt     nleaves, i, *ilocal, *slots;
  PetscSFNode *iremote;
  unsigned     state;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  state   = 17u + (unsigned)rank;
  *nroots = RootsOf(rank, size);
  nleaves = RootsOf(rank, size) ? 20 + TestRandom(&state, 15) : 0;
  *extent = 2 * nleaves + 3;
  PetscCall(PetscMalloc3(nleaves, &ilocal, nleaves, &iremote, *extent, &slots));
  for (i = 0; i < *extent; i++) slots[i] = i;
  for (i = 0; i < nleaves; i++) { /* a random subset of the slots, in random order */
    PetscInt j = i + TestRandom(&state, *extent - i), t = slots[i];
    slots[i]   = slots[j];
    slots[j]   = t;
    ilocal[i]  = slots[i];
    do {
      iremote[i].rank = TestRandom(&state, size);
    } while (!RootsOf((PetscMPIInt)iremote[i].rank, size));
    iremote[i].index = TestRandom(&state, RootsOf((PetscMPIInt)iremote[i].rank, size));
  }
  PetscCall(PetscSFCreate(comm, sf));
  PetscCall(PetscSFSetFromOptions(*sf));
  PetscCall(PetscSFSetGraph(*sf, *nroots, nleaves, ilocal, PETSC_COPY_VALUES, iremote, PETSC_COPY_VALUES));
  PetscCall(PetscSFSetUp(*sf));
  PetscCall(PetscFree3(ilocal, iremote, slots));
  PetscFunctionReturn(0);
}

/* One broadcast of `unit` (`per` elements of type `element` per unit, element `gap` of
 * each not part of the unit, or -1) with `op`; roots hold values of `round`, leaves start
 * at -1 (or 1 for MPI_SUM); records the leaves but their gaps (which basic leaves
 * undefined for leaves of other ranks). */
static PetscErrorCode Broadcast(PetscSF sf, MPI_Datatype unit, MPI_Datatype element, PetscInt per, PetscInt gap, MPI_Op op, PetscInt nroots, PetscInt extent, int round, Record *record)
{
  PetscMPIInt rank;
  size_t      bytes;
  char       *root, *leaf;
  PetscInt    i;
  int         size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)sf), &rank));
  PetscCallMPI(MPI_Type_size(element, &size));
  bytes = (size_t)size;
  PetscCall(PetscMalloc2(nroots * per * bytes, &root, extent * per * bytes, &leaf));
  for (i = 0; i < nroots * per; i++) {
    const double v = 1000.0 * rank + i + 0.25 * round;
    if (element == MPI_DOUBLE) ((double *)root)[i] = v;
    else if (element == MPI_FLOAT) ((float *)root)[i] = (float)v;
    else ((PetscInt *)root)[i] = (PetscInt)(4 * v);
  }
  for (i = 0; i < extent * per; i++) {
    const double v = op == MPI_SUM ? 1 : -1;
    if (element == MPI_DOUBLE) ((double *)leaf)[i] = v;
    else if (element == MPI_FLOAT) ((float *)leaf)[i] = (float)v;
    else ((PetscInt *)leaf)[i] = (PetscInt)v;
  }
  PetscCall(PetscSFBcastBegin(sf, unit, root, leaf, op));
  PetscCall(PetscSFBcastEnd(sf, unit, root, leaf, op));
  if (gap >= 0)
    for (i = 0; i < extent; i++) memset(leaf + (i * per + gap) * bytes, 0, bytes);
  PetscCall(RecordBytes(record, leaf, extent * per * bytes));
  PetscCall(PetscFree2(root, leaf));
  PetscFunctionReturn(0);
}

/* Broadcasts of doubles in flight together: 1 and 2 begun, one of them ended (2 if
 * `reverse_end`), 3 begun, the other ended, then 3. On a rank without roots and leaves
 * every array is NULL, so its ends cannot tell the broadcasts apart: it must still move
 * the same ones through hympi as the other ranks. */
static PetscErrorCode InFlightTogether(PetscSF sf, PetscInt nroots, PetscInt extent, int round, PetscBool reverse_end, Record *record)
{
  const PetscInt  first     = reverse_end ? 1 : 0;
  const PetscBool begins[6] = {PETSC_TRUE, PETSC_TRUE, PETSC_FALSE, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE};
  const PetscInt  which[6]  = {0, 1, first, 2, 1 - first, 2};
  double         *r[3], *l[3], *root[3], *leaf[3];
  PetscInt        i, k;
  int             step;
  PetscInt64      since = -1;
  MPI_Comm        comm  = PetscObjectComm((PetscObject)sf);

  PetscFunctionBegin;
  PetscCall(CheckSamePaths(comm, "broadcasts in flight together", &since));
  PetscCall(PetscMalloc6(nroots, &r[0], nroots, &r[1], nroots, &r[2], extent, &l[0], extent, &l[1], extent, &l[2]));
  for (k = 0; k < 3; k++) {
    for (i = 0; i < nroots; i++) r[k][i] = (k + 1) * (i + 0.5 * round);
    for (i = 0; i < extent; i++) l[k][i] = -7;
    root[k] = nroots ? r[k] : NULL; /* the rank without roots has no leaves either: NULL, as a VecScatter passes */
    leaf[k] = nroots ? l[k] : NULL;
  }
  for (step = 0; step < 6; step++) { /* every rank moves the same ones through hympi, checked after each call */
    k = which[step];
    if (begins[step]) PetscCall(PetscSFBcastBegin(sf, MPI_DOUBLE, root[k], leaf[k], MPI_REPLACE));
    else PetscCall(PetscSFBcastEnd(sf, MPI_DOUBLE, root[k], leaf[k], MPI_REPLACE));
    PetscCall(CheckSamePaths(comm, "broadcasts in flight together", &since));
  }
  for (k = 0; k < 3; k++) PetscCall(RecordBytes(record, l[k], extent * sizeof(double)));
  PetscCall(PetscFree6(r[0], r[1], r[2], l[0], l[1], l[2]));
  PetscFunctionReturn(0);
}

/* Leaves to roots: a sum of doubles, and a fetch-and-add of PetscInts. */
static PetscErrorCode LeavesToRoots(PetscSF sf, PetscInt nroots, PetscInt extent, int round, Record *record)
{
  double   *root, *leaf;
  PetscInt *iroot, *ileaf, *update, i;

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(nroots, &root, extent, &leaf, nroots, &iroot, extent, &ileaf, extent, &update));
  for (i = 0; i < nroots; i++) {
    root[i]  = 0.5 * i;
    iroot[i] = 10 * i;
  }
  for (i = 0; i < extent; i++) {
    leaf[i]   = i + round;
    ileaf[i]  = i + 3 * round;
    update[i] = -1;
  }
  PetscCall(PetscSFReduceBegin(sf, MPI_DOUBLE, leaf, root, MPI_SUM));
  PetscCall(PetscSFReduceEnd(sf, MPI_DOUBLE, leaf, root, MPI_SUM));
  PetscCall(PetscSFFetchAndOpBegin(sf, MPIU_INT, iroot, ileaf, update, MPI_SUM));
  PetscCall(PetscSFFetchAndOpEnd(sf, MPIU_INT, iroot, ileaf, update, MPI_SUM));
  PetscCall(RecordBytes(record, root, nroots * sizeof(double)));
  PetscCall(RecordBytes(record, iroot, nroots * sizeof(PetscInt)));
  PetscCall(RecordBytes(record, update, extent * sizeof(PetscInt)));
  PetscCall(PetscFree5(root, leaf, iroot, ileaf, update));
  PetscFunctionReturn(0);
}

/* Gather leaves to their roots' multi-roots and scatter them back (the multi-SF). */
static PetscErrorCode GatherScatter(PetscSF sf, PetscInt extent, int round, Record *record)
{
  const PetscInt *degree;
  PetscInt        nroots, i, total = 0;
  double         *leaf, *multi, *back;

  PetscFunctionBegin;
  PetscCall(PetscSFGetGraph(sf, &nroots, NULL, NULL, NULL));
  PetscCall(PetscSFComputeDegreeBegin(sf, &degree));
  PetscCall(PetscSFComputeDegreeEnd(sf, &degree));
  for (i = 0; i < nroots; i++) total += degree[i];
  PetscCall(PetscMalloc3(extent, &leaf, total, &multi, extent, &back));
  for (i = 0; i < extent; i++) {
    leaf[i] = 3.0 * i + round;
    back[i] = -1;
  }
  PetscCall(PetscSFGatherBegin(sf, MPI_DOUBLE, leaf, multi));
  PetscCall(PetscSFGatherEnd(sf, MPI_DOUBLE, leaf, multi));
  for (i = 0; i < total; i++) multi[i] += 0.5;
  PetscCall(PetscSFScatterBegin(sf, MPI_DOUBLE, multi, back));
  PetscCall(PetscSFScatterEnd(sf, MPI_DOUBLE, multi, back));
  PetscCall(RecordBytes(record, multi, total * sizeof(double)));
  PetscCall(RecordBytes(record, back, extent * sizeof(double)));
  PetscCall(PetscFree3(leaf, multi, back));
  PetscFunctionReturn(0);
}

/* The ranks of the roots my leaves reference, with their leaves, as PETSc's generic code
 * reads them; then the detailed view (which reads them from the SF itself) to /dev/null. */
static PetscErrorCode RootRanks(MPI_Comm comm, PetscSF sf, Record *record)
{
  PetscInt           nranks;
  const PetscMPIInt *ranks;
  const PetscInt    *roffset, *rmine, *rremote;
  PetscViewer        viewer;

  PetscFunctionBegin;
  PetscCall(PetscSFGetRootRanks(sf, &nranks, &ranks, &roffset, &rmine, &rremote));
  PetscCall(RecordBytes(record, &nranks, sizeof nranks));
  PetscCall(RecordBytes(record, ranks, (size_t)nranks * sizeof *ranks));
  PetscCall(RecordBytes(record, roffset, (size_t)(nranks + 1) * sizeof *roffset));
  PetscCall(RecordBytes(record, rmine, (size_t)roffset[nranks] * sizeof *rmine));
  PetscCall(RecordBytes(record, rremote, (size_t)roffset[nranks] * sizeof *rremote));
  PetscCall(PetscViewerASCIIOpen(comm, "/dev/null", &viewer));
  PetscCall(PetscViewerPushFormat(viewer, PETSC_VIEWER_ASCII_INFO_DETAIL));
  PetscCall(PetscSFView(sf, viewer));
  PetscCall(PetscViewerPopFormat(viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode ScenarioSF(MPI_Comm comm, Record *record)
{
  PetscSF      sf;
  PetscInt     nroots = 0, extent = 0;
  MPI_Datatype three, dup_three, strided;
  int          round;

  PetscFunctionBegin;
  PetscCall(MakeGraph(comm, &sf, &nroots, &extent));
  PetscCall(RootRanks(comm, sf, record));
  PetscCallMPI(MPI_Type_contiguous(3, MPI_DOUBLE, &three));
  PetscCallMPI(MPI_Type_commit(&three));
  PetscCallMPI(MPI_Type_dup(three, &dup_three));
  PetscCallMPI(MPI_Type_commit(&dup_three));
  PetscCallMPI(MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &strided)); /* 2 of every 3 doubles: not contiguous */
  PetscCallMPI(MPI_Type_commit(&strided));
  for (round = 1; round <= 3; round++) {
    /* hympi */
    PetscCall(Broadcast(sf, MPI_DOUBLE, MPI_DOUBLE, 1, -1, MPI_REPLACE, nroots, extent, round, record));
    PetscCall(Broadcast(sf, MPI_FLOAT, MPI_FLOAT, 1, -1, MPI_REPLACE, nroots, extent, round, record));
    PetscCall(Broadcast(sf, MPIU_INT, MPIU_INT, 1, -1, MPI_REPLACE, nroots, extent, round, record));
    PetscCall(Broadcast(sf, three, MPI_DOUBLE, 3, -1, MPI_REPLACE, nroots, extent, round, record));
    PetscCall(Broadcast(sf, dup_three, MPI_DOUBLE, 3, -1, MPI_REPLACE, nroots, extent, round, record));
    /* basic: another operation, a unit hympi does not move */
    PetscCall(Broadcast(sf, MPI_DOUBLE, MPI_DOUBLE, 1, -1, MPI_SUM, nroots, extent, round, record));
    PetscCall(Broadcast(sf, strided, MPI_DOUBLE, 3, 1, MPI_REPLACE, nroots, extent, round, record));
    PetscCall(Broadcast(sf, MPI_2INT, MPI_INT, 2, -1, MPI_REPLACE, nroots, extent, round, record));
    /* the first through hympi (completed when the second begins), the others on basic */
    PetscCall(InFlightTogether(sf, nroots, extent, round, round % 2 ? PETSC_TRUE : PETSC_FALSE, record));
    PetscCall(LeavesToRoots(sf, nroots, extent, round, record));
    PetscCall(GatherScatter(sf, extent, round, record));
  }
  PetscCall(RootRanks(comm, sf, record)); /* on hympi's side by now */
  PetscCallMPI(MPI_Type_free(&strided));
  PetscCallMPI(MPI_Type_free(&dup_three));
  PetscCallMPI(MPI_Type_free(&three));
  PetscCall(PetscSFDestroy(&sf));
  PetscFunctionReturn(0);
}
