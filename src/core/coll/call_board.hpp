// SPDX-License-Identifier: BSD-3-Clause
// What collective call each rank of a node is in, for the protocols that cannot check
// each other's arguments: the barriers of board_barrier.hpp (dissemination, the default,
// and the counter barriers), the tree collectives and the flat small calls
// (tree_collective.hpp). A rank in such a barrier signals only on flags without a call
// description, a rank in a tree collective only to its tree parent, a rank in a flat
// call only into the other ranks' flat channels, so a barrier on some ranks of a node
// against an allreduce on the others (or a flat call against a tree one: counts on
// both sides of its bound) would leave both waiting until the watchdog. With such a
// barrier configured, every node collective posts its call and its protocol here first,
// and every wait of these protocols scans the board once it has left the fast path
// (docs/design.md, rule 7).
//
// Invariants:
//  - Entry i (the `posted` channel of participant i's block) has one writer, i, and works
//    as a seqlock: seq = 2c-1 while call c's CallDesc words are written (each a release
//    store), 2c once they are. A scan reads seq (acquire), the words (acquire), and seq
//    again: a word from a later post makes the second read see that post's odd number
//    at least, so a torn entry is never used. Every rank numbers its collective calls
//    alike (one per call, whatever its sweeps), and numbers only grow.
//  - A post whose CallDesc and protocol equal the entry's words, with no failure of its own
//    now or in the entry (the same call again, as in a solver loop), stores only seq = 2c: a scan then reads those same words whichever post they
//    came from, so skipping the odd phase tears nothing.
//  - A rank moves past call c only when c completed, so an entry that changes during a
//    scan means no disagreement at c.
//  - A scan decides only when every entry holds the scanner's own call number; until then
//    it waits on. So every rank that decides sees the same entries and finds the same
//    disagreement: participant 0's call against the first participant, in node order,
//    whose protocol differs from participant 0's, unless a rank posted a failure of its own
//    arguments (a binding refusing one calls with a count of its own): then the first such
//    rank's, in node order (the tree reports the first in its own order, which may name
//    another failed rank: every rank still gets the same message). Calls that differ otherwise (counts,
//    roots, kinds among the tree's own collectives, counts, kinds and roots within the
//    flat calls' bound) are that protocol's to report: the board never acts on them, so the two
//    reports never race.
//  - Such a disagreement leaves every rank of the node waiting (the counter never fills,
//    a barrier rank never answers its tree parent, a flat rank never gets the others'
//    contributions), so every rank reaches a scan. The
//    leader (participant 0) runs the call's leader step with the failure, so the other
//    nodes' leaders, already in theirs, learn it, then posts the final Status on its
//    `verdict` channel; the others wait for that verdict: every rank of the communicator
//    throws the same message, once every rank of the node has the verdict (a count in
//    the leader's `failed` channel): a rank gone on to its next call would write flags
//    and channels that a rank still waiting in the failed one would take for its own.
//  - Ranks leave the protocols half way. Beside the dissemination barrier that is harmless
//    (`resumes`): every rank took one sweep slot for the failed call (a tree call takes
//    its first sweep's before its first wait, which no tree call passes while a rank of
//    the node is in a barrier), the tree's channels hold that slot's numbers at most, and the
//    barrier's flags hold the call's number from this board; later calls wait for larger
//    numbers, so the node goes on; so do the flat channels, whose writers publish the
//    failed call's number at most. Beside a counter barrier, when a rank was in that
//    barrier, the counter holds increments
//    of a barrier that never completed: the board is broken and every later call on it
//    throws at once; its leader first runs the call's leader step with that failure, so
//    the other nodes' ranks get the same error, not a hang. Only a misuse gets there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/coll/call_check.hpp"
#include "core/coll/collective_block.hpp"
#include "core/wait.hpp"

namespace hympi::core {

template <class Orders>
class CallBoard {
 public:
  /// `resumes`: every protocol beside the board leaves its channels consistent when a
  /// call fails half way (the dissemination barrier and the tree), so the node goes on
  /// after a mismatch; false (a counter barrier) breaks the board at the first one.
  CallBoard(int self, std::vector<Participant> participants, WaitConfig wait, std::vector<int> world_ranks,
            bool resumes);

  /// Before a collective's first wait: posts `call`; on a broken board throws instead (the
  /// leader after running `step`, the call's leader step, with the failure).
  /// `flat`: the call goes through TreeCollective's flat small calls; `own`: a failure
  /// this rank found in its own arguments (reported before a mismatch of protocols).
  void post(const CallDesc& call, LeaderStep step, bool flat = false, const Status& own = {});
  /// For wait_at_least_or: true when every rank has posted this call and two ranks are in
  /// different protocols.
  bool disagreement();
  /// After disagreement(): ends the call on this rank with the node's verdict (the leader
  /// runs `step` first, with the failure). Marks the board broken unless it `resumes` or
  /// no rank was in a barrier.
  [[noreturn]] void fail(LeaderStep step);
  /// The number of the call posted last: the same on every rank for the same call.
  uint64_t calls() const { return calls_; }
  /// After a failed call beside a counter barrier: every later call throws.
  bool broken() const { return broken_; }

 private:
  int self_;
  std::vector<Participant> participants_;
  WaitConfig wait_;
  std::vector<int> world_ranks_;
  bool resumes_;
  uint64_t calls_ = 0;
  uint64_t failures_ = 0;  // calls that failed on this board: the same on every rank
  // An entry: the CallDesc, the flat flag, the rank's own failure (a Status).
  static constexpr int kFlatWord = CallDesc::kWords;
  static constexpr int kOwnWords = kFlatWord + 1;
  static constexpr int kEntryWords = kOwnWords + Status::kWords;
  static_assert(kEntryWords <= int(kChannelWords));
  CallDesc last_{};  // the words my entry holds (one store per post while the call repeats)
  bool last_flat_ = false;
  bool last_failed_ = false;
  bool in_barrier_ = false;  // whether a rank was in a barrier at the disagreement found
  bool posted_any_ = false;
  Status found_;
  bool broken_ = false;
};

}  // namespace hympi::core
