// SPDX-License-Identifier: BSD-3-Clause
// Ghost update by MPI's neighbourhood collective: a distributed graph of the pattern
// (MPI_Dist_graph_create_adjacent) and MPI_Ineighbor_alltoallv on packed buffers, or its
// persistent form MPI_Neighbor_alltoallv_init where the MPI library is MPI-4.
#pragma once

#include <memory>
#include <vector>

#include "halo/exchange.hpp"

namespace hympi::halo {

std::unique_ptr<Exchange> make_neighbor_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup);

}  // namespace hympi::halo
