// The barriers of Quaranta & Maddegedara (2021), Algorithms 1 and 2, kept as selectable
// variants for the benchmark: every rank increments one arrival counter in the leader's
// block; the leader waits for all of them and releases everyone directly (flat,
// Algorithm 1) or down the tree (Algorithm 2).
//
// Invariants:
//  - Monotonic counter, never reset: after the m-th barrier of this object it holds
//    m*(n-1); the leader waits for that value. The paper resets the counter and needs an
//    ordering argument for it; a monotonic counter needs none.
//  - The release uses the same `down` channels and sequence numbers as TreeCollective,
//    so barriers of both kinds and the other collectives mix freely.
//  - fetch_add is release (my writes before the barrier are visible to the leader, which
//    acquires the count and releases everyone): a full memory barrier, as for the tree.
//  - No argument check through the counter: a rank of this node in another collective
//    is found by the node's CallBoard (call_board.hpp), which every wait here scans once
//    it leaves the fast path. A failure the leader's step finds (another node called
//    something else, an MPI error) does reach every rank of the node: the leader stores
//    the Status in its arrivals channel's words and the call's number in word
//    kFailedCall of each down channel it releases (relays copy it on); a rank that finds
//    its own call's number there reads the Status and throws. Numbers only grow, so the
//    word is never reset, and it is not among the tree's cached status words.
#pragma once

#include <cstdint>
#include <vector>

#include "core/call_board.hpp"
#include "core/tree_collective.hpp"

namespace hympi::core {

template <class Orders>
class CounterBarrier {
 public:
  /// `sweeps`: the counter of the TreeCollective on the same blocks (TreeCollective::sweeps());
  /// `board`: the CallBoard that TreeCollective posts on.
  CounterBarrier(int self, std::vector<Participant> participants, Tree tree, bool tree_release,
                 WaitConfig wait, std::vector<int> world_ranks, SweepCounter& sweeps, CallBoard<Orders>& board);
  void barrier(LeaderStep step = {});

 private:
  int self_;
  std::vector<Participant> participants_;
  Tree tree_;
  bool tree_release_;
  WaitConfig wait_;
  std::vector<int> world_ranks_;
  SweepCounter& sweeps_;
  CallBoard<Orders>& board_;
  uint64_t calls_ = 0;
};

}  // namespace hympi::core
