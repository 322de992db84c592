// SPDX-License-Identifier: BSD-3-Clause
// The tree sweep (TreeCollective::sweep, up_sweep and down_sweep, in tree_sweep.cpp):
// barrier, broadcast, reduce and allreduce inside one node as an up sweep then a down
// sweep over a tree (Algorithms 2 and 3 of Quaranta & Maddegedara (2021)), with monotonic
// sequence numbers. Here also the layout of a channel's metadata words, which the flat
// small calls (flat_call.hpp) share.
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
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/channel.hpp"
#include "core/coll/call_check.hpp"

namespace hympi::core {

// A call of at most kInlineBytes travels in its channels' words, in the cache line of
// their sequence word, instead of in the buffers (see the top of this file).
inline constexpr std::size_t kInlineWords = 4;
inline constexpr std::size_t kInlineBytes = 8 * kInlineWords;

// Layout of the metadata words of the channels (see call_check.hpp). Words 0-5 share the
// sequence word's cache line, 6-12 are the channel's second line: what the fast path
// reads (the CallDesc, the down Status's code, a small call's data) sits in the first.
inline constexpr int kUpDesc = 0;                               // child's CallDesc (kind 0: see kUpStatus)
inline constexpr int kUpData = kUpDesc + CallDesc::kWords;      // a small call's data (kInlineBytes)
inline constexpr int kUpStatus = kUpData + kInlineWords;        // child's subtree Status, read only when kind is 0
inline constexpr int kDownData = 0;                             // a small call's data
inline constexpr int kDownStatus = kDownData + kInlineWords + 1;  // the call's final Status (word 4: unused)
inline constexpr int kFirstLineWords = int((64 - offsetof(Channel, words)) / sizeof(uint64_t));
static_assert(kUpStatus + Status::kWords <= int(kChannelWords));
static_assert(kUpData + kInlineWords <= kFirstLineWords && kDownStatus < kFirstLineWords);
static_assert(kDownStatus + Status::kWords < int(kChannelWords));  // BoardBarrier's kFailedCall is the last

// A CallDesc whose kind is 0 (no CallKind) marks a child whose subtree failed.
inline constexpr std::array<uint64_t, CallDesc::kWords> kFailedDesc{};

/// A small call's bytes to and from channel words (written before the seq release, read
/// after its acquire, like every metadata word).
template <class Orders>
void store_inline(const std::byte* from, std::size_t bytes, std::atomic<uint64_t>* words) {
  for (std::size_t i = 0; i * 8 < bytes; ++i) {
    uint64_t word = 0;
    std::memcpy(&word, from + 8 * i, std::min<std::size_t>(8, bytes - 8 * i));
    words[i].store(word, Orders::hint);  // the seq release orders it
  }
}

template <class Orders>
void load_inline(const std::atomic<uint64_t>* words, std::size_t bytes, uint64_t* to) {
  for (std::size_t i = 0; i * 8 < bytes; ++i) to[i] = words[i].load(Orders::hint);  // after the seq acquire
}

}  // namespace hympi::core
