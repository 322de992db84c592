// SPDX-License-Identifier: BSD-3-Clause
// A communicator's hympi state, cached on it as an attribute: the intercepted calls it has
// made and, from the (HYMPI_PMPI_AFTER+1)-th on, its Context.
//
// Invariants:
//  - Every rank of a communicator counts the same calls (collectives are made in the same
//    order everywhere), so all of them make the Context at the same call, collectively.
//  - MPI_Comm_dup does not copy the state (MPI_COMM_NULL_COPY_FN): a duplicate starts at 0.
//  - MPI_Comm_free releases it (the attribute's delete callback, collective like the free);
//    a Context still alive at MPI_Finalize is released inside it by hympi.
//  - Intercommunicators and hympi's own communicators get a state that never has a Context.
//  - A communicator's neighbourhood exchange (neighbor.hpp) is released before its Context.
#pragma once

#include <mpi.h>

#include <memory>

#include "hympi/context.hpp"
#include "pmpi/paths.hpp"

namespace hympi::pmpi {

class NeighborExchange;
/// A communicator's neighbourhood calls: Path::hympi until found unservable (then why),
/// and the exchange made at the first served call.
struct NeighborSlot {
  Path blocked = Path::hympi;
  std::unique_ptr<NeighborExchange> exchange;
  NeighborSlot();
  ~NeighborSlot();
};

/// Counts this call on `comm` and returns where it goes: Path::hympi with `context` set,
/// or the reason it falls through (no valid communicator, intercommunicator, hympi's own,
/// warming up, set-up failed).
Path route(MPI_Comm comm, Context*& context);
/// The neighbourhood slot of `comm`, after route() gave Path::hympi for it.
NeighborSlot& neighbor_slot(MPI_Comm comm);

}  // namespace hympi::pmpi
