// SPDX-License-Identifier: BSD-3-Clause
// A plain MPI program (no hympi in its source) that needs MPI's progress rule: a rank
// inside an MPI call keeps its pending requests moving. Run with libhympi_pmpi preloaded
// (every call served from the first), over shared memory and over TCP:
//   test_pmpi_progress check   rank 0 MPI_Isends 4 MiB or 10,000 bytes to rank 1 and
//       enters MPI_Allreduce (then MPI_Barrier and MPI_Bcast) before waiting for it; rank 1
//       MPI_Recvs it first. The large message goes by rendezvous, the other in fragments
//       (MPICH 4.0 over shared memory), each needs rank 0's progress while it waits in the
//       collective for rank 1 (MPICH 4.0: the first message above its inline size of a run,
//       whatever its size). Six rounds, the sizes alternating from 10,000 bytes, with
//       changing data, each checked.
//   test_pmpi_progress rma [N] the last rank accumulates N times (default 500; MPI_Accumulate
//       of a strided vector type, MPI_Win_flush_local after each) into rank 0's window in a
//       passive-target epoch while every other rank waits in MPI_Barrier; MPICH moves each
//       accumulate only when the target drives its progress (Open MPI 5 too), so the
//       barrier's wait must keep doing so without pause (with naps between polls MPICH 5
//       took 60 times as long, Open MPI 5 160 times). Two rounds with changing data; rank 0
//       checks its window after each.
// Each rank counts its failures; every rank exits 1 when any rank failed.
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { kDoubles = 4 * 1024 * 1024 / 8, kMedium = 10000 / 8 };  // 4 MiB, 10,000 bytes

enum { kBlocks = 1000, kBlock = 99, kStride = 100, kTarget = kBlocks * kBlock };

// The "rma" mode above. Rank 0's window holds kTarget ints; the last rank's buffer
// kBlocks * kStride, of which its vector type takes kBlock of every kStride.
static void passive_target_rounds(int size, int accumulates) {
  int* window_ints = calloc(kTarget, sizeof(int));
  int* origin = malloc(sizeof(int) * kBlocks * kStride);
  MPI_Win win;
  MPI_Win_create(window_ints, world_rank == 0 ? (MPI_Aint)(sizeof(int) * kTarget) : 0, sizeof(int), MPI_INFO_NULL,
                 MPI_COMM_WORLD, &win);
  MPI_Datatype strided;
  MPI_Type_vector(kBlocks, kBlock, kStride, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  for (int round = 1; round <= 2; ++round) {
    if (world_rank == size - 1) {
      for (int i = 0; i < kBlocks * kStride; ++i) origin[i] = round * 1000 + i % kStride;
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
      for (int k = 0; k < accumulates; ++k) {
        MPI_Accumulate(origin, 1, strided, 0, 0, kTarget, MPI_INT, MPI_SUM, win);
        MPI_Win_flush_local(0, win);
      }
      MPI_Win_unlock(0, win);
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Barrier failed");
    if (world_rank == 0) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);  // the window's memory as the accumulates left it
      int wrong = 0;
      // Round r put r * 1000 + j at place j of every block, `accumulates` times.
      for (int i = 0; i < kTarget; ++i)
        wrong += window_ints[i] != accumulates * (1000 * round * (round + 1) / 2 + round * (i % kBlock));
      MPI_Win_unlock(0, win);
      CHECK(wrong == 0, "round %d: %d of the window's %d ints wrong", round, wrong, kTarget);
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Barrier failed");
  }
  MPI_Type_free(&strided);
  MPI_Win_free(&win);
  free(origin);
  free(window_ints);
}

int main(int argc, char** argv) {
  const char* mode = begin_test(&argc, &argv);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (strcmp(mode, "rma") == 0) {
    if (size >= 2) passive_target_rounds(size, argc > 2 ? atoi(argv[2]) : 500);
    return end_test("test_pmpi_progress", mode);
  }
  double* big = malloc(sizeof(double) * kDoubles);
  // The communicator's Context and its collectives' memory first: their set-up polls MPI
  // (MPI_Testall), which would deliver the first message for the wait under test. MPICH 4.0
  // needs progress from the sender for the first message above its inline size of a run.
  int one = 1, ranks = 0;
  CHECK(MPI_Allreduce(&one, &ranks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS && ranks == size,
        "the first MPI_Allreduce");
  for (int round = 0; round < 6 && size >= 2; ++round) {
    const int n = round % 2 ? kDoubles : kMedium;
    MPI_Request request = MPI_REQUEST_NULL;
    if (world_rank == 0) {
      for (int i = 0; i < n; ++i) big[i] = round * 1e6 + i;
      MPI_Isend(big, n, MPI_DOUBLE, 1, round, MPI_COMM_WORLD, &request);
    } else if (world_rank == 1) {
      MPI_Recv(big, n, MPI_DOUBLE, 0, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      int wrong = 0;
      for (int i = 0; i < n; ++i) wrong += big[i] != round * 1e6 + i;
      CHECK(wrong == 0, "round %d: %d of the %d-double message's values wrong", round, wrong, n);
    }
    double in = world_rank + round, sum = 0;
    CHECK(MPI_Allreduce(&in, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Allreduce failed");
    CHECK(sum == size * (size - 1) / 2.0 + size * round, "round %d: allreduce %g", round, sum);
    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Barrier failed");
    int token = world_rank == size - 1 ? 1000 + round : -1;
    CHECK(MPI_Bcast(&token, 1, MPI_INT, size - 1, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Bcast failed");
    CHECK(token == 1000 + round, "round %d: broadcast %d", round, token);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  free(big);
  return end_test("test_pmpi_progress", mode);
}
