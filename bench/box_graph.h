/* SPDX-License-Identifier: BSD-3-Clause */
/* A 27-point stencil's neighbourhood as a distributed graph: the ranks of `comm` on a 3-D
 * grid (MPI_Dims_create's dimensions, not periodic), each rank's neighbours every rank that
 * shares a face, an edge or a corner with it (up to 26), in lexicographic order of offset,
 * the same list in and out. hympi-osu-probe times exchanges on it; the PMPI neighbourhood
 * tests check them (tests/pmpi/neighbors.h). Plain MPI, header only. */
#ifndef HYMPI_BENCH_BOX_GRAPH_H
#define HYMPI_BENCH_BOX_GRAPH_H

#include <mpi.h>

/* The graph; `dims` gets the grid, `degree` this rank's neighbour count. */
static MPI_Comm box_graph(MPI_Comm comm, int dims[3], int* degree) {
  int rank, size, peers[26], weights[26], n = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  dims[0] = dims[1] = dims[2] = 0;
  MPI_Dims_create(size, 3, dims);
  const int at[3] = {rank / (dims[1] * dims[2]), rank / dims[2] % dims[1], rank % dims[2]};
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz) {
        const int x = at[0] + dx, y = at[1] + dy, z = at[2] + dz;
        if ((dx || dy || dz) && x >= 0 && x < dims[0] && y >= 0 && y < dims[1] && z >= 0 && z < dims[2])
          weights[n] = 1, peers[n++] = (x * dims[1] + y) * dims[2] + z;
      }
  MPI_Comm graph;
  MPI_Dist_graph_create_adjacent(comm, n, peers, weights, n, peers, weights, MPI_INFO_NULL, 0, &graph);
  *degree = n;
  return graph;
}

#endif
