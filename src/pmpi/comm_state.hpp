// SPDX-License-Identifier: BSD-3-Clause
// A communicator's hympi state, cached on it as an attribute: how many of its calls hympi
// could serve (those whose arguments pass: interpose.cpp's first_path), its Context from
// the (HYMPI_PMPI_AFTER+1)-th such call on (at once at a persistent neighbourhood
// request's init), and its neighbourhood calls' exchanges (NeighborSlot).
//
// Invariants:
//  - Every rank of a communicator counts the same calls (collectives are made in the same
//    order everywhere), so all of them make the Context at the same call, collectively.
//  - MPI_Comm_dup does not copy the state (MPI_COMM_NULL_COPY_FN): a duplicate starts at 0.
//  - MPI_Comm_free never waits for another rank (the attribute's delete callback is local,
//    as MPI's free is): a state whose release makes no collective call (no Context, or one
//    sharing its engine with another Context or already released by MPI_Finalize, and no
//    neighbourhood exchange, blocking or persistent) is released there; any other is
//    detached whole, its engine joined meanwhile by a Context on a congruent communicator
//    (a program that makes and frees thousands of duplicates holds one). A state kept for
//    its engine alone is released at the first blocking communicator creation on a
//    communicator that holds all the engine's ranks once each of them keeps it
//    (release_agreed); every other at MPI_Finalize. Both go by engine, newest first,
//    before the objects still alive at MPI_Finalize (which freed Context is kept differs
//    between ranks, so the order they were made in would not match). Persistent requests
//    of a freed communicator keep working, as MPI's do.
//  - Intercommunicators and hympi's own communicators get a state that never has a Context.
//  - A communicator's neighbourhood exchange (neighbor.hpp) is released before its Context.
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

#include "hympi/context.hpp"
#include "pmpi/paths.hpp"

namespace hympi::pmpi {

class NeighborExchange;
class PersistentNeighbor;
/// A communicator's neighbourhood calls: Path::hympi until found unservable (then why),
/// the exchange made at the first served blocking call, the persistent requests' (in the
/// order made: the same on every rank), and the side communicator they share.
struct NeighborSlot {
  Path blocked = Path::hympi;
  std::unique_ptr<NeighborExchange> exchange;
  std::vector<std::unique_ptr<PersistentNeighbor>> persistent;
  NeighborSlot();
  ~NeighborSlot();  // collective: the exchanges, then the side communicator
  NeighborSlot(const NeighborSlot&) = delete;
  NeighborSlot& operator=(const NeighborSlot&) = delete;
  /// Collective at the communicator's first exchange (a duplicate of comm); then local.
  MPI_Comm side(MPI_Comm comm);
  /// MPI_Comm_free of the communicator: its requests' errors go to the side communicator.
  void communicator_freed();
  /// The tag of the next exchange made (the same on every rank: exchanges are made collectively).
  int next_tag() { return tags_++ % 32768; }  // MPI_TAG_UB is at least 32767

 private:
  MPI_Comm side_ = MPI_COMM_NULL;
  int tags_ = 0;
};

/// Counts this call on `comm` and returns where it goes: Path::hympi with `context` set,
/// or the reason it falls through (no valid communicator, intercommunicator, hympi's own,
/// warming up, set-up failed). `now`: no warming up (a persistent request's init, which
/// promises many calls).
Path route(MPI_Comm comm, Context*& context, bool now = false);
/// The neighbourhood slot of `comm`, after route() gave Path::hympi for it.
NeighborSlot& neighbor_slot(MPI_Comm comm);
/// Collective over `parent`, an intracommunicator (from a blocking communicator creation
/// on it: communicators.cpp): releases the states MPI_Comm_free kept for an engine whose
/// ranks are all in `parent` and all keep it; one MPI_Allreduce when no rank keeps one.
void release_agreed(MPI_Comm parent);
/// Collective over every rank (from MPI_Finalize, before PMPI_Finalize): releases the
/// states MPI_Comm_free kept.
void release_detached();

}  // namespace hympi::pmpi
