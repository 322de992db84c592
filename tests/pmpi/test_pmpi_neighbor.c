// SPDX-License-Identifier: BSD-3-Clause
// A plain MPI program (no hympi in its source) making neighbourhood exchanges, run with
// libhympi_pmpi preloaded or linked before libmpi. Every MPI_Neighbor_alltoall(v) is
// checked against PMPI's on the same arguments, whole receive buffers compared (the gaps
// between blocks must stay as they were), with data and counts that change every call:
//   test_pmpi_neighbor check     a directed distributed graph (out-neighbours r+1, r+3 in
//       that order, in-neighbours r-1, r-3), two Cartesian grids (periodic and not; MPI_PROC_NULL
//       at the edges), the 27-point stencil's graph of a 3-D grid of ranks (up to 26
//       neighbours), counts that outgrow the first call's (those messages go by MPI),
//       displacements with gaps, a strided (non-contiguous) type on either side; and graphs
//       hympi leaves to MPI: a self loop on one rank, a periodic dimension of size 2; the
//       graph is never freed (its exchange is released inside MPI_Finalize); where MPI has
//       them (MPI-4), every other call in the large-count form (MPI_Neighbor_alltoallv_c)
//   test_pmpi_neighbor mismatch  under MPI_ERRORS_RETURN, rank 1 expects one element more
//       than its first in-neighbour sends: rank 1 gets hympi's error, no rank waits, and the
//       next exchange is right everywhere
// Each rank counts its failures; every rank exits 1 when any rank failed.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "neighbors.h"

// One MPI_Neighbor_alltoallv (uniform: MPI_Neighbor_alltoall) against PMPI's.
static void exchange(MPI_Comm comm, int it, int uniform, const char* what) {
  static double send[kRoom], got[kRoom], want[kRoom];
  int me, in, out, sources[kMaxNeighbors], destinations[kMaxNeighbors];
  MPI_Comm_rank(comm, &me);
  neighbors(comm, &in, sources, &out, destinations);
  // Strided types every fifth call, on the sending side or the receiving side.
  const MPI_Datatype stype = it % 5 == 1 ? strided() : MPI_DOUBLE, rtype = it % 5 == 2 ? strided() : MPI_DOUBLE;
  const int sstep = stype == MPI_DOUBLE ? 1 : 2;
  const int same = 1 + it % 3 + (it % 4 == 3 ? 200 : 0);  // MPI_Neighbor_alltoall's count
  int scounts[kMaxNeighbors], sdispls[kMaxNeighbors], rcounts[kMaxNeighbors], rdispls[kMaxNeighbors];
  int at = 1;  // gaps before and between the blocks
  for (int i = 0; i < out; ++i) {
    scounts[i] = uniform ? same : destinations[i] == MPI_PROC_NULL ? it % 3 : count_of(me, destinations[i], it);
    sdispls[i] = uniform ? i * same : at;
    for (int k = 0; k < scounts[i]; ++k)
      send[(sdispls[i] + k) * sstep] = value_of(me, destinations[i] == MPI_PROC_NULL ? 63 : destinations[i], it, k);
    at += scounts[i] + 3;
  }
  at = 2;
  for (int j = 0; j < in; ++j) {
    rcounts[j] = uniform ? same : sources[j] == MPI_PROC_NULL ? 1 : count_of(sources[j], me, it);
    rdispls[j] = uniform ? j * same : at;
    at += rcounts[j] + 2;
  }
  for (int k = 0; k < kRoom; ++k) got[k] = want[k] = -1.0 - k;
  int code;
  const int wide = MPI_VERSION >= 4 && it % 2;  // odd calls: the large-count form (MPI-4)
  if (uniform && !wide)
    code = MPI_Neighbor_alltoall(send, same, stype, got, same, rtype, comm);
  else if (!wide)
    code = MPI_Neighbor_alltoallv(send, scounts, sdispls, stype, got, rcounts, rdispls, rtype, comm);
#if MPI_VERSION >= 4
  else if (uniform)
    code = MPI_Neighbor_alltoall_c(send, same, stype, got, same, rtype, comm);
  else {
    MPI_Count wscounts[kMaxNeighbors], wrcounts[kMaxNeighbors];
    MPI_Aint wsdispls[kMaxNeighbors], wrdispls[kMaxNeighbors];
    for (int i = 0; i < out; ++i) wscounts[i] = scounts[i], wsdispls[i] = sdispls[i];
    for (int j = 0; j < in; ++j) wrcounts[j] = rcounts[j], wrdispls[j] = rdispls[j];
    code = MPI_Neighbor_alltoallv_c(send, wscounts, wsdispls, stype, got, wrcounts, wrdispls, rtype, comm);
  }
#endif
  if (uniform)
    PMPI_Neighbor_alltoall(send, same, stype, want, same, rtype, comm);
  else
    PMPI_Neighbor_alltoallv(send, scounts, sdispls, stype, want, rcounts, rdispls, rtype, comm);
  CHECK(code == MPI_SUCCESS, "%s call %d: error %d", what, it, code);
  CHECK(memcmp(got, want, sizeof got) == 0, "%s call %d (%s): differs from MPI's", what, it,
        uniform ? "MPI_Neighbor_alltoall" : "MPI_Neighbor_alltoallv");
}

static void check_mode(int iterations) {
  enum { kComms = 5 };
  MPI_Comm comms[kComms] = {graph(0), grid(1), grid(0), graph(1), box()};
  const char* names[kComms] = {"graph", "periodic grid", "grid", "graph with a self loop", "3-D box"};
  for (int it = 0; it < iterations; ++it)
    for (int c = 0; c < kComms; ++c) {
      exchange(comms[c], it, 0, names[c]);
      exchange(comms[c], it, 1, names[c]);
    }
  for (int c = 1; c < kComms; ++c) MPI_Comm_free(&comms[c]);  // the graph stays: released by MPI_Finalize
  MPI_Datatype type = strided();
  MPI_Type_free(&type);
}

static void mismatch_mode(void) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) return;
  MPI_Comm comm = graph(0);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  for (int it = 0; it < 4; ++it) exchange(comm, it, 0, "before the mismatch");  // past HYMPI_PMPI_AFTER
  int in, out, sources[kMaxNeighbors], destinations[kMaxNeighbors];
  neighbors(comm, &in, sources, &out, destinations);
  double send[64] = {0}, recv[64];
  int scounts[kMaxNeighbors], rcounts[kMaxNeighbors], displs[kMaxNeighbors];
  for (int i = 0; i < kMaxNeighbors; ++i) scounts[i] = rcounts[i] = 2, displs[i] = 4 * i;
  if (world_rank == 1) rcounts[0] = 3;
  const int code = MPI_Neighbor_alltoallv(send, scounts, displs, MPI_DOUBLE, recv, rcounts, displs, MPI_DOUBLE, comm);
  if (world_rank == 1) {
    CHECK(code != MPI_SUCCESS, "rank 1 expects 3 doubles where 2 come: MPI_SUCCESS");
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    CHECK(strstr(text, "hympi") && strstr(text, "expects 24"), "error string '%s'", text);
    printf("test_pmpi_neighbor: rank 1 got: %s\n", text);
  } else {
    CHECK(code == MPI_SUCCESS, "rank %d's counts are right: error %d", world_rank, code);
  }
#if MPI_VERSION >= 4  // the large-count form: hympi's error too, so the library served it
  MPI_Count wscounts[kMaxNeighbors], wrcounts[kMaxNeighbors];
  MPI_Aint wdispls[kMaxNeighbors];
  for (int i = 0; i < kMaxNeighbors; ++i) wscounts[i] = scounts[i], wrcounts[i] = rcounts[i], wdispls[i] = displs[i];
  const int wide = MPI_Neighbor_alltoallv_c(send, wscounts, wdispls, MPI_DOUBLE, recv, wrcounts, wdispls, MPI_DOUBLE,
                                            comm);
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (world_rank == 1) MPI_Error_string(wide, text, &length);
  CHECK(world_rank == 1 ? wide != MPI_SUCCESS && strstr(text, "expects 24") : wide == MPI_SUCCESS,
        "MPI_Neighbor_alltoallv_c with rank 1 expecting 3 doubles where 2 come: error %d on rank %d", wide,
        world_rank);
#endif
  for (int it = 4; it < 6; ++it) exchange(comm, it, 0, "after the mismatch");
  MPI_Comm_free(&comm);
}

int main(int argc, char** argv) {
  const char* mode = begin_test(&argc, &argv);
  if (strcmp(mode, "mismatch") == 0)
    mismatch_mode();
  else
    check_mode(test_iterations());
  return end_test("test_pmpi_neighbor", mode);
}
