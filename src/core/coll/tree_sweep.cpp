// SPDX-License-Identifier: BSD-3-Clause
// The tree sweep; its protocol and invariants: tree_sweep.hpp.
#include "core/coll/tree_sweep.hpp"

#include <cstddef>

#include "core/coll/reduce_ops.hpp"
#include "core/coll/tree_collective.hpp"
#include "core/copy.hpp"
#include "core/memory_order.hpp"

namespace hympi::core {

template <class Orders>
void TreeCollective<Orders>::sweep(uint64_t seq, const Call& call, const Work& work,
                                   LeaderStep step, bool step_if_failed_only) {
  bool failed = up_sweep(seq, call, work);
  if (tree_.parent(self_) < 0 && step && (failed || !step_if_failed_only)) {
    if (!failed) failure_ = Status{};
    try {
      step(participants_[self_].buffer, work.count, failure_);
    } catch (...) {  // release the node with the failure, then report the leader's own error
      failure_ = Status::leader_error(world_ranks_[self_], call.desc);
      down_sweep(seq, work, true);
      throw;
    }
    failed = failure_.failed();
  }
  if (down_sweep(seq, work, failed)) throw Error(failure_.message());
}

template <class Orders>
bool TreeCollective<Orders>::up_sweep(uint64_t seq, const Call& call, const Work& work) {
  CollectiveBlock& mine = *participants_[self_].block;
  bool failed = work.own.failed();
  if (failed) failure_ = work.own;
  for (int child : tree_.children(self_)) {
    Channel& channel = mine.up[tree_.slot(child)];
    wait(channel, seq, node_site("collective: arrival of a child", world_ranks_, self_, child));
    // Fast path: the two CallDesc words of the line just acquired (hint: ordered by that acquire).
    const auto* words = channel.words;
    const uint64_t desc0 = words[kUpDesc].load(Orders::hint);
    if (desc0 != call.words[0] || words[kUpDesc + 1].load(Orders::hint) != call.words[1]) {
      const Status theirs = desc0 == kFailedDesc[0]
                                ? load_words<Orders, Status>(words + kUpStatus)
                                : Status::mismatch(world_ranks_[self_], call.desc, world_ranks_[child],
                                                   load_words<Orders, CallDesc>(words + kUpDesc));
      if (!failed) failure_ = theirs;  // the first failure in slot order wins
      failed = true;
    }
  }
  if (!failed && work.count != 0) up_data(work);

  const int parent = tree_.parent(self_);
  if (parent >= 0) {
    Channel& channel = participants_[parent].block->up[tree_.slot(self_)];
    const auto& desc = failed ? kFailedDesc : call.words;
    if (failed) store_words<Orders>(failure_, channel.words + kUpStatus);
    if (desc != written_up_) {
      for (int i = 0; i < CallDesc::kWords; ++i) channel.words[kUpDesc + i].store(desc[i], Orders::hint);  // seq release orders it
      written_up_ = desc;
    }
    const std::size_t small = inline_bytes(work);
    if (!failed && small != 0 && sends_up(work))
      store_inline<Orders>(participants_[self_].buffer, small, channel.words + kUpData);
    publish<Orders>(channel, seq);  // release: my data and the words above are ready
  }
  return failed;
}

template <class Orders>
bool TreeCollective<Orders>::down_sweep(uint64_t seq, const Work& work, bool failed) {
  const int parent = tree_.parent(self_);
  // Used only when the call did not fail: the parent sends the words exactly when the
  // Status it stores with them is fine.
  const std::size_t small = work.down == DownData::none ? 0 : inline_bytes(work);
  uint64_t from_parent[kInlineWords];
  if (parent >= 0) {
    Channel& channel = participants_[self_].block->down;
    wait(channel, seq, node_site("collective: release from the parent", world_ranks_, self_, parent));
    failed = channel.words[kDownStatus].load(Orders::hint) != 0;  // after the seq acquire
    if (failed) failure_ = load_status<Orders>(channel.words + kDownStatus);
    else if (small != 0) load_inline<Orders>(channel.words + kDownData, small, from_parent);
  }
  if (!failed && work.count != 0)
    down_data(work, small != 0 ? reinterpret_cast<const std::byte*>(from_parent) : nullptr);
  for (int child : tree_.children(self_)) {
    Channel& channel = participants_[child].block->down;
    int8_t& written = written_down_[tree_.slot(child)];
    if (failed || written != 0)  // a failure's record is always written: it may differ from the last
      store_status<Orders>(failed ? failure_ : Status{}, channel.words + kDownStatus);
    written = int8_t(failed);
    if (!failed && small != 0 &&
        (work.down == DownData::everyone || (work.node_root >= 0 && tree_.in_subtree(child, work.node_root))))
      store_inline<Orders>(participants_[self_].buffer, small, channel.words + kDownData);  // the result (down_data)
    publish<Orders>(channel, seq);  // release: the result for the child is ready
  }
  return failed;
}

template <class Orders>
std::size_t TreeCollective<Orders>::inline_bytes(const Work& work) const {
  const std::size_t bytes = work.count * size_of(work.type);
  return work.at == 0 && bytes <= kInlineBytes ? bytes : 0;
}

template <class Orders>
bool TreeCollective<Orders>::forwards_root(const Work& work) const {
  return work.node_root >= 0 && tree_.in_subtree(self_, work.node_root);
}

template <class Orders>
bool TreeCollective<Orders>::sends_up(const Work& work) const {
  return work.up == UpData::reduce || (work.up == UpData::forward_root && forwards_root(work));
}

template <class Orders>
void TreeCollective<Orders>::up_data(const Work& work) {
  std::byte* mine = participants_[self_].buffer + work.at;
  const std::size_t bytes = work.count * size_of(work.type);
  if (bytes == 0) return;
  auto children = tree_.children(self_);
  // A child's data: in its channel's words for a small call, else in its buffer.
  uint64_t words[kInlineWords];
  auto from = [&](int child) {
    if (inline_bytes(work) == 0) return static_cast<const std::byte*>(participants_[child].buffer + work.at);
    load_inline<Orders>(participants_[self_].block->up[tree_.slot(child)].words + kUpData, bytes, words);
    return reinterpret_cast<const std::byte*>(words);
  };
  switch (work.up) {
    case UpData::none:
      return;
    case UpData::reduce: {
      if (children.empty()) {
        copy_bytes(mine, work.in, bytes);
        return;
      }
      combine(mine, work.in, from(children[0]), work.count, work.type, work.op);
      for (std::size_t c = 1; c < children.size(); ++c)
        combine(mine, mine, from(children[c]), work.count, work.type, work.op);
      return;
    }
    case UpData::forward_root: {
      if (self_ == work.node_root) {
        copy_bytes(mine, work.in, bytes);
        return;
      }
      for (int child : children)
        if (forwards_root(work) && tree_.in_subtree(child, work.node_root)) copy_bytes(mine, from(child), bytes);
      return;
    }
  }
}

template <class Orders>
void TreeCollective<Orders>::down_data(const Work& work, const std::byte* inline_from) {
  const std::size_t bytes = work.count * size_of(work.type);
  if (bytes == 0 || work.down == DownData::none) return;
  std::byte* mine = participants_[self_].buffer + work.at;
  const int parent = tree_.parent(self_);
  const bool has_children = !tree_.children(self_).empty();

  if (work.down == DownData::towards_root && !forwards_root(work)) return;
  if (parent < 0) {  // the root's buffer already holds the result
    if (work.out) copy_bytes(work.out, mine, bytes);
    return;
  }
  const std::byte* from_parent = inline_from ? inline_from : participants_[parent].buffer + work.at;
  const bool relay = work.down == DownData::everyone ? has_children : self_ != work.node_root;
  if (relay) {  // my children read my buffer, or get it in their words (down_sweep)
    copy_bytes(mine, from_parent, bytes);
    from_parent = mine;  // a local copy is cheaper to read again
  }
  if (work.out) copy_bytes(work.out, from_parent, bytes);
}

template void TreeCollective<TunedOrders>::sweep(uint64_t, const Call&, const Work&, LeaderStep, bool);
template void TreeCollective<SeqCstOrders>::sweep(uint64_t, const Call&, const Work&, LeaderStep, bool);
template bool TreeCollective<TunedOrders>::up_sweep(uint64_t, const Call&, const Work&);
template bool TreeCollective<SeqCstOrders>::up_sweep(uint64_t, const Call&, const Work&);
template bool TreeCollective<TunedOrders>::down_sweep(uint64_t, const Work&, bool);
template bool TreeCollective<SeqCstOrders>::down_sweep(uint64_t, const Work&, bool);

}  // namespace hympi::core
