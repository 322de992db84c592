/* SPDX-License-Identifier: BSD-3-Clause */
/* The C API's structured grids: 2D and 3D, every stencil, ghost widths 1 and 2, several
 * element types and chunks, with and without reordering. Blocks against the global grid
 * (they tile it), the Cartesian communicator against its block (C and Fortran handles),
 * and the ghost layers after many consecutive updates against a formula of the global
 * index: ghosts the stencil reads hold the owner's value, all others are never written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_test.h"

typedef struct {
  int ndims, global[3];
  hympi_stencil stencil;
  int width, reorder, chunk;
  hympi_datatype type;
  hympi_strategy strategy;
} Config;

/* The value of component c of global point (x, y, z) at update t. */
static int64_t value(int x, int y, int z, int c, long t) {
  return (((int64_t)z * 32 + y) * 32 + x) * 2 + c + 5 * (t % 64);
}

/* How many coordinates of a ghost may lie outside the block for the stencil to read it:
 * faces only (star5, star7), faces and edges (star19), everything (box9, box27). */
static int reach(hympi_stencil stencil) {
  return stencil == HYMPI_STENCIL_STAR5 || stencil == HYMPI_STENCIL_STAR7 ? 1 : stencil == HYMPI_STENCIL_STAR19 ? 2 : 3;
}

/* The blocks tile the global grid; the Cartesian communicator matches the block. */
static void check_block(const Config* g, hympi_grid grid, const hympi_block* b) {
  int processes = 1, local = 1;
  for (int d = 0; d < 3; ++d) {
    const int used = d < g->ndims;
    CHECK(b->global[d] == (used ? g->global[d] : 1));
    CHECK(b->halo[d] == (used ? g->width : 0));
    CHECK(b->coords[d] >= 0 && b->coords[d] < b->dims[d]);
    CHECK(b->size[d] >= (used ? g->width : 1) && b->begin[d] + b->size[d] <= b->global[d]);
    processes *= b->dims[d];
    local *= b->size[d] + 2 * b->halo[d];
  }
  CHECK(processes == c_test_size_of_world());
  CHECK(b->local_points == local && b->owned_points == b->size[0] * b->size[1] * b->size[2]);
  long long owned = b->owned_points;
  MPI_Allreduce(MPI_IN_PLACE, &owned, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  CHECK(owned == (long long)g->global[0] * g->global[1] * (g->ndims == 3 ? g->global[2] : 1));

  MPI_Comm cart = MPI_COMM_NULL;
  MPI_Fint cart_f = 0;
  CHECK_OK(hympi_grid_cart(grid, &cart));
  CHECK_OK(hympi_grid_cart_f(grid, &cart_f));
  int compared = -1;
  MPI_Comm_compare(MPI_Comm_f2c(cart_f), cart, &compared);
  CHECK(compared == MPI_IDENT);
  int dims[3], periods[3], coords[3];
  MPI_Cart_get(cart, g->ndims, dims, periods, coords);
  for (int d = 0; d < g->ndims; ++d) CHECK(dims[d] == b->dims[d] && coords[d] == b->coords[d] && periods[d] == 0);
}

/* Local id of (i, j, k) as hympi.h documents it. */
static int local_id(const hympi_block* b, int i, int j, int k) {
  return (i + b->halo[0]) + (b->size[0] + 2 * b->halo[0]) * ((j + b->halo[1]) + (b->size[1] + 2 * b->halo[1]) * (k + b->halo[2]));
}

/* Owned points get their values at update t, every other point -1. */
static void fill(const Config* g, const hympi_block* b, void* v, long t) {
  for (int p = 0; p < b->local_points * g->chunk; ++p) c_test_put(v, g->type, (size_t)p, -1);
  for (int k = 0; k < b->size[2]; ++k)
    for (int j = 0; j < b->size[1]; ++j)
      for (int i = 0; i < b->size[0]; ++i)
        for (int c = 0; c < g->chunk; ++c)
          c_test_put(v, g->type, (size_t)(local_id(b, i, j, k) * g->chunk + c),
                     value(b->begin[0] + i, b->begin[1] + j, b->begin[2] + k, c, t));
}

/* Every point after update t: owned and read ghosts hold the formula, the rest -1. */
static int exact(const Config* g, const hympi_block* b, const void* v, long t) {
  for (int k = -b->halo[2]; k < b->size[2] + b->halo[2]; ++k)
    for (int j = -b->halo[1]; j < b->size[1] + b->halo[1]; ++j)
      for (int i = -b->halo[0]; i < b->size[0] + b->halo[0]; ++i) {
        const int x = b->begin[0] + i, y = b->begin[1] + j, z = b->begin[2] + k;
        const int inside = x >= 0 && x < b->global[0] && y >= 0 && y < b->global[1] && z >= 0 && z < b->global[2];
        const int out = (i < 0 || i >= b->size[0]) + (j < 0 || j >= b->size[1]) + (k < 0 || k >= b->size[2]);
        for (int c = 0; c < g->chunk; ++c) {
          const int64_t expected = inside && out <= reach(g->stencil) ? value(x, y, z, c, t) : -1;
          if (c_test_get(v, g->type, (size_t)(local_id(b, i, j, k) * g->chunk + c)) != expected) return 0;
        }
      }
  return 1;
}

static void check_grid(hympi_context ctx, const Config* g, long updates) {
  hympi_grid grid = NULL;
  CHECK_OK(hympi_grid_create(ctx, g->ndims, g->global, g->stencil, g->width, g->reorder, g->chunk, g->type, &grid));
  if (!grid) return;
  hympi_block b;
  CHECK_OK(hympi_grid_block(grid, &b));
  check_block(g, grid, &b);

  hympi_pattern pattern = NULL;
  CHECK_OK(hympi_grid_pattern(grid, &pattern));
  int points = -1, chunk = -1, neighbors = -1;
  hympi_datatype type = HYMPI_FLOAT64;
  CHECK_OK(hympi_pattern_info(pattern, &points, &chunk, &type, &neighbors));
  CHECK(points == b.local_points && chunk == g->chunk && type == g->type);
  hympi_halo halo = NULL;
  CHECK_OK(hympi_halo_create(pattern, g->strategy, 1, HYMPI_MODE_VECTORS, &halo));
  CHECK_OK(hympi_pattern_free(&pattern)); /* the halo keeps what it needs */
  void* v = NULL;
  if (g->strategy == HYMPI_STRATEGY_SHM_DIRECT)
    CHECK_OK(hympi_halo_shared_field(halo, 0, &v));
  else
    v = malloc((size_t)(b.local_points * g->chunk) * c_test_size(g->type));
  for (long t = 0; t < updates && v; ++t) {
    fill(g, &b, v, t);
    CHECK_OK(hympi_halo_update(halo, 1, &v));
    if (!exact(g, &b, v, t)) {
      char detail[160];
      snprintf(detail, sizeof detail, "%dD %s width %d, %s, update %ld", g->ndims, hympi_stencil_name(g->stencil),
               g->width, hympi_strategy_name(g->strategy), t);
      c_test_fail(__FILE__, __LINE__, "ghost layers hold the owners' values", detail);
      break;
    }
  }
  if (g->strategy != HYMPI_STRATEGY_SHM_DIRECT) free(v);
  CHECK_OK(hympi_halo_free(&halo));
  CHECK_OK(hympi_grid_free(&grid));
  CHECK(grid == NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  hympi_context ctx = NULL;
  CHECK_OK(hympi_context_create(MPI_COMM_WORLD, NULL, &ctx));
  const long updates = c_test_env("HYMPI_TEST_ITERATIONS", 100);
  static const Config configs[] = {
      {2, {13, 11, 0}, HYMPI_STENCIL_STAR5, 1, 0, 1, HYMPI_FLOAT64, HYMPI_STRATEGY_SHM},
      {2, {10, 9, 0}, HYMPI_STENCIL_BOX9, 2, 1, 2, HYMPI_INT32, HYMPI_STRATEGY_FLAT_MPI},
      {3, {7, 6, 5}, HYMPI_STENCIL_STAR7, 1, 0, 1, HYMPI_FLOAT32, HYMPI_STRATEGY_AGGREGATED},
      {3, {6, 7, 5}, HYMPI_STENCIL_STAR19, 1, 0, 1, HYMPI_FLOAT64, HYMPI_STRATEGY_SHM_DIRECT},
      {3, {5, 5, 6}, HYMPI_STENCIL_BOX27, 1, 1, 3, HYMPI_INT64, HYMPI_STRATEGY_NEIGHBOR},
      {3, {8, 6, 6}, HYMPI_STENCIL_STAR19, 2, 0, 1, HYMPI_FLOAT64, HYMPI_STRATEGY_AGGREGATED_ODM},
  };
  for (size_t i = 0; i < sizeof configs / sizeof configs[0]; ++i) check_grid(ctx, &configs[i], updates);
  CHECK_OK(hympi_context_free(&ctx));
  const int status = c_test_finish("grid");
  MPI_Finalize();
  return status;
}
