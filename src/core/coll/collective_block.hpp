// SPDX-License-Identifier: BSD-3-Clause
// The memory each participant of a node's collectives exposes to the others: its
// CollectiveBlock of channels, in its own segment (each channel in the segment of the rank
// that waits on it: docs/design.md, rule 1), and its buffer; with what the protocols on
// these blocks share: the sweeps' sequence numbers (SweepCounter) and the leader step.
// Which protocol uses which channel: the tree sweep `down` and `up` (tree_sweep.hpp), the
// barriers `arrivals`, `rounds` and the tree's `down` (board_barrier.hpp), the CallBoard
// `posted`, `verdict` and `failed` (call_board.hpp), the flat small calls `flat`
// (flat_call.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/channel.hpp"
#include "core/coll/call_check.hpp"
#include "core/coll/flat_call.hpp"
#include "core/function_ref.hpp"

namespace hympi::core {

inline constexpr int kMaxChildren = 16;
inline constexpr int kMaxRounds = 16;  // of a dissemination barrier: 2^16 ranks per node

struct CollectiveBlock {
  Channel down;
  Channel up[kMaxChildren];
  Channel arrivals;            // the leader's arrival counter of BoardBarrier
  Channel rounds[kMaxRounds];  // BoardBarrier's dissemination flags, written by i - 2^r
  Channel posted;              // this rank's entry on the CallBoard (a BoardBarrier configured)
  Channel verdict;             // the leader's: the CallBoard's final Status
  Channel failed;              // the leader's: ranks that have left a call the CallBoard failed
  FlatChannel flat[2][kMaxFlat];  // a flat small call's contributions: [parity][writer]
};

/// What participant i exposes to the others (pointers valid in the caller's address space).
struct Participant {
  CollectiveBlock* block;
  std::byte* buffer;
};

/// Run by the tree root between the sweeps, once per chunk: may replace the node's
/// `count` elements in `buffer` (e.g. MPI_Allreduce among node leaders) and merges the
/// other nodes' Status into `status`.
using LeaderStep = FunctionRef<void(std::byte* buffer, std::size_t count, Status& status)>;

/// The sequence numbers of the sweeps over one node's blocks: each sweep takes the next
/// slot of kSlot numbers, the same on every rank (docs/design.md, rule 2). Protocols that share the `down`
/// channels (a BoardBarrier beside a TreeCollective) share one counter.
class SweepCounter {
 public:
  /// Sequence numbers one sweep may use: a pipelined allreduce publishes one per piece.
  static constexpr uint64_t kSlot = 8;
  /// The first number of the next sweep's slot; a plain sweep uses that one alone.
  uint64_t next() { return (last_ += kSlot) - (kSlot - 1); }

 private:
  uint64_t last_ = 0;
};

}  // namespace hympi::core
