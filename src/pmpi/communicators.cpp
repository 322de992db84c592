// SPDX-License-Identifier: BSD-3-Clause
// libhympi_pmpi: MPI's blocking communicator creations (MPI_Comm_dup, MPI_Comm_split, ...,
// the topologies' MPI_Cart_create, ...). Each is collective over its parent communicator,
// so it is where the Contexts that MPI_Comm_free kept (comm_state.hpp: their release is
// collective) are released before MPI_Finalize: those whose engine's ranks are all in the
// parent and all keep it (release_agreed), then the creation is MPI's. Before, a program
// that freed communicators of many groups held their shared memory and communicators
// until MPI_Finalize, the latter's ids on some ranks only (where Open MPI 4.1's overlapped
// MPI_Comm_idup can give one duplicate different ids on different ranks:
// open-mpi/ompi#2025).
//
// Invariants:
//  - Every rank of the parent makes the call, so every rank makes the agreement or none:
//    it depends on the settings and process_path (agreed between ranks), not on what a
//    rank keeps. Inside hympi (its own communicators), on MPI_COMM_NULL and on an
//    intercommunicator (whose two groups call it) nothing is agreed.
//  - The nonblocking forms (MPI_Comm_idup) release nothing: the agreement blocks.
//  - What the agreement costs a creation where no rank keeps a Context: one MPI_Allreduce
//    of one int over the parent (docs/pmpi.md, "Communicators").
#include <mpi.h>

#include <algorithm>

#include "pmpi/comm_state.hpp"
#include "pmpi/inside.hpp"
#include "pmpi/settings.hpp"

namespace hympi::pmpi {
namespace {

// Releases what every rank can agree on over `parent`, then makes the creation `mpi`.
template <class... Arguments>
int creation(int (*mpi)(MPI_Comm, Arguments...), MPI_Comm parent, Arguments... arguments) {
  if (!Inside::now() && parent != MPI_COMM_NULL && process_path() == Path::hympi &&
      std::ranges::any_of(settings().intercepted, [](bool on) { return on; })) {
    int inter = 1;
    if (PMPI_Comm_test_inter(parent, &inter) == MPI_SUCCESS && !inter) release_agreed(parent);
  }
  return mpi(parent, arguments...);
}

}  // namespace
}  // namespace hympi::pmpi

using hympi::pmpi::creation;

extern "C" {

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) { return creation(PMPI_Comm_dup, comm, newcomm); }

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  return creation(PMPI_Comm_dup_with_info, comm, info, newcomm);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return creation(PMPI_Comm_split, comm, color, key, newcomm);
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  return creation(PMPI_Comm_split_type, comm, split_type, key, info, newcomm);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  return creation(PMPI_Comm_create, comm, group, newcomm);
}

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm* comm_cart) {
  return creation(PMPI_Cart_create, comm_old, ndims, dims, periods, reorder, comm_cart);
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  return creation(PMPI_Cart_sub, comm, remain_dims, newcomm);
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                     MPI_Comm* comm_graph) {
  return creation(PMPI_Graph_create, comm_old, nnodes, index, edges, reorder, comm_graph);
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info info, int reorder,
                          MPI_Comm* comm_dist_graph) {
  return creation(PMPI_Dist_graph_create, comm_old, n, sources, degrees, destinations, weights, info, reorder,
                  comm_dist_graph);
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* comm_dist_graph) {
  return creation(PMPI_Dist_graph_create_adjacent, comm_old, indegree, sources, sourceweights, outdegree,
                  destinations, destweights, info, reorder, comm_dist_graph);
}

}  // extern "C"
