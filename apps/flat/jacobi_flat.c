/* SPDX-License-Identifier: BSD-3-Clause */
/* jacobi_flat: the stencil applications jacobi2d, jacobi3d and laplace19 (apps/stencil.hpp:
 * same problem, grid and result) as a flat MPI code writes them, with no hympi in its source or
 * on its link line. Built once, it runs as it is or with libhympi_pmpi preloaded: what the
 * library changes in an unmodified program is seen from outside (docs/pmpi.md).
 *
 *   mpiexec -n 4 jacobi_flat [--problem jacobi2d|jacobi3d|laplace19] [--grid N] [--iterations 200]
 *                            [--check-every 10] [--exchange neighbor|persistent|isend] [--verify]
 *   mpiexec -n 4 env LD_PRELOAD=libhympi_pmpi.so HYMPI_PMPI=all jacobi_flat ...
 *
 * Weighted Jacobi, u <- u + omega / diag * (f - A u) (the table `problems`): jacobi2d 5-point,
 * N x N, residual ||f - Au||_2; jacobi3d 7-point, N^3, max |change| (Hager & Wellein (2010),
 * 9.3); laplace19 19-point anisotropic Laplace -div(K grad u) = 1, N^3, omega 0.8 (MASHM, Jamroz
 * & Dennis (2016)): faces -1, edges the mixed derivatives of K = I + a (ones - I), a = 0.2, as
 * apps/stencil.cpp. The jacobi problems have u = 1 on the x = -1 face, 0 on the others;
 * laplace19 u = 0 on every face. The ranks form an MPI_Cart_create grid (MPI_Dims_create, not
 * periodic); per iteration:
 *  - ghost update: the faces packed into one buffer in MPI's Cartesian neighbour order (per
 *    dimension, below then above), exchanged by MPI_Neighbor_alltoallv (`neighbor`, the
 *    default), by a persistent MPI_Neighbor_alltoallv_init request started and waited on
 *    (`persistent`, MPI-4 and Open MPI 5), or by MPI_Irecv/MPI_Isend per face (`isend`, which
 *    the library leaves to MPI), then unpacked into the ghost layers. The star stencils read
 *    faces only: one exchange of every face. laplace19 reads edges too, which a Cartesian
 *    neighbourhood (faces only) carries in phases, as flat codes do: one exchange per
 *    dimension, whose faces include the ghost layers the earlier phases filled (so edge ghosts
 *    travel through a face neighbour): three calls per update, with three count layouts;
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

/* The three problems (apps/stencil.cpp's stencil_problem): reach 1 reads faces, 2 edges too. */
struct problem {
  const char* name;
  int dims, reach, grid;
  double omega, source, boundary; /* boundary: u on the x = -1 face (0 on the others) */
  int max_norm;                   /* convergence measure: max |change|, else ||f - Au||_2 */
};
static const struct problem problems[] = {{"jacobi2d", 2, 1, 1024, 1.0, 0.0, 1.0, 0},
                                          {"jacobi3d", 3, 1, 120, 1.0, 0.0, 1.0, 1},
                                          {"laplace19", 3, 2, 96, 0.8, 1.0, 0.0, 0}};
enum { PROBLEMS = sizeof problems / sizeof problems[0] };

/* What rank 0 parsed, broadcast to every rank as ints. */
struct options {
  int problem, grid, iterations, check_every, exchange, verify, bad;
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

/* The face of `b` normal to `d` at layer `layer` (-1 and size[d]: the ghost layers), in one
 * order both neighbours share, packed into or unpacked from `buf`: its owned points, and with
 * `wide` the ghost layers of the dimensions below d too (filled by the earlier phases).
 * Returns its number of points (with `buf` NULL, only that). */
static long face(const struct block* b, int d, int layer, int wide, double* u, double* buf, int pack) {
  int lo[3], hi[3];
  for (int e = 0; e < 3; ++e) {
    const int g = wide && e < d ? b->ghost[e] : 0;
    lo[e] = -g, hi[e] = b->size[e] + g;
  }
  lo[d] = layer, hi[d] = layer + 1;
  long n = 0;
  for (int k = lo[2]; k < hi[2]; ++k)
    for (int j = lo[1]; j < hi[1]; ++j)
      for (int i = lo[0]; i < hi[0]; ++i) {
        const long x = index_of(b, i, j, k);
        if (pack) buf[n] = u[x];
        else if (buf) u[x] = buf[n];
        ++n;
      }
  return n;
}

/* The ghost update's MPI side: per phase, counts in MPI's Cartesian neighbour order (zero for
 * the dimensions of other phases), buffers shared by the phases, which run one after another. */
struct halo {
  MPI_Comm cart;
  int exchange, phases, wide, neighbors[6]; /* per dimension below, above (MPI_PROC_NULL at the border) */
  int counts[3][6], displs[3][6];
  double *send, *recv;
  MPI_Request requests[3]; /* persistent, one per phase */
};

static int in_phase(const struct halo* h, int phase, int d) { return h->phases == 1 || d == phase; }

static void halo_init(struct halo* h, MPI_Comm cart, const struct block* b, const struct problem* pr, int exchange) {
  h->cart = cart, h->exchange = exchange;
  h->wide = pr->reach > 1, h->phases = h->wide ? b->dims : 1;
  int most = 1;
  for (int d = 0; d < b->dims; ++d) MPI_Cart_shift(cart, d, 1, &h->neighbors[2 * d], &h->neighbors[2 * d + 1]);
  for (int phase = 0; phase < h->phases; ++phase) {
    int total = 0;
    for (int j = 0; j < 2 * b->dims; ++j) {
      h->counts[phase][j] = in_phase(h, phase, j / 2) ? (int)face(b, j / 2, 0, h->wide, NULL, NULL, 0) : 0;
      h->displs[phase][j] = total;
      total += h->counts[phase][j];
    }
    most = total > most ? total : most;
  }
  h->send = malloc(sizeof(double) * (size_t)most);
  h->recv = malloc(sizeof(double) * (size_t)most);
  for (int phase = 0; phase < 3; ++phase) h->requests[phase] = MPI_REQUEST_NULL;
#ifdef HAVE_PERSISTENT
  if (exchange == PERSISTENT)
    for (int phase = 0; phase < h->phases; ++phase)
      MPI_Neighbor_alltoallv_init(h->send, h->counts[phase], h->displs[phase], MPI_DOUBLE, h->recv, h->counts[phase],
                                  h->displs[phase], MPI_DOUBLE, cart, MPI_INFO_NULL, &h->requests[phase]);
#endif
}

static void halo_free(struct halo* h) {
  for (int phase = 0; phase < h->phases; ++phase)
    if (h->requests[phase] != MPI_REQUEST_NULL) MPI_Request_free(&h->requests[phase]);
  free(h->send);
  free(h->recv);
}

static void exchange_phase(struct halo* h, int phase, int sides) {
  const int* counts = h->counts[phase];
  const int* displs = h->displs[phase];
  if (h->exchange == NEIGHBOR) {
    MPI_Neighbor_alltoallv(h->send, counts, displs, MPI_DOUBLE, h->recv, counts, displs, MPI_DOUBLE, h->cart);
  } else if (h->exchange == PERSISTENT) {
    MPI_Start(&h->requests[phase]);
    MPI_Wait(&h->requests[phase], MPI_STATUS_IGNORE);
  } else {
    MPI_Request requests[12];
    MPI_Status statuses[12]; /* not MPI_STATUSES_IGNORE: gcc 12 takes MPICH's for an empty array */
    int n = 0;
    for (int j = 0; j < sides; ++j) /* tag: the dimension (one neighbour per side and dimension) */
      if (counts[j])
        MPI_Irecv(h->recv + displs[j], counts[j], MPI_DOUBLE, h->neighbors[j], j / 2, h->cart, &requests[n++]);
    for (int j = 0; j < sides; ++j)
      if (counts[j])
        MPI_Isend(h->send + displs[j], counts[j], MPI_DOUBLE, h->neighbors[j], j / 2, h->cart, &requests[n++]);
    MPI_Waitall(n, requests, statuses);
  }
}

static void ghost_update(struct halo* h, const struct block* b, double* u) {
  for (int phase = 0; phase < h->phases; ++phase) {
    for (int d = 0; d < b->dims; ++d)
      if (in_phase(h, phase, d)) {
        face(b, d, 0, h->wide, u, h->send + h->displs[phase][2 * d], 1);
        face(b, d, b->size[d] - 1, h->wide, u, h->send + h->displs[phase][2 * d + 1], 1);
      }
    exchange_phase(h, phase, 2 * b->dims);
    for (int d = 0; d < b->dims; ++d) /* a border's ghost layer keeps its boundary values */
      if (in_phase(h, phase, d)) {
        if (h->neighbors[2 * d] != MPI_PROC_NULL) face(b, d, -1, h->wide, u, h->recv + h->displs[phase][2 * d], 0);
        if (h->neighbors[2 * d + 1] != MPI_PROC_NULL)
          face(b, d, b->size[d], h->wide, u, h->recv + h->displs[phase][2 * d + 1], 0);
      }
  }
}

/* The stencil's neighbour offsets (z, y, x from -1 to 1, apps/stencil.cpp's order and
 * coefficients) as local-index deltas and weights; returns how many. */
static int stencil_of(const struct block* b, const struct problem* pr, long delta[18], double weight[18]) {
  const double a = 0.2;
  int n = 0;
  for (int z = b->dims == 3 ? -1 : 0; z <= (b->dims == 3 ? 1 : 0); ++z)
    for (int y = -1; y <= 1; ++y)
      for (int x = -1; x <= 1; ++x) {
        const int nonzero = (x != 0) + (y != 0) + (z != 0);
        if (nonzero == 0 || nonzero > pr->reach) continue;
        delta[n] = index_of(b, x, y, z) - index_of(b, 0, 0, 0);
        weight[n++] = nonzero == 1 ? -1.0 : -(a / 2) * (x != 0 ? x : 1) * (y != 0 ? y : 1) * (z != 0 ? z : 1);
      }
  return n;
}

/* Seconds per phase on this rank; the residual and checksum after the last iteration. */
struct result {
  double loop, ghost, reduce, residual, checksum;
};

/* `iterations` sweeps of u into next (swapped after each); with `h`, ghost updates and
 * reductions over its communicator, without, a serial run. The final iterate ends in `u`. */
static struct result relax(const struct block* b, const struct options* o, double* u, double* next, struct halo* h) {
  const struct problem* pr = &problems[o->problem];
  const double diag = 2.0 * b->dims;
  long delta[18];
  double weight[18];
  const int terms = stencil_of(b, pr, delta, weight);
  const long points = points_of(b);
  for (long x = 0; x < points; ++x) u[x] = next[x] = 0.0;
  for (int k = -b->ghost[2]; k < b->size[2] + b->ghost[2]; ++k)
    for (int j = -b->ghost[1]; j < b->size[1] + b->ghost[1]; ++j)
      if (b->begin[0] == 0) u[index_of(b, -1, j, k)] = next[index_of(b, -1, j, k)] = pr->boundary;
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
          for (int s = 0; s < terms; ++s) au += weight[s] * u[at + delta[s]];
          const double residual = pr->source - au, updated = u[at] + pr->omega / diag * residual;
          squares += residual * residual;
          change = fmax(change, fabs(updated - u[at]));
          next[at] = updated;
        }
    if (it % o->check_every == 0 || it == o->iterations) {
      double measure = pr->max_norm ? change : squares;
      if (h) {
        const double start = MPI_Wtime();
        MPI_Allreduce(MPI_IN_PLACE, &measure, 1, MPI_DOUBLE, pr->max_norm ? MPI_MAX : MPI_SUM, h->cart);
        r.reduce += MPI_Wtime() - start;
      }
      r.residual = pr->max_norm ? measure : sqrt(measure);
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

/* Rank 0 reads the command line: defaults jacobi3d's (120^3); bad input sets `bad`. */
static struct options parse(int argc, char** argv) {
  struct options o = {1, 0, 200, 10, NEIGHBOR, 0, 0};
  for (int a = 1; a < argc && !o.bad; ++a) {
    const char* value = a + 1 < argc ? argv[a + 1] : "";
    if (!strcmp(argv[a], "--verify")) {
      o.verify = 1;
      continue;
    }
    int* field = !strcmp(argv[a], "--grid")          ? &o.grid
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
    } else if (!strcmp(argv[a], "--problem")) {
      o.problem = -1;
      for (int q = 0; q < PROBLEMS; ++q)
        if (!strcmp(value, problems[q].name)) o.problem = q;
      o.bad = o.problem < 0;
    } else {
      o.bad = 1;
    }
    if (o.bad) fprintf(stderr, "jacobi_flat: bad option '%s %s'\n", argv[a], value);
    ++a;
  }
#ifndef HAVE_PERSISTENT
  if (!o.bad && o.exchange == PERSISTENT) {
    fprintf(stderr, "jacobi_flat: --exchange persistent needs an MPI with MPI_Neighbor_alltoallv_init (MPI-4)\n");
    o.bad = 1;
  }
#endif
  if (o.bad)
    fprintf(stderr, "usage: jacobi_flat [--problem jacobi2d|jacobi3d|laplace19] [--grid N] [--iterations K] "
                    "[--check-every K] [--exchange neighbor|persistent|isend] [--verify]\n");
  else if (o.grid == 0)
    o.grid = problems[o.problem].grid;
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
  const int dims = o.bad ? 1 : problems[o.problem].dims;
  int p[3] = {0, 0, 1}, periods[3] = {0, 0, 0};
  if (!o.bad) {
    MPI_Dims_create(ranks, dims, p);
    for (int d = 0; d < dims; ++d)
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
  MPI_Cart_create(MPI_COMM_WORLD, dims, p, periods, 0, &cart);
  int c[3] = {0, 0, 0};
  MPI_Cart_coords(cart, rank, dims, c);
  struct block b = {dims, {0, 0, 0}, {1, 1, 1}, {1, 1, dims == 3}};
  for (int d = 0; d < dims; ++d) {  /* balanced: the first grid % p boxes one point larger */
    const int base = o.grid / p[d], extra = o.grid % p[d];
    b.begin[d] = c[d] * base + (c[d] < extra ? c[d] : extra);
    b.size[d] = base + (c[d] < extra);
  }
  double* u = malloc(sizeof(double) * (size_t)points_of(&b));
  double* next = malloc(sizeof(double) * (size_t)points_of(&b));
  struct halo h;
  halo_init(&h, cart, &b, &problems[o.problem], o.exchange);
  struct result r = relax(&b, &o, u, next, &h);
  halo_free(&h);
  double times[3] = {r.loop, r.ghost, r.reduce}, worst[3];
  MPI_Reduce(times, worst, 3, MPI_DOUBLE, MPI_MAX, 0, cart);
  if (rank == 0)
    printf("jacobi_flat %s %d^%d on %d ranks (%d x %d x %d), exchange %s: %d iterations, residual %.15e, "
           "checksum %.15e\ntime, max over ranks: loop %.6f s, ghost update %.6f s, reductions %.6f s\n",
           problems[o.problem].name, o.grid, dims, ranks, p[0], p[1], p[2], exchange_names[o.exchange], o.iterations, r.residual,
           r.checksum, worst[0], worst[1], worst[2]);
  const int ok = o.verify ? verify(cart, &b, &o, u, &r) : 1;
  MPI_Comm_free(&cart);
  free(u), free(next);
  MPI_Finalize();
  return ok ? 0 : 1;
}
