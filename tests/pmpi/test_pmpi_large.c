// SPDX-License-Identifier: BSD-3-Clause
// Messages above INT_MAX bytes through libhympi_pmpi (MPI-4's large-count forms), at 2
// ranks, every size served (HYMPI_PMPI=all, HYMPI_PMPI_MAX_BYTES=unlimited,
// HYMPI_PMPI_AFTER=0). About 2 GiB per rank and buffer: ctest label "large", outside CI.
//  - MPI_Bcast_c of INT_MAX + 17 MPI_BYTEs (a count above INT_MAX) from each root;
//  - MPI_Allreduce_c and MPI_Reduce_c of 2^29 + 3 MPI_INTs in place (more than INT_MAX
//    bytes in an int-sized count);
//  - MPI_Neighbor_alltoallv_c on a two-rank distributed graph (one neighbour each way):
//    rank 0 sends INT_MAX + 17 bytes to rank 1, which sends it 8. On one graph the large
//    message is the first call's (its slot is capped at INT_MAX bytes: it goes by MPI beside
//    it), on another it comes between small ones (after a small slot was made).
// Every received byte is checked against the pattern its sender wrote; each rank's verdict
// is in every rank's exit code.
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#if MPI_VERSION < 4
#error "test_pmpi_large needs MPI-4's large-count forms"
#endif

static const MPI_Count kBig = (MPI_Count)INT_MAX + 17;  // 2 GiB + 16: whole words

static unsigned char pattern(MPI_Count i, int seed) { return (unsigned char)((i * 131 + (i >> 20) + seed) & 0xff); }

static void fill(unsigned char* p, MPI_Count n, int seed) {
  for (MPI_Count i = 0; i < n; ++i) p[i] = pattern(i, seed);
}

// The first index where p differs from the pattern, or -1.
static MPI_Count first_difference(const unsigned char* p, MPI_Count n, int seed) {
  for (MPI_Count i = 0; i < n; ++i)
    if (p[i] != pattern(i, seed)) return i;
  return -1;
}

static void broadcasts(unsigned char* buffer) {
  for (int root = 0; root < 2; ++root) {
    if (world_rank == root)
      fill(buffer, kBig, 10 + root);
    else
      memset(buffer, 0, (size_t)kBig);
    CHECK(MPI_Bcast_c(buffer, kBig, MPI_BYTE, root, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Bcast_c");
    const MPI_Count at = first_difference(buffer, kBig, 10 + root);
    CHECK(at < 0, "MPI_Bcast_c from %d: byte %lld wrong", root, (long long)at);
  }
}

static void reductions(int* values) {
  const MPI_Count n = ((MPI_Count)1 << 29) + 3;  // 2 GiB + 12 bytes
  for (MPI_Count i = 0; i < n; ++i) values[i] = (int)(i % 1000) + world_rank;
  CHECK(MPI_Allreduce_c(MPI_IN_PLACE, values, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS, "allreduce");
  MPI_Count wrong = -1;
  for (MPI_Count i = 0; i < n && wrong < 0; ++i)
    if (values[i] != 2 * (int)(i % 1000) + 1) wrong = i;
  CHECK(wrong < 0, "MPI_Allreduce_c: element %lld wrong", (long long)wrong);
  for (MPI_Count i = 0; i < n; ++i) values[i] = (int)(i % 977) * (world_rank + 2);
  const int root = 1;
  const int code = world_rank == root ? MPI_Reduce_c(MPI_IN_PLACE, values, n, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD)
                                      : MPI_Reduce_c(values, NULL, n, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
  CHECK(code == MPI_SUCCESS, "MPI_Reduce_c");
  if (world_rank == root) {
    wrong = -1;
    for (MPI_Count i = 0; i < n && wrong < 0; ++i)
      if (values[i] != (int)(i % 977) * 3) wrong = i;
    CHECK(wrong < 0, "MPI_Reduce_c: element %lld wrong", (long long)wrong);
  }
}

// One exchange on the two-rank graph: rank 0 sends `big` bytes, rank 1 sends 8.
static void exchange(MPI_Comm graph, unsigned char* send, unsigned char* got, MPI_Count big, int seed) {
  const MPI_Count mine = world_rank == 0 ? big : 8, theirs = world_rank == 0 ? 8 : big;
  fill(send, mine, seed + world_rank);
  memset(got, 0, (size_t)theirs);
  const MPI_Aint at = 0;
  CHECK(MPI_Neighbor_alltoallv_c(send, &mine, &at, MPI_BYTE, got, &theirs, &at, MPI_BYTE, graph) == MPI_SUCCESS,
        "MPI_Neighbor_alltoallv_c");
  const MPI_Count wrong = first_difference(got, theirs, seed + 1 - world_rank);
  CHECK(wrong < 0, "MPI_Neighbor_alltoallv_c of %lld bytes: byte %lld wrong", (long long)theirs, (long long)wrong);
}

static void neighbours(unsigned char* send, unsigned char* got) {
  const int other = 1 - world_rank;
  for (int order = 0; order < 2; ++order) {  // 0: the large message first; 1: between small ones
    const int weight = 1;
    MPI_Comm graph;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &other, &weight, 1, &other, &weight, MPI_INFO_NULL, 0, &graph);
    const MPI_Count sizes[2][3] = {{kBig, 64, kBig}, {64, kBig, 64}};
    for (int call = 0; call < 3; ++call) exchange(graph, send, got, sizes[order][call], 20 + 4 * order + call);
    MPI_Comm_free(&graph);
  }
}

int main(int argc, char** argv) {
  const char* mode = begin_test(&argc, &argv);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2, "test_pmpi_large runs at 2 ranks (not %d)", size);
  unsigned char* a = malloc((size_t)kBig);
  unsigned char* b = malloc((size_t)kBig);
  CHECK(a && b, "no memory for two buffers of %lld bytes", (long long)kBig);
  int everywhere = a && b;  // every rank has its buffers, or none starts (no rank left waiting)
  PMPI_Allreduce(MPI_IN_PLACE, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (size == 2 && everywhere) {
    broadcasts(a);
    reductions((int*)a);
    neighbours(a, b);
  }
  free(a);
  free(b);
  return end_test("test_pmpi_large", mode);
}
