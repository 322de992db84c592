// SPDX-License-Identifier: BSD-3-Clause
// A plain MPI program of MPI sessions, run with libhympi_pmpi preloaded. Barrier, broadcast
// from every root, reduce and allreduce (also in place) with data that changes every call,
// and MPI_Neighbor_alltoall on a ring graph, on communicators of a session, against their
// closed forms; each rank's verdict (summed by PMPI, never through the library under
// test) in every rank's exit code.
//   test_pmpi_sessions [sessions|mixed] [LEVEL|none]
//   sessions  never MPI_Init: the library has no MPI_COMM_WORLD over which its ranks could
//       compare their settings, so it hands every call to MPI ("MPI: no MPI_Init seen");
//       each process prints its own report at exit
//   mixed     MPI_Init first and MPI_Finalize last: the session's communicators are served
//       like any other unless the session runs at MPI_THREAD_MULTIPLE, or does not say
//       (Open MPI 5 without "thread_level"), which sends every later call to MPI
//   LEVEL     the session's "thread_level" info (default MPI_THREAD_FUNNELED; none: MPI_INFO_NULL).
//       What each MPI grants: Open MPI 5 and MPICH 4.2 what is asked; MPICH 5 what is
//       asked, but no more than MPI_Init's level once that ran (so MPI_THREAD_SINGLE in mode
//       mixed); MPICH 4.0 MPI_THREAD_MULTIPLE always. Without the key MPICH 4.2 and 5 say
//       MPI_THREAD_SINGLE and Open MPI 5 nothing
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static void calls(MPI_Comm comm, MPI_Comm ring, int it) {
  int size, right, left;
  MPI_Comm_size(comm, &size);
  right = (world_rank + 1) % size, left = (world_rank + size - 1) % size;
  CHECK(MPI_Barrier(comm) == MPI_SUCCESS, "MPI_Barrier");
  double x[4], y[4];
  for (int i = 0; i < 4; ++i) x[i] = world_rank + it + i;
  MPI_Allreduce(x, y, 4, MPI_DOUBLE, MPI_SUM, comm);
  for (int i = 0; i < 4; ++i) CHECK(y[i] == size * (it + i) + size * (size - 1) / 2.0, "allreduce %d: %g", it, y[i]);
  long k[2] = {world_rank * 10L + it, -world_rank};
  MPI_Allreduce(MPI_IN_PLACE, k, 2, MPI_LONG, MPI_MAX, comm);
  CHECK(k[0] == (size - 1) * 10L + it && k[1] == 0, "allreduce in place %d: %ld %ld", it, k[0], k[1]);
  const int root = it % size;
  int v[3] = {-1, -1, -1};
  if (world_rank == root) v[0] = it, v[1] = 2 * it, v[2] = root;
  MPI_Bcast(v, 3, MPI_INT, root, comm);
  CHECK(v[0] == it && v[1] == 2 * it && v[2] == root, "bcast %d from %d", it, root);
  y[0] = -1;
  MPI_Reduce(x, y, 4, MPI_DOUBLE, MPI_SUM, root, comm);
  if (world_rank == root) CHECK(y[0] == size * it + size * (size - 1) / 2.0, "reduce %d: %g", it, y[0]);
  int sent[2] = {world_rank * 100 + it, world_rank * 100 + it + 1}, got[2] = {-1, -1};
  MPI_Neighbor_alltoall(sent, 1, MPI_INT, got, 1, MPI_INT, ring);  // to left, right; from left, right
  CHECK(got[0] == left * 100 + it + 1 && got[1] == right * 100 + it, "neighbor_alltoall %d: %d %d", it, got[0],
        got[1]);
}

int main(int argc, char** argv) {
  const int mixed = argc > 1 && strcmp(argv[1], "mixed") == 0;
  const char* level = argc > 2 ? argv[2] : "MPI_THREAD_FUNNELED";
  if (argc > 1 && !mixed && strcmp(argv[1], "sessions") != 0) {
    fprintf(stderr, "test_pmpi_sessions: unknown mode '%s' (sessions, mixed)\n", argv[1]);
    return 1;
  }
  if (mixed) MPI_Init(&argc, &argv);
  MPI_Info info = MPI_INFO_NULL;
  if (strcmp(level, "none") != 0) {
    MPI_Info_create(&info);
    MPI_Info_set(info, "thread_level", level);
  }
  MPI_Session session;
  if (MPI_Session_init(info, MPI_ERRORS_RETURN, &session) != MPI_SUCCESS) {
    fprintf(stderr, "test_pmpi_sessions: MPI_Session_init failed\n");
    return 1;
  }
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  MPI_Group group;
  MPI_Comm comm;
  if (MPI_Group_from_session_pset(session, "mpi://WORLD", &group) != MPI_SUCCESS ||
      MPI_Comm_create_from_group(group, "org.hympi.test_pmpi_sessions", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm) !=
          MPI_SUCCESS) {
    fprintf(stderr, "test_pmpi_sessions: no communicator from the session's mpi://WORLD\n");
    return 1;
  }
  int size;
  MPI_Comm_rank(comm, &world_rank);
  MPI_Comm_size(comm, &size);
  // Neighbours left then right, in both directions: a ring without repeats from 3 ranks.
  const int neighbours[2] = {(world_rank + size - 1) % size, (world_rank + 1) % size};
  const int weights[2] = {1, 1};  // (Open MPI 5's MPI_UNWEIGHTED trips GCC's -Wstringop-overread)
  MPI_Comm ring;
  MPI_Dist_graph_create_adjacent(comm, 2, neighbours, weights, 2, neighbours, weights, MPI_INFO_NULL, 0, &ring);
  for (int it = 0; it < test_iterations(); ++it) calls(comm, ring, it);
  char mode[64];
  snprintf(mode, sizeof mode, "%s %s", mixed ? "mixed" : "sessions", level);
  const int code = verdict(comm, "test_pmpi_sessions", mode);
  MPI_Comm_free(&ring);
  MPI_Comm_free(&comm);
  MPI_Group_free(&group);
  MPI_Session_finalize(&session);
  if (mixed) MPI_Finalize();
  return code;
}
