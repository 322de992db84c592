// SPDX-License-Identifier: BSD-3-Clause
// Ghost update by point-to-point MPI (Algorithm 5 of Quaranta & Maddegedara (2021)):
// persistent receives started first, then pack and persistent sends; end waits and
// unpacks. The `flat_mpi` strategy for every neighbour, and the internode part of the
// shared-memory strategies (option 2 of their Section 5.3).
#pragma once

#include <memory>
#include <vector>

#include "halo/exchange.hpp"

namespace hympi::halo {

std::unique_ptr<Exchange> make_mpi_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup);

}  // namespace hympi::halo
