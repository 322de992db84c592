// SPDX-License-Identifier: BSD-3-Clause
// The flat small call; its protocol and invariants: flat_call.hpp.
#include "core/coll/flat_call.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <stdexcept>

#include "core/coll/reduce_ops.hpp"
#include "core/coll/tree_collective.hpp"
#include "core/memory_order.hpp"

namespace hympi::core {
namespace {

/// A flat call's bytes to and from a FlatChannel: the first kInlineBytes beside the
/// CallDesc, the rest in its tail.
template <class Orders>
void store_flat(const std::byte* from, std::size_t bytes, FlatChannel& channel) {
  store_inline<Orders>(from, std::min(bytes, kInlineBytes), channel.head.words + kUpData);
  if (bytes > kInlineBytes) store_inline<Orders>(from + kInlineBytes, bytes - kInlineBytes, channel.tail);
}

template <class Orders>
void load_flat(const FlatChannel& channel, std::size_t bytes, uint64_t* to) {
  load_inline<Orders>(channel.head.words + kUpData, std::min(bytes, kInlineBytes), to);
  if (bytes > kInlineBytes) load_inline<Orders>(channel.tail, bytes - kInlineBytes, to + kInlineWords);
}

}  // namespace

template <class Orders>
void TreeCollective<Orders>::flat_call(const Call& call, const Work& work) {
  const uint64_t seq = sweeps_.next();
  const int parity = int(seq / SweepCounter::kSlot % 2);
  const int n = tree_.size();
  const bool own_failed = work.own.failed();
  const std::size_t bytes = own_failed ? 0 : work.count * size_of(work.type);
  const auto& desc = own_failed ? kFailedDesc : call.words;
  // Whose data goes where, by kind (the table at the top of flat_call.hpp): every
  // rank of an allreduce needs everyone's, a reduce's root everyone's, a bcast's others
  // the root's.
  auto carries = [&](int from, int to) {
    if (bytes == 0) return false;
    if (call.desc.kind == CallKind::bcast) return from == work.node_root && to != from;
    if (call.desc.kind == CallKind::reduce) return to == work.node_root;
    return true;
  };
  for (int k = 1; k < n; ++k) {  // my CallDesc, and data where it is read, into everyone's block, the next rank first
    const int i = (self_ + k) % n;
    FlatChannel& flat = participants_[i].block->flat[parity][self_];
    Channel& channel = flat.head;
    if (own_failed) store_words<Orders>(work.own, channel.words + kUpStatus);
    auto& written = written_flat_[parity][i];
    if (desc != written) {
      for (int w = 0; w < CallDesc::kWords; ++w) channel.words[kUpDesc + w].store(desc[w], Orders::hint);  // seq release orders it
      written = desc;
    }
    if (carries(self_, i)) store_flat<Orders>(static_cast<const std::byte*>(work.in), bytes, flat);
    if (k + 1 < n) publish<Orders>(channel, seq);  // release: the words above and the tail
    else publish_before_waiting<Orders>(channel, seq);  // the same, the last before my waits
  }
  // Everyone's CallDesc, and the data I need (mine from my arguments); the verdict by the
  // rule at the top of flat_call.hpp, the same on every rank.
  uint64_t values[kMaxFlat][kFlatWords];
  std::array<uint64_t, CallDesc::kWords> first{};
  Status verdict;
  for (int i = 0; i < n; ++i) {
    std::array<uint64_t, CallDesc::kWords> theirs = desc;
    Status failure = work.own;
    if (i != self_) {
      FlatChannel& flat = participants_[self_].block->flat[parity][i];
      Channel& channel = flat.head;
      wait(channel, seq, node_site("collective: a participant's contribution", world_ranks_, self_, i));
      for (int w = 0; w < CallDesc::kWords; ++w) theirs[w] = channel.words[kUpDesc + w].load(Orders::hint);  // after the seq acquire
      if (theirs == kFailedDesc) failure = load_words<Orders, Status>(channel.words + kUpStatus);
      else if (carries(i, self_)) load_flat<Orders>(flat, bytes, values[i]);
    } else if (carries(i, self_)) {
      std::memcpy(values[i], work.in, bytes);
    }
    if (i == 0) first = theirs;
    if (verdict.failed()) continue;
    if (theirs == kFailedDesc) verdict = failure;
    else if (theirs != first)
      verdict = Status::mismatch(world_ranks_[0], CallDesc::from_words(first.data()), world_ranks_[i],
                                 CallDesc::from_words(theirs.data()));
  }
  if (verdict.failed()) throw Error(verdict.message());
  // Every rank's own CallDesc equals participant 0's here, so every value has `bytes`
  // bytes. Who has an output: every rank of an allreduce, a bcast's others, a reduce's root.
  if (bytes == 0 || !work.out) return;
  if (call.desc.kind == CallKind::bcast) {
    // Without a leader step the root is on this node (Context::locate), else an own failure.
    if (work.node_root < 0 || work.node_root >= n)
      throw std::logic_error("hympi: a flat bcast whose root is not on the node");
    std::memcpy(work.out, values[work.node_root], bytes);
    return;
  }
  uint64_t result[kFlatWords];
  combine(result, values[0], values[1], work.count, work.type, work.op);
  for (int i = 2; i < n; ++i) combine(result, result, values[i], work.count, work.type, work.op);
  std::memcpy(work.out, result, bytes);
}

template void TreeCollective<TunedOrders>::flat_call(const Call&, const Work&);
template void TreeCollective<SeqCstOrders>::flat_call(const Call&, const Work&);

}  // namespace hympi::core
