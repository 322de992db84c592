// SPDX-License-Identifier: BSD-3-Clause
// Barrier, broadcast, reduce and allreduce inside one node: an up sweep then a down
// sweep over a tree (Algorithms 2 and 3 of Quaranta & Maddegedara (2021)), with monotonic
// sequence numbers; a small allreduce, reduce or bcast on a node of 2 to kMaxFlat ranks
// beside a CallBoard goes flat instead ("Small call on one node", below).
//
// Shared state, in the segment of each participant i (the rank that waits on it):
//   block.down       written by parent(i): "call s released; data for s is in my buffer"
//                    (a small call: in this channel's words)
//   block.up[slot]   written by the child in that slot: "my subtree arrived at call s;
//                    its partial data for s is in my buffer" (a small call: in this
//                    channel's words); carries the child's CallDesc and its subtree's Status
//   buffer           buffer_bytes of data, read by i's parent (up) and children (down)
//
// One call = one or more sweeps (large counts go in chunks of buffer_bytes), each with its
// own sequence number s from the object's SweepCounter, the same on every rank:
//   up:   wait up[c] >= s for every child c; check their CallDesc; combine their data into
//         my buffer; store my CallDesc/Status into parent.up[slot]; publish s there.
//   root: run the leader step (MPI among node leaders), if any.
//   down: wait down >= s; read the Status; copy data from the parent's buffer;
//         store the Status into each child's down; publish s there.
//
// Invariants (why one buffer per rank and no trailing barrier suffice):
//  - Monotonic: channels only ever receive larger s; a waiter for s never confuses it
//    with an older call, so nothing is reset and consecutive calls of any mix need no
//    extra synchronization.
//  - Reuse safety: i writes its buffer in the up sweep of s only after every child
//    published up >= s, i.e. after each child finished call s-1, including its reads of
//    i's buffer in the down sweep of s-1. i writes its buffer in the down sweep of s only
//    after the parent published down >= s, i.e. after the parent finished reading i's
//    buffer in the up sweep of s. Readers never see a buffer being rewritten.
//  - Happens-before: every data write precedes a release store of s on the channel its
//    reader acquires; the chain child -> ... -> root -> ... -> leaf makes every rank's
//    writes before the call visible to every rank after it (a full memory barrier).
//  - Mismatch: a child whose CallDesc differs from its parent's makes a Status that goes
//    up and then down to everyone; data is not touched in that sweep; every rank throws.
//    A rank's own bad argument (an invalid root, type, op or buffer: one sweep without
//    data, whatever the call's size) and a leader step that throws travel the same way,
//    so no rank is left waiting for one that threw.
//  - One store per channel on the hot path: each channel has one writer, which remembers
//    the metadata it last wrote there and rewrites it only when it changes. A waiter
//    spins on that line, so every extra store would move the line once more; in a
//    solver loop the CallDesc and Status repeat, and only the sequence word (and a small
//    call's data, below) is stored. A child whose subtree failed writes a CallDesc of
//    kind 0 (no call has it) and its Status into the channel's second line, so the fast
//    path reads the first line only.
//  - Small calls (at most kInlineBytes: a small bcast, reduce or allreduce, such as a
//    dot product's or a norm's, when it does not go flat, e.g. across nodes): the data
//    travels in the channels' words, in the sequence word's cache line, not in the
//    buffers: a child stores its subtree's data beside its CallDesc in its parent's up
//    channel, a parent the result into the down channel of each child that receives it.
//    Each hop then moves one line where it moved the flag's line and then the buffer's.
//    Reuse safety is that of every metadata word: up words are rewritten only in the
//    child's next sweep (after the parent's down of this one, which follows its reads),
//    down words only in the parent's next down (after the child's up of that sweep,
//    which follows its reads of this one). Every rank's buffer still holds its partial
//    result, the root's the node's (the leader step reads it). Only data at offset 0 of
//    the buffers travels so (a plain sweep or a chunk): the pieces of a pipelined
//    allreduce run their up sweeps back to back, so piece j+1 would overwrite piece j's
//    words, and its piece 0 is never as small.
//  - Determinism: the reduction order is fixed by the tree (own value, then children in
//    slot order), and every rank receives the root's bits, so all ranks get identical
//    results. Float sums may differ in the last bits from MPI_Allreduce, whose order is
//    its own.
//
// Large allreduce (a chunk of at least sliced_min_bytes, two or more participants): the
// tree would make the root reduce the whole chunk while the others wait. Instead, per
// chunk of m elements, three sweeps without data and three data phases:
//   sweep 1 (checks the CallDesc)   everyone has finished every read of earlier calls
//   A: copy my input chunk into my buffer, all but my own slice (only I read it, from my input)
//   sweep 2                         every buffer holds its rank's input (but its own slice)
//   B: participant k reduces slice k = [k m / P, (k+1) m / P) of all P inputs (its own
//      from its input, the others' from their buffers), in participant order, into slice k
//      of the root's buffer
//   sweep 3 (leader step at the root on its buffer: the whole reduced chunk)
//   C: copy the root's buffer into out
// A sweep 1 or 2 that fails runs the leader step too (only then): the leaders' check
// carries the failure to the other nodes, whose leaders check in their sweep 3 or, with
// the tree, in their first sweep; each leader makes one check per failed call.
// Reuse safety: A writes my buffer only after sweep 1, when nobody reads it any more
// (earlier sweeps' down reads and C reads finished before their readers arrived at sweep
// 1). B writes slice k of the root's buffer, which only participant k reads in B (the
// root's input slice, read before it is overwritten in place; for k = 0 the root reads its
// own input instead, and A left that slice alone). B reads my input only for my slice,
// before C writes out: `in` may be `out`. C reads the root's buffer, which
// the root rewrites only after the next call's first sweep has gathered every arrival.
// Determinism: the order is fixed by participant index; all ranks copy the root's bits.
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
//
// Medium allreduce (a chunk of 2 kPieceBytes up to sliced_min_bytes, two or more
// participants, no leader step: one node): the tree's two transfers of the vector (up to
// the root, the result back down) would run one after the other. Instead the chunk goes
// in J = min(bytes / kPieceBytes, SweepCounter::kSlot) pieces, each starting on a
// cache line at the same offset of every buffer, piece j with sequence number s + j of
// the sweep's slot: every non-root rank runs the up sweeps of all pieces, then their down
// sweeps; the root runs piece j down as soon as it has reduced it. So the result of piece
// j travels down while piece j+1 is reduced (at 2 ranks, 8 KiB: 1.07 -> 0.96 of MPICH
// 5's MPI_Allreduce in its fast launches, BENCHMARKS.md).
//  - Slots: every sweep (of any protocol on these blocks) takes a slot of kSlot numbers
//    from the SweepCounter; a plain sweep uses its first. Ranks whose counts differ cut
//    different numbers of pieces, yet take the same slot, and the CallDesc check of piece
//    0 (the first number, on every rank) fails them all there: a rank stops its pieces at
//    the first failed one, so nobody waits for a piece another rank never sends.
//  - Reuse safety as for a sweep, per piece: piece j touches only bytes [at, at + len)
//    of each buffer; a rank writes them in the up of piece j only after its children
//    published piece j of this call (they finished the last call), and a child reads the
//    root's piece j only after the root published its down; channels only grow, and an
//    acquire of s + j also orders every earlier piece's writes.
//  - Determinism: per element the same order as the tree's (own value, children in slot
//    order), so the bits are those of the unpipelined tree.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/channel.hpp"
#include "core/coll/call_check.hpp"
#include "core/coll/tree.hpp"
#include "core/function_ref.hpp"
#include "core/wait.hpp"

namespace hympi::core {

inline constexpr int kMaxChildren = 16;
// A call of at most kInlineBytes travels in its channels' words, in the cache line of
// their sequence word, instead of in the buffers (see the top of this file).
inline constexpr std::size_t kInlineWords = 4;
inline constexpr std::size_t kInlineBytes = 8 * kInlineWords;
inline constexpr int kMaxRounds = 16;  // of a dissemination barrier: 2^16 ranks per node
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

template <class Orders>
class CallBoard;

template <class Orders>
class TreeCollective {
 public:
  /// `world_ranks[i]` names participant i in messages. The tree's root must be 0.
  /// Allreduce chunks of `sliced_min_bytes` or more are reduced in slices by everyone;
  /// from `piece_bytes` up, without a leader step, they go through the tree in pieces.
  /// `board`: the node's CallBoard when a BoardBarrier shares the blocks, else null.
  TreeCollective(int self, std::vector<Participant> participants, Tree tree,
                 std::size_t buffer_bytes, WaitConfig wait, std::vector<int> world_ranks,
                 CallBoard<Orders>* board = nullptr, std::size_t sliced_min_bytes = kSlicedMinBytes,
                 std::size_t piece_bytes = kPieceBytes);
  // Measured at 2 ranks on application data: 4 KiB tree 2.15 us, sliced 2.35; 32 KiB tree
  // 18.0 us, sliced 15.1; with the own slice no longer copied, slicing from 2 KiB still
  // lost at 4 KiB (BENCHMARKS.md, "Each MPI at its best").
  static constexpr std::size_t kSlicedMinBytes = 16 * 1024;
  // Measured at 2 ranks against MPICH 5 (3 launches): 1 KiB pieces lost at 8 KiB (8
  // pieces: 1.12 of MPI against 1.04 whole), 2 KiB pieces won at 4-12 KiB; 2 KiB in two
  // pieces of 1 KiB gained nothing.
  static constexpr std::size_t kPieceBytes = 2048;

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
  /// The calls that follow carry `number` in their descriptors (CallDesc::context).
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
  /// Whether a call goes flat (see the top of this file): the same on every rank of the
  /// node whose count agrees.
  bool travels_flat(const CallDesc& desc, LeaderStep step) const;
  /// A small allreduce, reduce or bcast in one exchange of channel words (see the top of this file).
  void flat_call(const Call& call, const Work& work);
  /// wait_at_least, or with a board, until it finds a disagreement (the call then fails).
  void wait(Channel& channel, uint64_t seq, const WaitSite& site);
  /// One sweep; the root runs `step` between up and down (only when the sweep failed, with
  /// `step_if_failed_only`: the leaders' check then carries the failure to the other nodes).
  void sweep(uint64_t seq, const Call& call, const Work& work, LeaderStep step, bool step_if_failed_only = false);
  /// One chunk of a large allreduce (see the top of this file).
  void sliced_allreduce(const Call& call, const Work& work, LeaderStep step);
  /// One chunk of an allreduce in pieces, one sequence number each (see the top of this file).
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
