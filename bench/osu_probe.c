/* SPDX-License-Identifier: BSD-3-Clause */
/* hympi-osu-probe: the MPI library's own operations timed the way the OSU micro-benchmarks
 * time them, in plain MPI (no hympi), as an independent check of hympi-bench's numbers for
 * the same operations (bench/scripts/osu_check.py runs both).
 *
 * OSU's method: `skip` warm-up calls, then `iterations` calls, each timed alone with
 * MPI_Wtime and followed by an untimed MPI_Barrier (collectives); the latency is the
 * rank's mean, reported as the average, min and max over ranks.
 *   barrier     MPI_Barrier
 *   allreduce   MPI_Allreduce of doubles (sum), 8 B - 1 MiB (8, 64, 128, 256, 512 B, 4, 32, 256 KiB, 1 MiB)
 *   bcast       MPI_Bcast of doubles from rank 0, 8 B - 1 MiB
 *   reduce      MPI_Reduce of doubles (sum) to rank 0, 8 B - 1 MiB
 *   exchange    ring neighbours: MPI_Irecv + MPI_Isend to each, MPI_Waitall (no packing),
 *               4 KiB - 256 KiB: the bare exchange under a flat-MPI ghost update
 *   neighbor    MPI_Neighbor_alltoallv of bytes to each ring neighbour, on a distributed
 *               graph of the ring, 8 B - 256 KiB per neighbour
 *   neighbor_init  the same exchange as an MPI-4 persistent request, made once per size
 *               (MPI_Neighbor_alltoallv_init, in the warm-up), each call MPI_Start +
 *               MPI_Wait (where the MPI has it: MPI-4, Open MPI 5)
 *
 * Like OSU's, it sends unchanged buffers (cache-resident data). Preloaded with
 * libhympi_pmpi it times the same calls through hympi (bench/scripts/pmpi_compare.py).
 *
 *   mpiexec -n 2 hympi-osu-probe [--iterations N]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;
static MPI_Comm ring = MPI_COMM_NULL; /* the ring as a distributed graph (2 ranks: one neighbour) */
static int small_iterations = 10000, large_iterations = 1000; /* OSU's defaults (> 8 KiB: large) */
static char *out, *in;

static void barrier(size_t bytes) {
  (void)bytes;
  MPI_Barrier(MPI_COMM_WORLD);
}

static void allreduce(size_t bytes) {
  MPI_Allreduce(out, in, (int)(bytes / sizeof(double)), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void bcast(size_t bytes) { MPI_Bcast(out, (int)(bytes / sizeof(double)), MPI_DOUBLE, 0, MPI_COMM_WORLD); }

static void reduce(size_t bytes) {
  MPI_Reduce(out, in, (int)(bytes / sizeof(double)), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
}

static void exchange(size_t bytes) {
  MPI_Request requests[4];
  MPI_Status statuses[4]; /* not MPI_STATUSES_IGNORE: gcc 12 misreads MPICH's access attributes */
  int peers[2] = {(rank + 1) % size, (rank + size - 1) % size}, n = size > 2 ? 2 : size - 1, count = 0;
  for (int i = 0; i < n; ++i)
    MPI_Irecv(in + (size_t)i * bytes, (int)bytes, MPI_BYTE, peers[i], 0, MPI_COMM_WORLD, &requests[count++]);
  for (int i = 0; i < n; ++i)
    MPI_Isend(out + (size_t)i * bytes, (int)bytes, MPI_BYTE, peers[i], 0, MPI_COMM_WORLD, &requests[count++]);
  MPI_Waitall(count, requests, statuses);
}

static void neighbor(size_t bytes) {
  int counts[2] = {(int)bytes, (int)bytes}, displs[2] = {0, (int)bytes};
  MPI_Neighbor_alltoallv(out, counts, displs, MPI_BYTE, in, counts, displs, MPI_BYTE, ring);
}

#if MPI_VERSION >= 4 || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
#define PERSISTENT_NEIGHBOR 1
static MPI_Request persistent = MPI_REQUEST_NULL;
static size_t persistent_bytes = 0;

static void neighbor_init(size_t bytes) {
  if (bytes != persistent_bytes) { /* the first call of a size: in the warm-up on every rank */
    if (persistent != MPI_REQUEST_NULL) MPI_Request_free(&persistent);
    static int counts[2], displs[2];
    counts[0] = counts[1] = displs[1] = (int)bytes;
    MPI_Neighbor_alltoallv_init(out, counts, displs, MPI_BYTE, in, counts, displs, MPI_BYTE, ring, MPI_INFO_NULL,
                                &persistent);
    persistent_bytes = bytes;
  }
  MPI_Start(&persistent);
  MPI_Wait(&persistent, MPI_STATUS_IGNORE);
}
#endif

static void make_ring(void) {
  int peers[2] = {(rank + 1) % size, (rank + size - 1) % size}, weights[2] = {1, 1};
  const int n = size > 2 ? 2 : size - 1;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, n, peers, weights, n, peers, weights,
                                 MPI_INFO_NULL, 0, &ring);
}

/* Times `op` OSU's way and prints one row (rank 0): the average, min and max over ranks
 * of each rank's mean latency. */
static void run(const char* name, void (*op)(size_t), size_t bytes) {
  const int large = bytes > 8192, iterations = large ? large_iterations : small_iterations, skip = large ? 10 : 200;
  double timer = 0;
  for (int i = 0; i < skip + iterations; ++i) {
    const double start = MPI_Wtime();
    op(bytes);
    if (i >= skip) timer += MPI_Wtime() - start;
    if (op != barrier) MPI_Barrier(MPI_COMM_WORLD);
  }
  double us = timer * 1e6 / iterations, min = 0, max = 0, sum = 0;
  MPI_Reduce(&us, &min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&us, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&us, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%-10s %10zu %17.3f %17.3f %17.3f %12d\n", name, bytes, sum / size, min, max, iterations);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc == 3 && strcmp(argv[1], "--iterations") == 0) small_iterations = large_iterations = atoi(argv[2]);
  if (argc != 1 && !(argc == 3 && small_iterations > 0)) {
    if (rank == 0) fprintf(stderr, "usage: hympi-osu-probe [--iterations N] (N > 0)\n");
    MPI_Finalize();
    return 2;
  }
  const size_t allreduce_bytes[] = {8, 64, 128, 256, 512, 4096, 32768, 262144, 1048576}, exchange_bytes[] = {4096, 65536, 262144};
  out = calloc(2 << 20, 1);
  in = calloc(2 << 20, 1);
  if (rank == 0)
    printf("# hympi-osu-probe: OSU's method, %d ranks\n# %-8s %10s %17s %17s %17s %12s\n", size, "Test", "Size",
           "Avg Latency(us)", "Min Latency(us)", "Max Latency(us)", "Iterations");
  run("barrier", barrier, 0);
  for (size_t i = 0; i < sizeof allreduce_bytes / sizeof *allreduce_bytes; ++i) {
    run("allreduce", allreduce, allreduce_bytes[i]);
    run("bcast", bcast, allreduce_bytes[i]);
    run("reduce", reduce, allreduce_bytes[i]);
  }
  for (size_t i = 0; i < sizeof exchange_bytes / sizeof *exchange_bytes && size > 1; ++i)
    run("exchange", exchange, exchange_bytes[i]);
  if (size > 1) {
    make_ring();
    for (size_t i = 0; i + 1 < sizeof allreduce_bytes / sizeof *allreduce_bytes; ++i)
      run("neighbor", neighbor, allreduce_bytes[i]);
#ifdef PERSISTENT_NEIGHBOR
    for (size_t i = 0; i + 1 < sizeof allreduce_bytes / sizeof *allreduce_bytes; ++i)
      run("neighbor_init", neighbor_init, allreduce_bytes[i]);
    MPI_Request_free(&persistent);
#endif
    MPI_Comm_free(&ring);
  }
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
