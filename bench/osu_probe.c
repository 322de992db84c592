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
 *   box, box_init  the same two on a 3-D grid of ranks (MPI_Dims_create, not periodic) whose
 *               neighbours are all ranks sharing a face, an edge or a corner (a 27-point
 *               stencil's ghost update: up to 26 neighbours; 2 ranks: 1, 8: 7, 16: 7-11),
 *               8 B and 1-64 KiB per neighbour
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

#include "box_graph.h"

static int rank, size;
enum { kMaxDegree = 26 };
static MPI_Comm ring = MPI_COMM_NULL; /* the ring as a distributed graph (2 ranks: one neighbour) */
static MPI_Comm box = MPI_COMM_NULL;  /* the 3-D grid's 27-point stencil as a distributed graph */
static MPI_Comm topology;             /* the graph of the neighbour rows being timed: ring or box */
static int counts[kMaxDegree], displs[kMaxDegree];
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

/* `bytes` to and from each neighbour of `topology`, in consecutive blocks. */
static void set_blocks(size_t bytes) {
  for (int i = 0; i < kMaxDegree; ++i) counts[i] = (int)bytes, displs[i] = i * (int)bytes;
}

static void neighbor(size_t bytes) {
  set_blocks(bytes);
  MPI_Neighbor_alltoallv(out, counts, displs, MPI_BYTE, in, counts, displs, MPI_BYTE, topology);
}

#if MPI_VERSION >= 4 || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
#define PERSISTENT_NEIGHBOR 1
static MPI_Request persistent = MPI_REQUEST_NULL;
static size_t persistent_bytes = 0;

static void neighbor_init(size_t bytes) {
  if (bytes != persistent_bytes) { /* the first call of a size: in the warm-up on every rank */
    if (persistent != MPI_REQUEST_NULL) MPI_Request_free(&persistent);
    set_blocks(bytes); /* the request keeps them: unchanged until the next size */
    MPI_Neighbor_alltoallv_init(out, counts, displs, MPI_BYTE, in, counts, displs, MPI_BYTE, topology, MPI_INFO_NULL,
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

/* The box graph; rank 0 prints the grid and the fewest and most neighbours of a rank. */
static void make_box(void) {
  int dims[3], n = 0;
  box = box_graph(MPI_COMM_WORLD, dims, &n);
  int fewest = 0, most = 0;
  MPI_Reduce(&n, &fewest, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&n, &most, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("# box: %d x %d x %d ranks, %d-%d neighbours per rank\n", dims[0], dims[1], dims[2], fewest, most);
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

/* The neighbour rows on one graph: blocking, then persistent where the MPI has it. */
static void run_neighbors(MPI_Comm graph, const char* blocking, const char* started, const size_t* sizes, size_t n) {
  topology = graph;
  for (size_t i = 0; i < n; ++i) run(blocking, neighbor, sizes[i]);
#ifdef PERSISTENT_NEIGHBOR
  for (size_t i = 0; i < n; ++i) run(started, neighbor_init, sizes[i]);
  MPI_Request_free(&persistent);
  persistent_bytes = 0;
#else
  (void)started;
#endif
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
    const size_t box_bytes[] = {8, 1024, 4096, 16384, 65536}; /* 26 x 64 KiB fit the 2 MiB buffers */
    make_ring();
    make_box();
    run_neighbors(ring, "neighbor", "neighbor_init", allreduce_bytes, sizeof allreduce_bytes / sizeof *allreduce_bytes - 1);
    run_neighbors(box, "box", "box_init", box_bytes, sizeof box_bytes / sizeof *box_bytes);
    MPI_Comm_free(&ring);
    MPI_Comm_free(&box);
  }
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
