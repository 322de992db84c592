// SPDX-License-Identifier: BSD-3-Clause
// A Halo's refusals: how a rank that cannot take part in a ghost update (its arrays failed
// the checks, or a binding's own checks) ends, with an error, the waits of every rank that
// would otherwise wait for it until the watchdog.
//
// The refusing rank takes no part in the update: it sends and receives nothing. Instead it
// posts the refusal (post()), and every wait inside the Halo's parts checks for one where it
// reads the clock (core::WaitInterrupt: never on the fast path, so an update that nobody
// refuses pays nothing). A rank that finds one throws Refused; the Halo is then broken on
// that rank (halo.cpp), as on the refusing rank.
//
// Invariants:
//  - A node posts at most once: the first rank of the node to post claims the node's record
//    (kFree -> kClaimed: core/halo/claimed_record.hpp), writes the message, then publishes
//    it (kPosted, release); every rank of the node reads it (acquire) in its waits. A rank
//    that finds kClaimed finds it posted at a later check.
//  - The claiming rank also sends the message (the Halo's refusal tag) to every rank
//    on another node that any rank of its node exchanges ghosts with (the node's internode
//    neighbours, gathered at set-up), and only to those: every rank that waits for a rank
//    of this node, directly or through an aggregated node-pair message, is one of them.
//  - A rank that learns of a refusal from such a message posts it on its own node in turn,
//    so a chain of waits through several nodes unwinds node by node.
//  - Ranks that wait for nobody in the refused update finish it normally (their data is
//    right); a rank of a node with a posted refusal stops at its next begin, any other at
//    its next wait on a rank that has thrown (a rank d neighbours away: within d updates).
//  - A strategy whose node ranks meet in node-wide blocking MPI calls (rma_fence's
//    MPI_Win_fence, a NodeSync) cannot be left half way: the record also holds `stop`, the
//    number of such calls every rank of the node makes before it throws (the poster's next
//    one). The poster, and every rank that learns of the refusal, joins the calls it has not
//    made up to `stop` without data, and every rank checks the record after each call. As
//    each call is a barrier of the node, a rank that finds the record between calls n and
//    n+1 finds stop = n+1 (a record posted before call n is found by the check after it), so
//    every rank of the node makes the same number of calls. Other strategies: stop = 0.
//  - Messages nobody receives are left to MPI (small, so sent eagerly); a send not complete
//    when the Halo is freed is freed unfinished and its text leaked, as MPI may still read it.
//    When any rank posted or found a refusal, every rank gives the Halo's tag range back
//    dirty when the Halo is freed (halo_parts.cpp: they learn it in the free's allreduce):
//    it is never used again, and its communicator outlives the Context
//    (mpi/support/tag_ranges.hpp), so no later message can match one that waits there.
#pragma once

#include "core/halo/claimed_record.hpp"

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "core/wait.hpp"
#include "halo/pattern_data.hpp"
#include "hympi/topology.hpp"
#include "hympi/types.hpp"
#include "mpi/node/shared_arena.hpp"

namespace hympi::halo {

/// What a rank throws when a refusal ends its wait.
class Refused : public Error {
 public:
  using Error::Error;
};

/// Collective on the node: the world ranks on other nodes that any rank of this node
/// exchanges ghosts with (the ranks a refusal of this node is sent to). Once per Halo.
std::vector<int> node_internode_neighbors(const Pattern::Data& pattern, const Topology& topology);

/// A part whose node ranks meet in node-wide blocking MPI calls (see above).
class NodeSync {
 public:
  /// One such call, without data, for a rank that stops.
  virtual void join() = 0;

 protected:
  ~NodeSync() = default;
};

class Refusals final : public core::WaitInterrupt {
 public:
  /// Collective on the node (the record). `told`: node_internode_neighbors.
  /// `tag`: the refusals' (ExchangeSetup::tag + Tag::refusal).
  Refusals(const Pattern::Data& pattern, std::vector<int> told, MPI_Comm comm, int tag, mpi::ArenaLease& arena);
  ~Refusals();
  Refusals(const Refusals&) = delete;
  Refusals& operator=(const Refusals&) = delete;

  /// The part whose node-wide calls a stopping rank joins (at most one per Halo).
  void attach(NodeSync& sync) { sync_ = &sync; }
  /// After each of those calls: throws Refused when the node's ranks stop at this one.
  void synced();

  /// This rank cannot take part in the update: `message` is what every rank that waits for
  /// it throws. Local, but for the node-wide calls it joins.
  void post(const std::string& message);
  /// Throws Refused when a refusal reached this rank (the waits' interrupt).
  void check() override;
  /// Throws Refused when a rank of this node posted one: one load of a line nobody writes
  /// until then (every update's begin, so the node's ranks stop at their next update).
  void check_node();
  /// This rank posted a refusal or found one (read without touching shared memory, which
  /// MPI_Finalize may have unmapped when a Halo alive there is released).
  bool seen() const { return seen_; }

 private:

  /// Joins the node-wide calls up to the posted record's `stop`.
  void join_to_stop();

  MPI_Comm comm_;
  int tag_;
  core::RecordWords* record_;       // the node's, in node rank 0's segment (core/halo/claimed_record.hpp)
  NodeSync* sync_ = nullptr;        // attach()
  uint64_t synced_ = 0;             // node-wide calls made (synced() and joined)
  std::vector<int> told_;           // the node's internode neighbours (world ranks)
  bool probe_ = false;              // this rank has internode neighbours: it may be told
  bool seen_ = false;               // post() ran, or a check found a refusal
  std::vector<MPI_Request> sends_;  // of text_, to told_
  std::unique_ptr<char[]> text_;
};

}  // namespace hympi::halo
