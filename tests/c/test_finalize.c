/* SPDX-License-Identifier: BSD-3-Clause */
/* C handles alive at MPI_Finalize: MPI_Finalize releases their objects, and freeing the
 * handles afterwards makes no MPI call (ctest fails on any MPI complaint about calls after
 * finalize, and on any "hympi:" message); any other call is refused then (HYMPI_ERR_USAGE).
 * argv[1] says what outlives MPI_Finalize (a node-shared array among them):
 *   after   every handle, freed after MPI_Finalize
 *   mixed   the halos and the grid freed before MPI_Finalize, the rest after
 *   never   every handle, never freed (the process just ends) */
#include <stdio.h>
#include <string.h>

#include "hympi.h"

static int g_failures = 0;

static void ok(int code, const char* what) {
  if (code == HYMPI_SUCCESS) return;
  ++g_failures;
  fprintf(stderr, "c-test finalize: %s returned %d: %s\n", what, code, hympi_last_error_message());
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* mode = argc > 1 ? argv[1] : "after";
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  hympi_context ctx = NULL;
  hympi_pattern pattern = NULL, grid_pattern = NULL;
  hympi_halo halo = NULL, direct = NULL, buffers = NULL;
  hympi_grid grid = NULL;
  hympi_node_shared table = NULL;
  ok(hympi_context_create(MPI_COMM_WORLD, NULL, &ctx), "hympi_context_create");
  int send = 0, recv = 1; /* pairs of ranks swap a point */
  hympi_neighbor_lists lists = {rank ^ 1, 1, &send, 1, &recv};
  ok(hympi_pattern_from_lists(ctx, 2, (rank ^ 1) < size, &lists, 1, HYMPI_FLOAT64, &pattern), "hympi_pattern_from_lists");
  ok(hympi_halo_create(pattern, HYMPI_STRATEGY_SHM, 1, HYMPI_MODE_VECTORS, &halo), "hympi_halo_create");
  ok(hympi_halo_create(pattern, HYMPI_STRATEGY_AGGREGATED, 1, HYMPI_MODE_BUFFERS, &buffers), "hympi_halo_create");
  const int global[2] = {8 * size, 8};
  ok(hympi_grid_create(ctx, 2, global, HYMPI_STENCIL_STAR5, 1, 0, 1, HYMPI_FLOAT64, &grid), "hympi_grid_create");
  ok(hympi_grid_pattern(grid, &grid_pattern), "hympi_grid_pattern");
  ok(hympi_halo_create(grid_pattern, HYMPI_STRATEGY_SHM_DIRECT, 1, HYMPI_MODE_VECTORS, &direct), "hympi_halo_create");
  ok(hympi_node_shared_create(ctx, 100, HYMPI_FLOAT64, &table), "hympi_node_shared_create");

  /* Use them once. */
  double v[2] = {1, 0}, x = 1, sum = 0;
  void* vectors[1] = {v};
  void* shared = NULL;
  ok(hympi_halo_update(halo, 1, vectors), "hympi_halo_update");
  ok(hympi_halo_shared_field(direct, 0, &shared), "hympi_halo_shared_field");
  vectors[0] = shared;
  ok(hympi_halo_update(direct, 1, vectors), "hympi_halo_update");
  ok(hympi_halo_acquire(buffers), "hympi_halo_acquire");
  ok(hympi_halo_begin_buffers(buffers), "hympi_halo_begin_buffers");
  ok(hympi_halo_end_buffers(buffers), "hympi_halo_end_buffers");
  ok(hympi_allreduce(ctx, &x, &sum, 1, HYMPI_FLOAT64, HYMPI_SUM), "hympi_allreduce");
  if (sum != size) ++g_failures;
  void* part = NULL;
  size_t first = 0, count = 0;
  ok(hympi_node_shared_begin_write(table, HYMPI_WRITERS_SLICES, &part, &first, &count), "hympi_node_shared_begin_write");
  for (size_t i = 0; i < count; ++i) ((double*)part)[i] = (double)(first + i);
  ok(hympi_node_shared_end_write(table, NULL), "hympi_node_shared_end_write");

  if (strcmp(mode, "mixed") == 0) {
    ok(hympi_halo_free(&direct), "hympi_halo_free");
    ok(hympi_halo_free(&buffers), "hympi_halo_free");
    ok(hympi_halo_free(&halo), "hympi_halo_free");
    ok(hympi_grid_free(&grid), "hympi_grid_free");
  }
  MPI_Finalize();
  /* Anything but a free is refused now, with no MPI call (the message is not printed: the
   * test fails on "hympi:" and "after MPI_Finalize" in its output). */
  if (hympi_allreduce(ctx, &x, &sum, 1, HYMPI_FLOAT64, HYMPI_SUM) != HYMPI_ERR_USAGE ||
      hympi_halo_update(halo, 1, vectors) != HYMPI_ERR_USAGE ||
      hympi_node_shared_begin_write(table, HYMPI_WRITERS_LEADER, &part, &first, &count) != HYMPI_ERR_USAGE ||
      strstr(hympi_last_error_message(), "called after MPI_Finalize") == NULL)
    ++g_failures;
  if (strcmp(mode, "never") != 0) {
    ok(hympi_node_shared_free(&table), "hympi_node_shared_free");
    ok(hympi_halo_free(&direct), "hympi_halo_free");
    ok(hympi_pattern_free(&grid_pattern), "hympi_pattern_free");
    ok(hympi_grid_free(&grid), "hympi_grid_free");
    ok(hympi_halo_free(&buffers), "hympi_halo_free");
    ok(hympi_halo_free(&halo), "hympi_halo_free");
    ok(hympi_pattern_free(&pattern), "hympi_pattern_free");
    ok(hympi_context_free(&ctx), "hympi_context_free");
    if (ctx || pattern || grid_pattern || halo || direct || buffers || grid || table) ++g_failures;
  }
  if (rank == 0 && g_failures == 0) printf("c-test finalize %s: handles released\n", mode);
  return g_failures == 0 ? 0 : 1;
}
