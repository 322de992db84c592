/* SPDX-License-Identifier: BSD-3-Clause */
/* jacobi_flat: the jacobi2d and jacobi3d applications (apps/stencil.hpp: same problem, grid
 * and result) as a flat MPI code writes them, with no hympi in its source or on its link line.
 * Built once, it runs as it is or with libhympi_pmpi preloaded: what the library changes in
 * an unmodified program is seen from outside (docs/pmpi.md).
 *
 *   mpiexec -n 4 jacobi_flat [--dims 2|3] [--grid N] [--iterations 200] [--check-every 10]
 *                            [--exchange neighbor|persistent|isend] [--verify]
 *   mpiexec -n 4 env LD_PRELOAD=libhympi_pmpi.so HYMPI_PMPI=all jacobi_flat ...
 *
 * Weighted Jacobi, u <- u + omega / diag * (f - A u), 5-point (2-D, N x N, residual
 * ||f - Au||_2) or 7-point (3-D, N^3, max |change|: Hager & Wellein (2010), 9.3), u = 1 on
 * the x = -1 face, 0 on the others. The ranks form an MPI_Cart_create grid (MPI_Dims_create,
 * not periodic); per iteration:
 *  - ghost update: the faces packed into one buffer in MPI's Cartesian neighbour order (per
 *    dimension, below then above), exchanged by MPI_Neighbor_alltoallv (`neighbor`, the
 *    default), by a persistent MPI_Neighbor_alltoallv_init request started and waited on
 *    (`persistent`, MPI-4 and Open MPI 5), or by MPI_Irecv/MPI_Isend per face (`isend`, which
 *    the library leaves to MPI), then unpacked into the ghost layers;
 *  - every --check-every iterations, the residual by MPI_Allreduce.
 * The parameters reach the ranks by MPI_Bcast from rank 0, the timed loop starts after an
 * MPI_Barrier, the report's maxima come by MPI_Reduce.
 * --verify: rank 0 gathers the field (MPI_Gatherv) and runs the same relaxation serially;
 * Jacobi reads the previous iterate only, so the field must be identical bit for bit, and the
 * residual and checksum (sums in another order) equal within 1e-12 relative. Rank 0's verdict
 * reaches every rank (MPI_Bcast): exit code 1 on every rank if anything differs, 2 on bad input. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if MPI_VERSION >= 4 || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
#define HAVE_PERSISTENT 1
#endif

enum exchange { NEIGHBOR, PERSISTENT, ISEND };
static const char* const exchange_names[] = {"neighbor", "persistent", "isend"};

/* What rank 0 parsed, broadcast to every rank as ints. */
struct options {
  int dims, grid, iterations, check_every, exchange, verify, bad;
};

/* One rank's box of the grid: owned points [begin, begin + size) per dimension, one ghost
 * layer per side in the grid's dimensions (none along z in 2-D). */
struct block {
  int dims, begin[3], size[3], ghost[3];
};

static long index_of(const struct block* b, int i, int j, int k) {
  const long nx = b->size[0] + 2 * b->ghost[0], ny = b->size[1] + 2 * b->ghost[1];
  return (i + b->ghost[0]) + nx * ((j + b->ghost[1]) + ny * (long)(k + b->ghost[2]));
}

static long points_of(const struct block* b) {
  long n = 1;
  for (int d = 0; d < 3; ++d) n *= b->size[d] + 2 * b->ghost[d];
  return n;
}

/* The owned points of the face of `b` normal to `d` at layer `layer` (-1 and size[d]: the
 * ghost layers), in one order both neighbours share: packed into or unpacked from `buf`. */
static void face(const struct block* b, int d, int layer, double* u, double* buf, int pack) {
  const int e1 = (d + 1) % 3, e2 = (d + 2) % 3;
  long n = 0;
  for (int q = 0; q < b->size[e2]; ++q)
    for (int p = 0; p < b->size[e1]; ++p) {
      int at[3];
      at[d] = layer, at[e1] = p, at[e2] = q;
      const long x = index_of(b, at[0], at[1], at[2]);
      if (pack) buf[n++] = u[x];
      else u[x] = buf[n++];
    }
}

static int face_points(const struct block* b, int d) { return b->size[(d + 1) % 3] * b->size[(d + 2) % 3]; }

/* The ghost update's MPI side: buffers in neighbour order and how they are exchanged. */
struct halo {
  MPI_Comm cart;
  int exchange, neighbors[6];  /* per dimension below, above (MPI_PROC_NULL at the border) */
  int counts[6], displs[6];
  double *send, *recv;
  MPI_Request request;         /* persistent */
};

static void halo_init(struct halo* h, MPI_Comm cart, const struct block* b, int exchange) {
  h->cart = cart, h->exchange = exchange;
  int total = 0;
  for (int d = 0; d < b->dims; ++d) {
    MPI_Cart_shift(cart, d, 1, &h->neighbors[2 * d], &h->neighbors[2 * d + 1]);
    for (int s = 0; s < 2; ++s) {
      h->counts[2 * d + s] = face_points(b, d);
      h->displs[2 * d + s] = total;
      total += face_points(b, d);
    }
  }
  h->send = malloc(sizeof(double) * (size_t)(total + 1));
  h->recv = malloc(sizeof(double) * (size_t)(total + 1));
  h->request = MPI_REQUEST_NULL;
#ifdef HAVE_PERSISTENT
  if (exchange == PERSISTENT)
    MPI_Neighbor_alltoallv_init(h->send, h->counts, h->displs, MPI_DOUBLE, h->recv, h->counts, h->displs, MPI_DOUBLE,
                                cart, MPI_INFO_NULL, &h->request);
#endif
}

static void halo_free(struct halo* h) {
  if (h->request != MPI_REQUEST_NULL) MPI_Request_free(&h->request);
  free(h->send);
  free(h->recv);
}

static void ghost_update(struct halo* h, const struct block* b, double* u) {
  for (int d = 0; d < b->dims; ++d) {
    face(b, d, 0, u, h->send + h->displs[2 * d], 1);
    face(b, d, b->size[d] - 1, u, h->send + h->displs[2 * d + 1], 1);
  }
  if (h->exchange == NEIGHBOR) {
    MPI_Neighbor_alltoallv(h->send, h->counts, h->displs, MPI_DOUBLE, h->recv, h->counts, h->displs, MPI_DOUBLE,
                           h->cart);
  } else if (h->exchange == PERSISTENT) {
    MPI_Start(&h->request);
    MPI_Wait(&h->request, MPI_STATUS_IGNORE);
  } else {
    MPI_Request requests[12];
    MPI_Status statuses[12];  /* not MPI_STATUSES_IGNORE: gcc 12 takes MPICH's for an empty array */
    const int n = 2 * b->dims;
    for (int j = 0; j < n; ++j)  /* tag: the dimension (one neighbour per side and dimension) */
      MPI_Irecv(h->recv + h->displs[j], h->counts[j], MPI_DOUBLE, h->neighbors[j], j / 2, h->cart, &requests[j]);
    for (int j = 0; j < n; ++j)
      MPI_Isend(h->send + h->displs[j], h->counts[j], MPI_DOUBLE, h->neighbors[j], j / 2, h->cart, &requests[n + j]);
    MPI_Waitall(2 * n, requests, statuses);
  }
  for (int d = 0; d < b->dims; ++d) {  /* a border's ghost layer keeps its boundary values */
    if (h->neighbors[2 * d] != MPI_PROC_NULL) face(b, d, -1, u, h->recv + h->displs[2 * d], 0);
    if (h->neighbors[2 * d + 1] != MPI_PROC_NULL) face(b, d, b->size[d], u, h->recv + h->displs[2 * d + 1], 0);
  }
}

/* Seconds per phase on this rank; the residual and checksum after the last iteration. */
struct result {
  double loop, ghost, reduce, residual, checksum;
};

/* `iterations` sweeps of u into next (swapped after each); with `h`, ghost updates and
 * reductions over its communicator, without, a serial run. The final iterate ends in `u`. */
static struct result relax(const struct block* b, const struct options* o, double* u, double* next, struct halo* h) {
  const double diag = 2.0 * b->dims, omega = 1.0, source = 0.0;
  long delta[6];
  for (int d = 0; d < b->dims; ++d) {
    const int below[3] = {-(d == 0), -(d == 1), -(d == 2)};
    delta[2 * d] = index_of(b, below[0], below[1], below[2]) - index_of(b, 0, 0, 0);
    delta[2 * d + 1] = -delta[2 * d];
  }
  const long points = points_of(b);
  for (long x = 0; x < points; ++x) u[x] = next[x] = 0.0;
  for (int k = -b->ghost[2]; k < b->size[2] + b->ghost[2]; ++k)
    for (int j = -b->ghost[1]; j < b->size[1] + b->ghost[1]; ++j)
      if (b->begin[0] == 0) u[index_of(b, -1, j, k)] = next[index_of(b, -1, j, k)] = 1.0;
  const int max_norm = b->dims == 3;
  double* const first = u;
  struct result r = {0, 0, 0, 0, 0};
  if (h) MPI_Barrier(h->cart);
  r.loop = MPI_Wtime();
  for (int it = 1; it <= o->iterations; ++it) {
    if (h) {
      const double start = MPI_Wtime();
      ghost_update(h, b, u);
      r.ghost += MPI_Wtime() - start;
    }
    double squares = 0, change = 0;
    for (int k = 0; k < b->size[2]; ++k)
      for (int j = 0; j < b->size[1]; ++j)
        for (int i = 0; i < b->size[0]; ++i) {
          const long at = index_of(b, i, j, k);
          double au = diag * u[at];
          for (int s = 0; s < 2 * b->dims; ++s) au -= u[at + delta[s]];
          const double residual = source - au, updated = u[at] + omega / diag * residual;
          squares += residual * residual;
          change = fmax(change, fabs(updated - u[at]));
          next[at] = updated;
        }
    if (it % o->check_every == 0 || it == o->iterations) {
      double measure = max_norm ? change : squares;
      if (h) {
        const double start = MPI_Wtime();
        MPI_Allreduce(MPI_IN_PLACE, &measure, 1, MPI_DOUBLE, max_norm ? MPI_MAX : MPI_SUM, h->cart);
        r.reduce += MPI_Wtime() - start;
      }
      r.residual = max_norm ? measure : sqrt(measure);
    }
    double* t = u;
    u = next, next = t;
  }
  r.loop = MPI_Wtime() - r.loop;
  for (int k = 0; k < b->size[2]; ++k)
    for (int j = 0; j < b->size[1]; ++j)
      for (int i = 0; i < b->size[0]; ++i) r.checksum += u[index_of(b, i, j, k)];
  if (h) MPI_Allreduce(MPI_IN_PLACE, &r.checksum, 1, MPI_DOUBLE, MPI_SUM, h->cart);
  if (u != first) memcpy(first, u, sizeof(double) * (size_t)points);
  return r;
}

static int close_to(double a, double b) { return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b)); }

/* Rank 0 gathers every box and its owned values, relaxes the whole grid serially and
 * compares; its verdict (1: identical) reaches every rank. */
static int verify(MPI_Comm cart, const struct block* b, const struct options* o, const double* u,
                  const struct result* r) {
  int rank, ranks;
  MPI_Comm_rank(cart, &rank);
  MPI_Comm_size(cart, &ranks);
  const int box[6] = {b->begin[0], b->begin[1], b->begin[2], b->size[0], b->size[1], b->size[2]};
  const int owned = b->size[0] * b->size[1] * b->size[2];
  double* mine = malloc(sizeof(double) * (size_t)owned);
  int n = 0;
  for (int k = 0; k < b->size[2]; ++k)
    for (int j = 0; j < b->size[1]; ++j)
      for (int i = 0; i < b->size[0]; ++i) mine[n++] = u[index_of(b, i, j, k)];
  int *boxes = NULL, *counts = NULL, *displs = NULL;
  double* all = NULL;
  if (rank == 0) {
    boxes = malloc(sizeof(int) * 6 * (size_t)ranks);
    counts = malloc(sizeof(int) * (size_t)ranks);
    displs = malloc(sizeof(int) * (size_t)ranks);
  }
  MPI_Gather(box, 6, MPI_INT, boxes, 6, MPI_INT, 0, cart);
  int total = 0;
  if (rank == 0) {
    for (int q = 0; q < ranks; ++q) {
      counts[q] = boxes[6 * q + 3] * boxes[6 * q + 4] * boxes[6 * q + 5];
      displs[q] = total;
      total += counts[q];
    }
    all = malloc(sizeof(double) * (size_t)total);
  }
  MPI_Gatherv(mine, owned, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, cart);
  int ok = 1;
  if (rank == 0) {
    const struct block whole = {b->dims, {0, 0, 0}, {o->grid, o->grid, b->dims == 3 ? o->grid : 1}, {1, 1, b->dims == 3}};
    double* su = malloc(sizeof(double) * (size_t)points_of(&whole));
    double* snext = malloc(sizeof(double) * (size_t)points_of(&whole));
    const struct result serial = relax(&whole, o, su, snext, NULL);  /* the final iterate in su */
    long differ = 0;
    for (int q = 0; q < ranks; ++q) {
      const int* x = &boxes[6 * q];
      long at = displs[q];
      for (int k = 0; k < x[5]; ++k)
        for (int j = 0; j < x[4]; ++j)
          for (int i = 0; i < x[3]; ++i) differ += all[at++] != su[index_of(&whole, x[0] + i, x[1] + j, x[2] + k)];
    }
    ok = differ == 0 && close_to(r->residual, serial.residual) && close_to(r->checksum, serial.checksum);
    printf("verify: %ld of %d points differ from a serial run; residual %.15e (serial %.15e), checksum %.15e "
           "(serial %.15e): %s\n", differ, total, r->residual, serial.residual, r->checksum, serial.checksum,
           ok ? "identical" : "DIFFERENT");
    free(su), free(snext), free(boxes), free(counts), free(displs), free(all);
  }
  free(mine);
  MPI_Bcast(&ok, 1, MPI_INT, 0, cart);
  return ok;
}

/* Rank 0 reads the command line: defaults jacobi3d's (3-D, 120^3); bad input sets `bad`. */
static struct options parse(int argc, char** argv) {
  struct options o = {3, 0, 200, 10, NEIGHBOR, 0, 0};
  for (int a = 1; a < argc && !o.bad; ++a) {
    const char* value = a + 1 < argc ? argv[a + 1] : "";
    if (!strcmp(argv[a], "--verify")) {
      o.verify = 1;
      continue;
    }
    int* field = !strcmp(argv[a], "--dims")          ? &o.dims
                 : !strcmp(argv[a], "--grid")        ? &o.grid
                 : !strcmp(argv[a], "--iterations")  ? &o.iterations
                 : !strcmp(argv[a], "--check-every") ? &o.check_every
                                                     : NULL;
    if (field) {
      char* end;
      const long v = strtol(value, &end, 10);
      o.bad = *value == '\0' || *end != '\0' || v < 1 || v > 1000000;
      *field = (int)v;
    } else if (!strcmp(argv[a], "--exchange")) {
      o.exchange = -1;
      for (int e = 0; e < 3; ++e)
        if (!strcmp(value, exchange_names[e])) o.exchange = e;
      o.bad = o.exchange < 0;
    } else {
      o.bad = 1;
    }
    if (o.bad) fprintf(stderr, "jacobi_flat: bad option '%s %s'\n", argv[a], value);
    ++a;
  }
  if (!o.bad && o.dims != 2 && o.dims != 3) {
    fprintf(stderr, "jacobi_flat: --dims is 2 or 3\n");
    o.bad = 1;
  }
#ifndef HAVE_PERSISTENT
  if (!o.bad && o.exchange == PERSISTENT) {
    fprintf(stderr, "jacobi_flat: --exchange persistent needs an MPI with MPI_Neighbor_alltoallv_init (MPI-4)\n");
    o.bad = 1;
  }
#endif
  if (o.grid == 0) o.grid = o.dims == 3 ? 120 : 1024;
  if (o.bad)
    fprintf(stderr, "usage: jacobi_flat [--dims 2|3] [--grid N] [--iterations K] [--check-every K] "
                    "[--exchange neighbor|persistent|isend] [--verify]\n");
  return o;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  struct options o;
  if (rank == 0) o = parse(argc, argv);
  MPI_Bcast(&o, sizeof o / sizeof(int), MPI_INT, 0, MPI_COMM_WORLD);
  int p[3] = {0, 0, 1}, periods[3] = {0, 0, 0};
  if (!o.bad) {
    MPI_Dims_create(ranks, o.dims, p);
    for (int d = 0; d < o.dims; ++d)
      if (p[d] > o.grid) o.bad = 1;
    if (o.bad && rank == 0)
      fprintf(stderr, "jacobi_flat: a %d-point grid per dimension cannot be split over %d x %d x %d ranks: "
              "use a larger --grid or fewer ranks\n", o.grid, p[0], p[1], p[2]);
  }
  if (o.bad) {
    MPI_Finalize();
    return 2;
  }
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, o.dims, p, periods, 0, &cart);
  int c[3] = {0, 0, 0};
  MPI_Cart_coords(cart, rank, o.dims, c);
  struct block b = {o.dims, {0, 0, 0}, {1, 1, 1}, {1, 1, o.dims == 3}};
  for (int d = 0; d < o.dims; ++d) {  /* balanced: the first grid % p boxes one point larger */
    const int base = o.grid / p[d], extra = o.grid % p[d];
    b.begin[d] = c[d] * base + (c[d] < extra ? c[d] : extra);
    b.size[d] = base + (c[d] < extra);
  }
  double* u = malloc(sizeof(double) * (size_t)points_of(&b));
  double* next = malloc(sizeof(double) * (size_t)points_of(&b));
  struct halo h;
  halo_init(&h, cart, &b, o.exchange);
  struct result r = relax(&b, &o, u, next, &h);
  halo_free(&h);
  double times[3] = {r.loop, r.ghost, r.reduce}, worst[3];
  MPI_Reduce(times, worst, 3, MPI_DOUBLE, MPI_MAX, 0, cart);
  if (rank == 0)
    printf("jacobi_flat %d-D %d^%d on %d ranks (%d x %d x %d), exchange %s: %d iterations, residual %.15e, "
           "checksum %.15e\ntime, max over ranks: loop %.6f s, ghost update %.6f s, reductions %.6f s\n",
           o.dims, o.grid, o.dims, ranks, p[0], p[1], p[2], exchange_names[o.exchange], o.iterations, r.residual,
           r.checksum, worst[0], worst[1], worst[2]);
  const int ok = o.verify ? verify(cart, &b, &o, u, &r) : 1;
  MPI_Comm_free(&cart);
  free(u), free(next);
  MPI_Finalize();
  return ok ? 0 : 1;
}
