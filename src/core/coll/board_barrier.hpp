// SPDX-License-Identifier: BSD-3-Clause
// The barriers whose ranks meet on flags that carry no call description, so the node's
// CallBoard (call_board.hpp) checks them against the other collectives:
//  - counter_flat / counter_tree: Quaranta & Maddegedara (2021), Algorithms 1 and 2: every
//    rank increments one arrival counter in the leader's block; the leader waits for all
//    of them and releases everyone directly (flat) or down the tree.
//  - dissemination (Hensgen, Finkel & Manber (1988); Mellor-Crummey & Scott (1991)): in
//    round r = 0 .. ceil(log2 n) - 1 participant i signals i + 2^r and waits for i - 2^r
//    (mod n). After the last round every rank knows that every rank arrived: one
//    cache-line transfer per round on the critical path, all ranks at once, where the
//    others need an arrival and a release one after the other. With a leader step (more
//    than one node) the leader runs it after the rounds and releases everyone directly.
//
// Invariants:
//  - Monotonic values, never reset: the counter holds m*(n-1) after the m-th barrier of
//    this object and the leader waits for that value (the paper resets the counter and
//    needs an ordering argument for it); round r's flag of participant i (in i's block: it
//    waits there, rule 1) is written only by i - 2^r, with the CallBoard's number c of the
//    call, and i waits for >= c: a partner already a call ahead writes more, which passes
//    too, and the flags of a call that failed half way (a barrier against another
//    collective) hold c at most, which no later barrier accepts: the node goes on.
//  - Barrier property of the rounds: after round r participant i has heard, through
//    release/acquire chains, from the 2^(r+1) - 1 participants before it, so after the
//    last round from everyone; a rank that never arrives stops every other rank in some
//    round. Happens-before is transitive, so every rank's writes before the barrier are
//    visible to every rank after it (a full memory barrier).
//  - The release uses the same `down` channels and sequence numbers as TreeCollective,
//    so barriers of every kind and the other collectives mix freely; a dissemination
//    barrier without a leader step skips it and takes its sequence number all the same.
//  - fetch_add and the round flags are release (my writes before the barrier), the waits
//    acquire.
//  - No argument check through the flags: a rank of this node in another collective is
//    found by the node's CallBoard, which every wait here scans once it leaves the fast
//    path. A failure the leader's step finds (another node called something else, an MPI
//    error) does reach every rank of the node: the leader stores the Status in its
//    arrivals channel's words and the call's number in word kFailedCall of each down
//    channel it releases (relays copy it on); a rank that finds its own call's number
//    there reads the Status and throws. Numbers only grow, so the word is never reset,
//    and it is not among the tree's cached status words.
#pragma once

#include <cstdint>
#include <vector>

#include "core/coll/call_board.hpp"
#include "core/coll/collective_block.hpp"
#include "core/coll/tree.hpp"
#include "core/function_ref.hpp"
#include "core/wait.hpp"

namespace hympi::core {

/// How the ranks learn that everyone arrived.
enum class Arrival { counter, dissemination };

template <class Orders>
class BoardBarrier {
 public:
  /// `sweeps`: the counter of the TreeCollective on the same blocks (TreeCollective::sweeps());
  /// `board`: the CallBoard that TreeCollective posts on. `tree_release` (counter arrival
  /// only): release down the tree instead of directly. At most 2^kMaxRounds participants.
  BoardBarrier(int self, std::vector<Participant> participants, Tree tree, Arrival arrival, bool tree_release,
               WaitConfig wait, std::vector<int> world_ranks, SweepCounter& sweeps, CallBoard<Orders>& board);
  void barrier(LeaderStep step = {});

 private:
  /// The dissemination rounds; false when the CallBoard found another collective.
  bool rounds(FunctionRef<bool()> other_call);

  int self_;
  std::vector<Participant> participants_;
  Tree tree_;
  Arrival arrival_;
  bool tree_release_;
  WaitConfig wait_;
  std::vector<int> world_ranks_;
  SweepCounter& sweeps_;
  CallBoard<Orders>& board_;
  uint64_t calls_ = 0;
};

}  // namespace hympi::core
