/* SPDX-License-Identifier: BSD-3-Clause */
/* The C API of map_ranks (include/hympi_mapping.h, library hympi_mapping): on given
 * traffic, the C++ result of a known case (tests/package's: two talking pairs placed
 * across two nodes come back paired); on a live pattern where each rank's heavy partner
 * is half the communicator away, a permutation that is the same on every rank and puts
 * the heavy pairs on one node; the reordered communicator gives each process its new
 * rank and carries messages; and the errors, on every rank (a permutation or fields that
 * differ between ranks, a NULL array on one rank) or on this rank alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "hympi_mapping.h"

static int g_rank, g_size;

static int partner(int r) { return (r + g_size / 2) % g_size; }

static void expect_everywhere(int code, int expected_code, const char* part, int line) {
  c_test_error(code, expected_code, part, __FILE__, line, "error on every rank");
  c_test_same_everywhere(hympi_last_error_message(), __FILE__, line);
}

/* Known case, no MPI: hympi::map_ranks gives 3 1 2 0 (tests/package/consumer/mapping.cpp's
 * traffic and placement; that program prints it). */
static void known_traffic(void) {
  const hympi_rank_message traffic[] = {{0, 2, 1000}, {2, 0, 1000}, {1, 3, 1000}, {3, 1, 1000}};
  const int node_of[] = {0, 0, 1, 1};
  int new_rank[4] = {-1, -1, -1, -1};
  CHECK_OK(hympi_map_ranks_traffic(4, node_of, NULL, 4, traffic, new_rank));
  CHECK(new_rank[0] == 3 && new_rank[1] == 1 && new_rank[2] == 2 && new_rank[3] == 0);
  /* Already paired on nodes: the identity. */
  const int paired[] = {0, 1, 0, 1};
  CHECK_OK(hympi_map_ranks_traffic(4, paired, NULL, 4, traffic, new_rank));
  CHECK(new_rank[0] == 0 && new_rank[1] == 1 && new_rank[2] == 2 && new_rank[3] == 3);
  CHECK_ERROR(hympi_map_ranks_traffic(4, node_of, NULL, 4, NULL, new_rank), HYMPI_ERR_ARGUMENT,
              "hympi_map_ranks_traffic: argument 'traffic' is NULL but has 4 element(s)");
  const hympi_rank_message outside = {0, 9, 10};
  CHECK_ERROR(hympi_map_ranks_traffic(4, node_of, NULL, 1, &outside, new_rank), HYMPI_ERR_USAGE, "hympi: ");
}

/* Each rank exchanges 512 points with its partner (both ways) and one with each ring
 * neighbour: local points 0..1025 owned, ghosts after them. */
static hympi_pattern heavy_pairs(hympi_context ctx) {
  int ranks[4], counts[4], n = 0;
  const int candidates[4] = {partner(g_rank), (g_rank - g_size / 2 + g_size) % g_size, (g_rank + 1) % g_size,
                             (g_rank + g_size - 1) % g_size};
  const int points[4] = {512, 512, 1, 1};
  for (int c = 0; c < 4; ++c) {
    if (candidates[c] == g_rank) continue;
    int found = -1;
    for (int i = 0; i < n; ++i)
      if (ranks[i] == candidates[c]) found = i;
    if (found < 0) {
      ranks[n] = candidates[c];
      counts[n++] = 0;
      found = n - 1;
    }
    counts[found] += points[c];
  }
  static int send[4][1100], recv[4][1100];
  hympi_neighbor_lists lists[4];
  int next_ghost = 1026;
  for (int i = 0; i < n; ++i) {
    for (int p = 0; p < counts[i]; ++p) {
      send[i][p] = p;
      recv[i][p] = next_ghost++;
    }
    lists[i] = (hympi_neighbor_lists){ranks[i], counts[i], send[i], counts[i], recv[i]};
  }
  hympi_pattern pattern = NULL;
  CHECK_OK(hympi_pattern_from_lists(ctx, next_ghost, n, lists, 1, HYMPI_FLOAT64, &pattern));
  return pattern;
}

static void live_pattern(hympi_context ctx, const hympi_topology_info* topo) {
  hympi_pattern pattern = heavy_pairs(ctx);
  int* new_rank = malloc(sizeof(int) * (size_t)g_size);
  int* seen = calloc((size_t)g_size, sizeof(int));
  int* node_of = malloc(sizeof(int) * (size_t)g_size);
  CHECK_OK(hympi_map_ranks(pattern, 1, g_size, new_rank));
  char text[1024] = "";
  for (int p = 0; p < g_size; ++p) {
    CHECK(new_rank[p] >= 0 && new_rank[p] < g_size && !seen[new_rank[p]]);
    if (new_rank[p] >= 0 && new_rank[p] < g_size) seen[new_rank[p]] = 1;
    snprintf(text + strlen(text), sizeof text - strlen(text), " %d", new_rank[p]);
  }
  CHECK_SAME_EVERYWHERE(text);
  if (g_rank == 0) printf("# c-test mapping: new ranks%s\n", text);
  /* The node each vertex (the work of old rank v) runs on afterwards: its heavy partner's. */
  MPI_Allgather(&topo->node_index, 1, MPI_INT, node_of, 1, MPI_INT, MPI_COMM_WORLD);
  int* node_after = malloc(sizeof(int) * (size_t)g_size);
  for (int p = 0; p < g_size; ++p)
    if (new_rank[p] >= 0 && new_rank[p] < g_size) node_after[new_rank[p]] = node_of[p];
  const int pairs_fit = topo->node_count > 1 && g_size % 2 == 0 && topo->node_size % 2 == 0;
  for (int v = 0; v < g_size && pairs_fit; ++v) CHECK(node_after[v] == node_after[partner(v)]);

  /* The reordered communicator: my new rank, and new rank v talks to new rank partner(v). */
  MPI_Comm comm = MPI_COMM_NULL;
  CHECK_OK(hympi_reordered_comm(MPI_COMM_WORLD, g_size, new_rank, &comm));
  int rank = -1;
  MPI_Comm_rank(comm, &rank);
  CHECK(rank == new_rank[g_rank]);
  int sent = 1000 + rank, got = -1;
  const int from = (rank - g_size / 2 + g_size) % g_size;
  MPI_Sendrecv(&sent, 1, MPI_INT, partner(rank), 0, &got, 1, MPI_INT, from, 0, comm, MPI_STATUS_IGNORE);
  CHECK(got == 1000 + from);
  MPI_Comm_free(&comm);
  MPI_Fint fcomm = 0;
  CHECK_OK(hympi_reordered_comm_f(MPI_Comm_c2f(MPI_COMM_WORLD), g_size, new_rank, &fcomm));
  comm = MPI_Comm_f2c(fcomm);
  MPI_Comm_rank(comm, &rank);
  CHECK(rank == new_rank[g_rank]);
  MPI_Comm_free(&comm);

  /* Errors on every rank: fields that differ, a NULL array or bad fields on the last rank. */
  const int last = g_rank == g_size - 1;
  if (g_size >= 2)
    expect_everywhere(hympi_map_ranks(pattern, last ? 2 : 1, g_size, new_rank), HYMPI_ERR_USAGE,
                      "hympi: map_ranks: ranks passed different fields", __LINE__);
  expect_everywhere(hympi_map_ranks(pattern, 1, g_size, last ? NULL : new_rank), HYMPI_ERR_ARGUMENT,
                    "hympi_map_ranks: argument 'new_rank' is NULL", __LINE__);
  expect_everywhere(hympi_map_ranks(pattern, last ? 0 : 1, g_size, new_rank), HYMPI_ERR_ARGUMENT,
                    "hympi_map_ranks: argument 'fields' is 0", __LINE__);
  char expected[100];
  snprintf(expected, sizeof expected, "hympi_map_ranks: argument 'count' is %d; valid: %d .. %d", g_size + 1, g_size,
           g_size);
  expect_everywhere(hympi_map_ranks(pattern, 1, last ? g_size + 1 : g_size, new_rank), HYMPI_ERR_ARGUMENT, expected,
                    __LINE__);
  CHECK_ERROR(hympi_map_ranks(NULL, 1, g_size, new_rank), HYMPI_ERR_ARGUMENT, "argument 'pattern' is NULL");
  free(node_after);
  free(node_of);
  free(seen);
  free(new_rank);
  CHECK_OK(hympi_pattern_free(&pattern));
}

static void reorder_errors(void) {
  int* mine = malloc(sizeof(int) * (size_t)g_size);
  for (int p = 0; p < g_size; ++p) mine[p] = p;
  MPI_Comm comm = MPI_COMM_WORLD;
  char expected[120];
  if (g_size >= 2) {
    if (g_rank == 0) mine[0] = 1, mine[1] = 0;
    expect_everywhere(hympi_reordered_comm(MPI_COMM_WORLD, g_size, mine, &comm), HYMPI_ERR_USAGE,
                      "hympi: reordered_comm: ranks passed different permutation (hash)", __LINE__);
    CHECK(comm == MPI_COMM_NULL);
    mine[0] = 0, mine[1] = 1;
  }
  mine[g_size - 1] = g_size; /* one rank too many */
  snprintf(expected, sizeof expected, "the new ranks are not a permutation of 0..%d", g_size - 1);
  expect_everywhere(hympi_reordered_comm(MPI_COMM_WORLD, g_size, mine, &comm), HYMPI_ERR_USAGE, expected, __LINE__);
  mine[g_size - 1] = g_size - 1;
  snprintf(expected, sizeof expected, "hympi: reordered_comm: %d new ranks for a communicator of %d ranks", g_size - 1,
           g_size);
  expect_everywhere(hympi_reordered_comm(MPI_COMM_WORLD, g_size - 1, mine, &comm), HYMPI_ERR_USAGE, expected, __LINE__);
  expect_everywhere(hympi_reordered_comm(MPI_COMM_WORLD, g_size, g_rank == g_size - 1 ? NULL : mine, &comm),
                    HYMPI_ERR_ARGUMENT, "hympi_reordered_comm: argument 'new_rank' is NULL", __LINE__);
  CHECK_ERROR(hympi_reordered_comm(MPI_COMM_NULL, g_size, mine, &comm), HYMPI_ERR_ARGUMENT, "'comm' is MPI_COMM_NULL");
  free(mine);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  hympi_context ctx = NULL;
  hympi_topology_info topo;
  CHECK_OK(hympi_context_create(MPI_COMM_WORLD, NULL, &ctx));
  CHECK_OK(hympi_context_topology(ctx, &topo));
  known_traffic();
  live_pattern(ctx, &topo);
  reorder_errors();
  CHECK_OK(hympi_context_free(&ctx));
  const int status = c_test_finish("mapping");
  MPI_Finalize();
  return status;
}
