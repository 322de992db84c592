// SPDX-License-Identifier: BSD-3-Clause
// Barrier, broadcast, reduce and allreduce inside one node: TreeCollective runs each call
// by one of four protocols over the node's blocks (collective_block.hpp), each with its
// invariants at the top of its header:
//  - flat (flat_call.hpp): an allreduce, reduce or bcast of at most flat_max_count(P)
//    elements on a node of 2 to kMaxFlat ranks beside a CallBoard, without a leader step;
//  - else in chunks of buffer_bytes (at least one), each chunk of an allreduce among two
//    or more participants
//     - sliced (sliced_allreduce.hpp) from sliced_min_bytes,
//     - pipelined (pipelined_allreduce.hpp) from 2 piece_bytes without a leader step,
//    and every other chunk (and a barrier) one tree sweep (tree_sweep.hpp). A rank's own
//    bad argument goes as one sweep without data (or flat), which every rank throws.
// Beside a CallBoard (call_board.hpp) every call posts its protocol there first, and
// every wait scans the board once it leaves the fast path.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/coll/call_check.hpp"
#include "core/coll/collective_block.hpp"
#include "core/coll/pipelined_allreduce.hpp"
#include "core/coll/sliced_allreduce.hpp"
#include "core/coll/tree.hpp"
#include "core/wait.hpp"

namespace hympi::core {

template <class Orders>
class CallBoard;

template <class Orders>
class TreeCollective {
 public:
  /// `world_ranks[i]` names participant i in messages. The tree's root must be 0.
  /// Allreduce chunks of `sliced_min_bytes` or more are reduced in slices by everyone;
  /// smaller ones of 2 x `piece_bytes` or more, without a leader step, go through the tree
  /// in pieces of at least `piece_bytes`.
  /// `board`: the node's CallBoard when a BoardBarrier shares the blocks, else null.
  TreeCollective(int self, std::vector<Participant> participants, Tree tree,
                 std::size_t buffer_bytes, WaitConfig wait, std::vector<int> world_ranks,
                 CallBoard<Orders>* board = nullptr, std::size_t sliced_min_bytes = kSlicedMinBytes,
                 std::size_t piece_bytes = kPieceBytes);

  void barrier(LeaderStep step = {});
  /// `own`: a failure this rank found in its own arguments (an invalid root, type, op or
  /// buffer): the call then moves no data and fails on every rank with it.
  void allreduce(const void* in, void* out, std::size_t count, Datatype type, Op op,
                 LeaderStep step = {}, const Status& own = {});
  /// `node_root`: the root's index on this node, or -1 when it lives on another node.
  void reduce(const void* in, void* out, std::size_t count, Datatype type, Op op,
              int world_root, int node_root, LeaderStep step = {}, const Status& own = {});
  void bcast(void* data, std::size_t count, Datatype type, int world_root, int node_root,
             LeaderStep step = {}, const Status& own = {});

  /// The counter of this object's sweeps, for a BoardBarrier on the same blocks.
  SweepCounter& sweeps() { return sweeps_; }
  /// The calls that follow carry `number` in their descriptions (CallDesc::context).
  void set_caller(uint8_t number) { caller_ = number; }

 private:
  enum class UpData { none, reduce, forward_root };
  enum class DownData { none, everyone, towards_root };
  struct Work {
    UpData up = UpData::none;
    DownData down = DownData::none;
    const std::byte* in = nullptr;  // this rank's contribution
    std::byte* out = nullptr;       // where this rank's result goes (nullptr: nowhere)
    std::size_t count = 0;
    Datatype type = Datatype::float64;
    Op op = Op::sum;
    int node_root = -1;
    Status own{};  // this rank's own failure: the sweep fails without touching data
    std::size_t at = 0;  // where the data lives in every participant's buffer (bytes)
  };

  /// A call's description, and its encoding as the channel words compared on the fast path.
  struct Call {
    explicit Call(const CallDesc& d) : desc(d) { d.to_words(words.data()); }
    CallDesc desc;
    std::array<uint64_t, CallDesc::kWords> words;
  };

  /// Runs one call as ceil(bytes / buffer_bytes) sweeps (at least one), or flat.
  void run_chunked(const CallDesc& desc, Work work, LeaderStep step);
  /// Every call starts here: posts it on the board, if any; `step` is the call's leader step.
  void start(const CallDesc& desc, LeaderStep step, bool flat = false, const Status& own = {});
  /// Whether a call goes flat (flat_call.hpp): the same on every rank of the
  /// node whose count agrees.
  bool travels_flat(const CallDesc& desc, LeaderStep step) const;
  /// A small allreduce, reduce or bcast in one exchange of channel words (flat_call.hpp).
  void flat_call(const Call& call, const Work& work);
  /// wait_at_least, or with a board, until it finds a disagreement (the call then fails).
  void wait(Channel& channel, uint64_t seq, const WaitSite& site);
  /// One sweep (tree_sweep.hpp); the root runs `step` between up and down (only when the sweep failed, with
  /// `step_if_failed_only`: the leaders' check then carries the failure to the other nodes).
  void sweep(uint64_t seq, const Call& call, const Work& work, LeaderStep step, bool step_if_failed_only = false);
  /// One chunk of a large allreduce (sliced_allreduce.hpp).
  void sliced_allreduce(const Call& call, const Work& work, LeaderStep step);
  /// One chunk of an allreduce in pieces, one sequence number each (pipelined_allreduce.hpp).
  void pipelined_allreduce(const Call& call, const Work& work);
  /// Each returns whether the sweep failed; the failure itself is in failure_.
  bool up_sweep(uint64_t seq, const Call& call, const Work& work);
  bool down_sweep(uint64_t seq, const Work& work, bool failed);
  void up_data(const Work& work);
  /// `inline_from`: the parent's result as found in my down channel's words (a small call).
  void down_data(const Work& work, const std::byte* inline_from);
  /// The call's bytes when they travel in the channels' words (kInlineBytes), else 0.
  std::size_t inline_bytes(const Work& work) const;
  bool forwards_root(const Work& work) const;
  /// Whether my parent reads data from me in this call's up sweep.
  bool sends_up(const Work& work) const;

  int self_;
  std::vector<Participant> participants_;
  Tree tree_;
  std::size_t buffer_bytes_;
  std::size_t sliced_min_bytes_;
  std::size_t piece_bytes_;
  // The CallDesc words in my channel in my parent's block (I am its only writer; a
  // channel starts at zero, kFailedDesc).
  std::array<uint64_t, CallDesc::kWords> written_up_{};
  std::vector<int8_t> written_down_;  // per child slot: failed flag last written; -1: none
  // The CallDesc words in my flat[p][self] channel of each participant's block.
  std::array<std::array<std::array<uint64_t, CallDesc::kWords>, kMaxFlat>, 2> written_flat_{};
  Status failure_;                    // the failure of the current call, if any
  SweepCounter sweeps_;
  CallBoard<Orders>* board_;
  std::size_t flat_below_ = 0;        // calls of fewer elements go flat (0: none; travels_flat)
  LeaderStep call_step_;              // the current call's, for the board's failure
  uint8_t caller_ = 0;                // CallDesc::context of the calls made now
  const Call barrier_call_{CallDesc{CallKind::barrier, Datatype::float64, Op::sum, -1, 0}};
  WaitConfig wait_;
  std::vector<int> world_ranks_;
};

}  // namespace hympi::core
