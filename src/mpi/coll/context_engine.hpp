// SPDX-License-Identifier: BSD-3-Clause
// What a Context runs on, and its sharing: the topology's communicators, the node's shared
// arena (the collectives' blocks and buffer, the Halos' regions), the Halos' tag ranges,
// the node collectives (NodeCollectives) and the leaders' MPI. Contexts on congruent
// communicators (the same group in the same order: the same communicator again,
// MPI_Comm_dup's) with equal Options share one engine, so a program that makes a Context
// per duplicate pays the set-up once.
//
// Invariants:
//  - A new Context joins an engine on every rank or on none: each rank proposes, in the
//    set-up's one allgather, the key of its newest live engine that is congruent with the
//    communicator, has equal Options and is not broken (-1 for none); it joins only when
//    every rank proposed the same key, else every rank makes a new engine.
//  - An engine's key is the same on every rank of its group and unique among the engines
//    a rank has made: the largest of the ranks' next-key counters at its making, which
//    each rank's counter then passes. So ranks proposing the same key name one engine.
//  - The Contexts of an engine run their collectives through the same channels, so their
//    calls come in the same order on every rank (as MPI requires of collectives on
//    different communicators); each Context's number (mod 256) travels in its calls'
//    descriptions: a rank in another Context's call is a mismatch on every rank.
//  - The node collectives (their blocks and buffer: the node's first window unless a Halo
//    made one) are made at the engine's first collective call, which is the same call on
//    every rank (the order above): a Context used for ghost updates only never holds
//    them. That making is a set-up of its own: it begins with the set-up
//    agreement (a rank in another set-up meanwhile is an error on every rank; a rank that
//    never comes, the watchdog's, as in any collective's wait) and ends with an error
//    check over all ranks: made on every rank, or on none (released where it was made)
//    and the same hympi::Error everywhere; the next call tries again.
//  - The engine goes with its last Context; the registry only refers to it. Process-wide,
//    used from the thread that makes hympi's MPI calls.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "hympi/options.hpp"
#include "hympi/topology.hpp"
#include "mpi/coll/leader_check.hpp"
#include "mpi/coll/leader_comm.hpp"
#include "mpi/coll/node_collectives.hpp"
#include "mpi/node/shared_arena.hpp"
#include "mpi/support/tag_ranges.hpp"

namespace hympi::mpi {

struct ContextEngine {
  ContextEngine(MPI_Comm comm, const Options& options, int64_t agreed_key);

  /// Collective over `comm`: `options` checked to agree between ranks (else hympi::Error
  /// on every rank), then the engine this communicator's Contexts share, made if needed.
  static std::shared_ptr<ContextEngine> join_or_make(MPI_Comm comm, const Options& options);

  /// The number of the next Context made on it: the same on every rank (mod 256).
  uint8_t number_next() { return contexts_++; }

  /// The node collectives, made at the first call (collective over the communicator).
  NodeCollectives& node_collectives();
  /// Refusing every call since a failure beside a counter barrier (core/coll/call_board.hpp).
  bool broken() const { return node && node->broken(); }

  const Options options;
  Topology topology;
  SharedArena arena;        // the node collectives' regions, and the Halos'
  TagRanges halo_tags;      // the Halos' messages (after the topology: freed before it)
  std::unique_ptr<NodeCollectives> node;  // null until node_collectives()
  LeaderComm leaders;
  LeaderCheck leader_check;
  const int64_t key;

 private:
  uint8_t contexts_ = 0;
};

}  // namespace hympi::mpi
