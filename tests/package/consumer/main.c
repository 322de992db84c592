/* SPDX-License-Identifier: BSD-3-Clause */
/* The C API from an installed hympi: built with find_package(hympi) (CMakeLists.txt) and
 * with the MPI C compiler and pkg-config (check_package.cmake). */
#include <hympi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  hympi_context ctx = NULL;
  hympi_topology_info info;
  int32_t local = 0, total = 0;
  if (hympi_context_create(MPI_COMM_WORLD, NULL, &ctx) != HYMPI_SUCCESS || hympi_context_topology(ctx, &info) ||
      (local = info.world_rank + 1, hympi_allreduce(ctx, &local, &total, 1, HYMPI_INT32, HYMPI_SUM))) {
    fprintf(stderr, "consumer-c: %s\n", hympi_last_error_message());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (info.world_rank == 0) printf("consumer-c: %d ranks, allreduce %d", info.world_size, (int)total);
  hympi_context_free(&ctx);
  MPI_Finalize();
  return 0;
}
