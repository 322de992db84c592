/* SPDX-License-Identifier: BSD-3-Clause */
/* hympi-pmpi-overhead: what an intercepting library adds to a call it hands to MPI. One
 * rank (MPI's own collectives on MPI_COMM_WORLD are then a few ns), `calls` back-to-back
 * calls of MPI_Allreduce (one double), MPI_Bcast (one double) and MPI_Barrier, timed as a
 * whole; the best of 5 repetitions, in ns per call. Run it as is and with libhympi_pmpi
 * preloaded (HYMPI_PMPI=none: every call falls through at once; HYMPI_PMPI_AFTER large:
 * every call is counted on its communicator first, as before a Context exists); the
 * differences are the library's cost per call.
 *
 *   mpiexec -n 1 hympi-pmpi-overhead [calls]   (default 2000000)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  const long calls = argc > 1 ? atol(argv[1]) : 2000000;
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (calls < 1 || size != 1) {
    fprintf(stderr, "usage: mpiexec -n 1 hympi-pmpi-overhead [calls > 0]\n");
    MPI_Finalize();
    return 2;
  }
  double x = 1, y = 0, best[3] = {1e30, 1e30, 1e30};
  for (int rep = 0; rep < 5; ++rep) {
    double t = MPI_Wtime();
    for (long i = 0; i < calls; ++i) MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    t = (MPI_Wtime() - t) / (double)calls * 1e9;
    best[0] = t < best[0] ? t : best[0];
    t = MPI_Wtime();
    for (long i = 0; i < calls; ++i) MPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    t = (MPI_Wtime() - t) / (double)calls * 1e9;
    best[1] = t < best[1] ? t : best[1];
    t = MPI_Wtime();
    for (long i = 0; i < calls; ++i) MPI_Barrier(MPI_COMM_WORLD);
    t = (MPI_Wtime() - t) / (double)calls * 1e9;
    best[2] = t < best[2] ? t : best[2];
  }
  printf("ns per call (best of 5 x %ld calls): allreduce %.1f bcast %.1f barrier %.1f\n", calls, best[0], best[1], best[2]);
  MPI_Finalize();
  return y == 1 ? 0 : 1; /* the allreduce of one rank's 1 */
}
