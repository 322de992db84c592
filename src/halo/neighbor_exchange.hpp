// Ghost update by MPI's neighbourhood collective: a distributed graph of the pattern
// (MPI_Dist_graph_create_adjacent) and MPI_Ineighbor_alltoallv on packed buffers, or its
// persistent form MPI_Neighbor_alltoallv_init where the MPI library is MPI-4.
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

#include "core/wait.hpp"
#include "halo/exchange.hpp"

namespace hympi::halo {

std::unique_ptr<Exchange> make_neighbor_exchange(std::vector<PeerPlan> peers, MPI_Comm comm, int fields,
                                                 const core::WaitConfig& wait, int world_rank);

}  // namespace hympi::halo
