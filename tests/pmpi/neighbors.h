/* SPDX-License-Identifier: BSD-3-Clause */
/* The neighbourhood tests' communicators and data (test_pmpi_neighbor.c,
 * test_pmpi_persistent.c): a directed distributed graph (out-neighbours r+1, r+3 in that
 * order, in-neighbours r-1, r-3; with a self loop on rank 0 on request), 2-D Cartesian
 * grids (periodic in one dimension or not), the 27-point stencil's graph of a 3-D grid of
 * ranks (up to 26 neighbours: faces, edges, corners), MPI's neighbour order, a strided
 * type, and message counts and values that name their sender, receiver and call. */
#ifndef HYMPI_TESTS_PMPI_NEIGHBORS_H
#define HYMPI_TESTS_PMPI_NEIGHBORS_H

#include <mpi.h>

#include "box_graph.h"
#include "check.h"

enum { kMaxNeighbors = 26, kRoom = 1 << 14 };  // doubles per buffer

// What s sends d in call `it`: a count that grows every fourth call beyond the first
// call's (then it no longer fits hympi's slot and goes by MPI), and values naming all three.
static int count_of(int s, int d, int it) { return (s * 7 + d * 3 + it) % 5 + (it % 4 == 3 ? 300 : 0); }
static double value_of(int s, int d, int it, int k) { return ((s * 64.0 + d) * 64 + it % 64) * 1024 + k; }

static void neighbors(MPI_Comm comm, int* in, int* sources, int* out, int* destinations) {
  int kind, weighted;
  MPI_Topo_test(comm, &kind);
  if (kind == MPI_DIST_GRAPH) {
    MPI_Dist_graph_neighbors_count(comm, in, out, &weighted);
    int weights[2][kMaxNeighbors];  // 1 each (Open MPI's MPI_UNWEIGHTED trips gcc's bounds checks)
    MPI_Dist_graph_neighbors(comm, *in, sources, weights[0], *out, destinations, weights[1]);
    return;
  }
  int dims;
  MPI_Cartdim_get(comm, &dims);
  *in = *out = 0;
  for (int d = 0; d < dims; ++d) {
    int below, above;
    MPI_Cart_shift(comm, d, 1, &below, &above);
    sources[(*in)++] = destinations[(*out)++] = below;
    sources[(*in)++] = destinations[(*out)++] = above;
  }
}

// A type of one double whose extent is two: a non-contiguous element.
static MPI_Datatype strided(void) {
  static MPI_Datatype type = MPI_DATATYPE_NULL;
  if (type == MPI_DATATYPE_NULL) {
    MPI_Type_create_resized(MPI_DOUBLE, 0, 2 * sizeof(double), &type);
    MPI_Type_commit(&type);
  }
  return type;
}

static MPI_Comm graph(int self_loop) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int r = world_rank;
  int sources[3], destinations[3], in = 0, out = 0;
  const int steps[2] = {1, 3};
  for (int s = 0; s < 2; ++s) {
    const int to = (r + steps[s]) % size, from = (r - steps[s] % size + size) % size;
    if (to != r && (out == 0 || destinations[0] != to)) destinations[out++] = to;
    if (from != r && (in == 0 || sources[0] != from)) sources[in++] = from;
  }
  if (self_loop && r == 0) sources[in++] = destinations[out++] = 0;
  MPI_Comm comm;
  const int weights[3] = {1, 1, 1};
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, in, sources, weights, out, destinations, weights, MPI_INFO_NULL, 0,
                                 &comm);
  return comm;
}

static MPI_Comm grid(int periodic) {
  int size, dims[2] = {0, 0}, periods[2] = {periodic, 0};
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Comm comm;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &comm);
  return comm;
}

// The 27-point stencil's graph of a 3-D grid of ranks (bench/box_graph.h: up to 26 neighbours).
static MPI_Comm box(void) {
  int dims[3], degree;
  return box_graph(MPI_COMM_WORLD, dims, &degree);
}

#endif
