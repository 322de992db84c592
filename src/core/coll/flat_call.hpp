// SPDX-License-Identifier: BSD-3-Clause
// The flat small call (TreeCollective::flat_call, in flat_call.cpp).
//
// Small call on one node (an allreduce, reduce or bcast of at most flat_max_count(P)
// elements: P - 1 copies of at most kFlatWords words in all; no leader step, 2 to kMaxFlat
// participants, beside a CallBoard): the tree's up then down sweep is two transfers one
// after the other. Instead every participant stores its CallDesc, and its data where it
// is read, in its own FlatChannel in every other participant's block, flat[p][me], and
// publishes the call's sequence number s there; then it waits for all of them in its own
// block and takes what it needs itself: one transfer on the critical path, all
// participants at once (the dissemination barrier's idea with data; "all-gather, then
// reduce locally"). Whose data travels where, by kind (flat_call's `carries`):
//      allreduce   everyone's to everyone; each combines all P
//      reduce      everyone's to the root; the root combines all P
//      bcast       the root's to everyone
// Every participant waits for every other's CallDesc even where no data comes (a bcast's
// root, a reduce's others): that is what makes every rank see every mismatch, and what
// the double buffering below rests on.
//  - Double buffering (rule 3): p = (s / kSlot) mod 2. I rewrite flat[p][me] in another's
//    block at a later call s' with the same p only after a call in between has completed
//    on me: either a flat call of the other parity (so everyone published it, after
//    finishing s) or any other collective, each of which synchronizes the whole node (a
//    tree sweep, a barrier, a failed call's verdict). Waits are for >= s' and nobody
//    publishes beyond s' before I finish s', so a reader never takes old words for new.
//  - Determinism: every participant that combines (all of an allreduce's, a reduce's
//    root) does so in participant order (0 .. P-1) with the same code: all get the same
//    bits; a bcast's others copy the root's.
//  - Mismatch: every participant reads every CallDesc and decides alone, by one rule
//    walked in participant order: the first participant that failed on its own
//    (kFailedDesc + its Status) or whose CallDesc differs from participant 0's names the
//    failure. Every participant reads the same words, so all throw the same message and
//    none waits for another (each published before it waits).
//  - Protocols: whether a call is flat depends on its count and P only (not its kind,
//    root or type: ranks that differ in those, or whose root or type is invalid, stay in
//    the same protocol as the others, whose check reports it). Ranks whose
//    counts straddle flat_max_count(P) (or one in a barrier or a tree collective) wait on
//    channels the others never write; the CallBoard, where each posts its protocol with
//    its call, finds them (call_board.hpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/channel.hpp"
#include "core/coll/tree_sweep.hpp"

namespace hympi::core {

// The most participants of a flat small call: each publishes P - 1 CallDescs and reads
// P - 1. Measured at 2 only (BENCHMARKS.md, "A small allreduce in one transfer");
// above kMaxFlat the tree's log-depth sweeps take over.
inline constexpr int kMaxFlat = 8;
// The most data words a rank writes into the others' blocks in one flat call (an
// allreduce's rank or a bcast's root):
// (P - 1) x count <= kFlatWords, so 32 elements at 2 participants, 4 at 8 (flat_max_count).
inline constexpr std::size_t kFlatWords = 32;

/// The most elements of a call that goes flat among 2 to kMaxFlat `participants`.
constexpr std::size_t flat_max_count(int participants) { return kFlatWords / std::size_t(participants - 1); }

/// One writer's contribution to a flat call: the channel (sequence word, CallDesc,
/// the first kInlineWords data words in its first line, a failure's Status in its second)
/// and the other data words in the lines after it; aligned as its head, so the next
/// writer's starts on lines of its own.
struct FlatChannel {
  Channel head;
  std::atomic<uint64_t> tail[kFlatWords - kInlineWords] = {};
};

}  // namespace hympi::core
