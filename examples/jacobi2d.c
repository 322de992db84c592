/* SPDX-License-Identifier: BSD-3-Clause */
/* Jacobi 2D through hympi's C API: the heat relaxation of the C++ jacobi2d
 * (apps/stencil.cpp), u <- u + (f - A u) / 4 with A the 5-point Laplacian, u = 1 on the
 * x = -1 face; same result, bit for bit.
 *   mpiexec -n 4 ./jacobi2d_c [nx ny iterations strategy]      (1024 1024 200 shm) */
#include <hympi.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                           \
  do {                                                        \
    if ((call) != HYMPI_SUCCESS) {                            \
      fprintf(stderr, "%s\n", hympi_last_error_message());    \
      MPI_Abort(MPI_COMM_WORLD, 1);                           \
    }                                                         \
  } while (0)

static uint64_t bits(double x) { uint64_t b; memcpy(&b, &x, sizeof b); return b; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int global[2] = {argc > 2 ? atoi(argv[1]) : 1024, argc > 2 ? atoi(argv[2]) : 1024};
  const int iterations = argc > 3 ? atoi(argv[3]) : 200;
  hympi_strategy strategy = HYMPI_STRATEGY_SHM;
  if (argc > 4) CHECK(hympi_strategy_from_name(argv[4], &strategy));

  hympi_context ctx;  hympi_grid grid;  hympi_block b;  hympi_pattern pattern;  hympi_halo halo;
  CHECK(hympi_context_create(MPI_COMM_WORLD, NULL, &ctx));
  CHECK(hympi_grid_create(ctx, 2, global, HYMPI_STENCIL_STAR5, 1, 0, 1, HYMPI_FLOAT64, &grid));
  CHECK(hympi_grid_block(grid, &b));
  CHECK(hympi_grid_pattern(grid, &pattern));
  CHECK(hympi_halo_create(pattern, strategy, 1, HYMPI_MODE_VECTORS, &halo));

  const int row = b.size[0] + 2;  /* one ghost layer each side */
  double* u = calloc((size_t)b.local_points, sizeof(double));
  double* next = calloc((size_t)b.local_points, sizeof(double));
  for (int j = 0; j < b.size[1] + 2; ++j)  /* the boundary value, never overwritten */
    if (b.begin[0] == 0) u[j * row] = next[j * row] = 1.0;

  double squares = 0;
  for (int it = 1; it <= iterations; ++it) {
    void* fields[1] = {u};
    CHECK(hympi_halo_update(halo, 1, fields));
    squares = 0;
    for (int j = 0; j < b.size[1]; ++j)
      for (int i = 0; i < b.size[0]; ++i) {
        const int at = (j + 1) * row + i + 1;
        double au = 4.0 * u[at];
        au += -1.0 * u[at - row];
        au += -1.0 * u[at - 1];
        au += -1.0 * u[at + 1];
        au += -1.0 * u[at + row];
        const double r = 0.0 - au;
        squares += r * r;
        next[at] = u[at] + 1.0 / 4.0 * r;
      }
    double* t = u;  u = next;  next = t;
  }
  double sum = 0, residual, checksum;
  for (int j = 0; j < b.size[1]; ++j)
    for (int i = 0; i < b.size[0]; ++i) sum += u[(j + 1) * row + i + 1];
  CHECK(hympi_allreduce(ctx, &squares, &residual, 1, HYMPI_FLOAT64, HYMPI_SUM));
  CHECK(hympi_allreduce(ctx, &sum, &checksum, 1, HYMPI_FLOAT64, HYMPI_SUM));
  residual = sqrt(residual);

  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf("jacobi2d (C): %d x %d, %d iterations, %s\nresidual %.12e\nchecksum %.15e\n"
           "bits residual %016llX checksum %016llX\n", global[0], global[1], iterations,
           hympi_strategy_name(strategy), residual, checksum, (unsigned long long)bits(residual),
           (unsigned long long)bits(checksum));
  free(u);  free(next);
  CHECK(hympi_halo_free(&halo));  CHECK(hympi_pattern_free(&pattern));
  CHECK(hympi_grid_free(&grid));  CHECK(hympi_context_free(&ctx));
  MPI_Finalize();
  return 0;
}
