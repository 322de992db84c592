// SPDX-License-Identifier: BSD-3-Clause
#include "core/coll/tree_collective.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <stdexcept>

#include "core/coll/call_board.hpp"
#include "core/coll/reduce_ops.hpp"
#include "core/memory_order.hpp"

namespace hympi::core {

// Layout of the metadata words of the channels (see call_check.hpp). Words 0-5 share the
// sequence word's cache line, 6-12 are the channel's second line: what the fast path
// reads (the CallDesc, the down Status's code, a small call's data) sits in the first.
constexpr int kUpDesc = 0;                               // child's CallDesc (kind 0: see kUpStatus)
constexpr int kUpData = kUpDesc + CallDesc::kWords;      // a small call's data (kInlineBytes)
constexpr int kUpStatus = kUpData + kInlineWords;        // child's subtree Status, read only when kind is 0
constexpr int kDownData = 0;                             // a small call's data
constexpr int kDownStatus = kDownData + kInlineWords + 1;  // the call's final Status (word 4: unused)
constexpr int kFirstLineWords = int((64 - offsetof(Channel, words)) / sizeof(uint64_t));
static_assert(kUpStatus + Status::kWords <= int(kChannelWords));
static_assert(kUpData + kInlineWords <= kFirstLineWords && kDownStatus < kFirstLineWords);
static_assert(kDownStatus + Status::kWords < int(kChannelWords));  // BoardBarrier's kFailedCall is the last

// A CallDesc whose kind is 0 (no CallKind) marks a child whose subtree failed.
constexpr std::array<uint64_t, CallDesc::kWords> kFailedDesc{};

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

template <class Orders>
TreeCollective<Orders>::TreeCollective(int self, std::vector<Participant> participants,
                                       Tree tree, std::size_t buffer_bytes, WaitConfig wait,
                                       std::vector<int> world_ranks, CallBoard<Orders>* board,
                                       std::size_t sliced_min_bytes, std::size_t piece_bytes)
    : self_(self),
      participants_(std::move(participants)),
      tree_(std::move(tree)),
      buffer_bytes_(buffer_bytes),
      sliced_min_bytes_(sliced_min_bytes),
      piece_bytes_(piece_bytes),
      board_(board),
      wait_(wait),
      world_ranks_(std::move(world_ranks)) {
  written_down_.assign(tree_.children(self_).size(), -1);
  if (tree_.size() != int(participants_.size()) || tree_.root() != 0)
    throw std::invalid_argument("TreeCollective: the tree must span all participants from 0");
  if (tree_.max_children() > kMaxChildren)
    throw Error("hympi: a tree node has " + std::to_string(tree_.max_children()) +
                " children; at most " + std::to_string(kMaxChildren) +
                " are supported: use a smaller arity (HYMPI_TREE=kary:4)");
  // Without a board nothing would find ranks whose counts straddle the bound.
  const int n = tree_.size();
  if (board_ && n >= 2 && n <= kMaxFlat) flat_below_ = flat_max_count(n) + 1;
}

template <class Orders>
void TreeCollective<Orders>::barrier(LeaderStep step) {
  start(barrier_call_.desc, step);
  sweep(sweeps_.next(), barrier_call_, Work{}, step);
}

template <class Orders>
void TreeCollective<Orders>::start(const CallDesc& desc, LeaderStep step, bool flat, const Status& own) {
  if (!board_) return;
  board_->post(desc, step, flat, own);
  call_step_ = step;
}

template <class Orders>
bool TreeCollective<Orders>::travels_flat(const CallDesc& desc, LeaderStep step) const {
  return !step && desc.count < flat_below_;
}

template <class Orders>
void TreeCollective<Orders>::wait(Channel& channel, uint64_t seq, const WaitSite& site) {
  if (!board_) {
    wait_at_least<Orders>(channel, seq, wait_, site);
    return;
  }
  if (!wait_at_least_or<Orders>(channel, seq, wait_, site, [this] { return board_->disagreement(); }))
    board_->fail(self_ == 0 ? call_step_ : LeaderStep{});
}

template <class Orders>
void TreeCollective<Orders>::allreduce(const void* in, void* out, std::size_t count,
                                       Datatype type, Op op, LeaderStep step, const Status& own) {
  Work work{UpData::reduce, DownData::everyone, static_cast<const std::byte*>(in),
            static_cast<std::byte*>(out), count, type, op, -1, own};
  run_chunked(CallDesc{CallKind::allreduce, type, op, -1, count, caller_}, work, step);
}

template <class Orders>
void TreeCollective<Orders>::reduce(const void* in, void* out, std::size_t count,
                                    Datatype type, Op op, int world_root, int node_root,
                                    LeaderStep step, const Status& own) {
  Work work{UpData::reduce, DownData::towards_root, static_cast<const std::byte*>(in),
            self_ == node_root ? static_cast<std::byte*>(out) : nullptr, count, type, op,
            node_root, own};
  run_chunked(CallDesc{CallKind::reduce, type, op, world_root, count, caller_}, work, step);
}

template <class Orders>
void TreeCollective<Orders>::bcast(void* data, std::size_t count, Datatype type,
                                   int world_root, int node_root, LeaderStep step,
                                   const Status& own) {
  const bool source = self_ == node_root;
  Work work{UpData::forward_root, DownData::everyone,
            source ? static_cast<const std::byte*>(data) : nullptr,
            source ? nullptr : static_cast<std::byte*>(data), count, type, Op::sum, node_root, own};
  run_chunked(CallDesc{CallKind::bcast, type, Op::sum, world_root, count, caller_}, work, step);
}

template <class Orders>
void TreeCollective<Orders>::run_chunked(const CallDesc& desc, Work work, LeaderStep step) {
  const Call call(desc);
  const bool flat = travels_flat(desc, step);
  start(desc, step, flat, work.own);
  if (flat) {
    flat_call(call, work);
    return;
  }
  if (work.own.failed()) {  // one sweep without data carries it to every rank, which throws
    work.count = 0;
    sweep(sweeps_.next(), call, work, step);
  }
  const std::size_t elem = size_of(work.type);
  const std::size_t per_chunk = std::max<std::size_t>(1, buffer_bytes_ / elem);
  std::size_t left = work.count;
  do {
    Work chunk = work;
    chunk.count = std::min(left, per_chunk);
    // The same choice on every rank whose arguments match; a rank whose count differs is
    // caught by the CallDesc check of the first sweep either way.
    const bool split = desc.kind == CallKind::allreduce && tree_.size() > 1;
    if (split && chunk.count * elem >= sliced_min_bytes_)
      sliced_allreduce(call, chunk, step);
    else if (split && !step && chunk.count * elem >= 2 * piece_bytes_)
      pipelined_allreduce(call, chunk);
    else
      sweep(sweeps_.next(), call, chunk, step);
    const std::size_t bytes = chunk.count * elem;
    if (work.in) work.in += bytes;
    if (work.out) work.out += bytes;
    left -= chunk.count;
  } while (left > 0);
}

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
void TreeCollective<Orders>::sliced_allreduce(const Call& call, const Work& work, LeaderStep step) {
  const Work sync{UpData::none, DownData::none, nullptr, nullptr, work.count, work.type, work.op, -1};
  const std::size_t elem = size_of(work.type), bytes = work.count * elem;
  std::byte* root = participants_[0].buffer;
  // A failure found in sweep 1 or 2 (the CallDesc check) runs the leader step there, so
  // that the other nodes' leaders, which check in their own sweep 3, learn it.
  sweep(sweeps_.next(), call, sync, step, true);  // 1: earlier readers are done
  const std::size_t p = participants_.size(), k = std::size_t(self_);
  const std::size_t first = work.count * k / p, last = work.count * (k + 1) / p, offset = first * elem;
  const std::size_t slice_bytes = (last - first) * elem;
  std::byte* mine = participants_[self_].buffer;
  std::memcpy(mine, work.in, offset);  // A: every slice but mine, which only I read (from work.in)
  std::memcpy(mine + offset + slice_bytes, work.in + offset + slice_bytes, bytes - offset - slice_bytes);
  sweep(sweeps_.next(), call, sync, step, true);  // 2: every input is in its buffer
  if (last > first) {  // B: my slice, participants in order, into the root's buffer
    auto input = [&](std::size_t q) { return q == k ? work.in + offset : participants_[q].buffer + offset; };
    combine(root + offset, input(0), input(1), last - first, work.type, work.op);
    for (std::size_t q = 2; q < p; ++q) combine(root + offset, root + offset, input(q), last - first, work.type, work.op);
  }
  sweep(sweeps_.next(), call, sync, step);        // 3: the root's buffer holds the chunk's result
  std::memcpy(work.out, root, bytes);  // C
}

template <class Orders>
void TreeCollective<Orders>::pipelined_allreduce(const Call& call, const Work& work) {
  const std::size_t elem = size_of(work.type);
  const std::size_t line = std::max<std::size_t>(1, 64 / elem);  // pieces start on a cache line
  const std::size_t pieces = std::min<std::size_t>(work.count * elem / piece_bytes_, SweepCounter::kSlot);
  const std::size_t per_piece = ((work.count + pieces - 1) / pieces + line - 1) / line * line;
  auto piece = [&](std::size_t j) {
    Work w = work;
    const std::size_t first = std::min(work.count, j * per_piece);
    w.count = std::min(work.count, first + per_piece) - first;
    w.in += first * elem;
    w.out += first * elem;
    w.at = first * elem;
    return w;
  };
  const uint64_t first = sweeps_.next();
  if (tree_.parent(self_) < 0) {  // the root: each piece a whole sweep, down as soon as it is reduced
    for (std::size_t j = 0; j < pieces; ++j) sweep(first + j, call, piece(j), {});
    return;
  }
  bool failed = false;
  for (std::size_t j = 0; j < pieces && !failed; ++j) failed = up_sweep(first + j, call, piece(j));
  for (std::size_t j = 0; j < pieces; ++j)
    if ((failed = down_sweep(first + j, piece(j), failed))) throw Error(failure_.message());
}

template <class Orders>
void TreeCollective<Orders>::flat_call(const Call& call, const Work& work) {
  const uint64_t seq = sweeps_.next();
  const int parity = int(seq / SweepCounter::kSlot % 2);
  const int n = tree_.size();
  const bool own_failed = work.own.failed();
  const std::size_t bytes = own_failed ? 0 : work.count * size_of(work.type);
  const auto& desc = own_failed ? kFailedDesc : call.words;
  // Whose data goes where, by kind (the table at the top of tree_collective.hpp): every
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
  // rule at the top of tree_collective.hpp, the same on every rank.
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
        std::memcpy(mine, work.in, bytes);
        return;
      }
      combine(mine, work.in, from(children[0]), work.count, work.type, work.op);
      for (std::size_t c = 1; c < children.size(); ++c)
        combine(mine, mine, from(children[c]), work.count, work.type, work.op);
      return;
    }
    case UpData::forward_root: {
      if (self_ == work.node_root) {
        std::memcpy(mine, work.in, bytes);
        return;
      }
      for (int child : children)
        if (forwards_root(work) && tree_.in_subtree(child, work.node_root)) std::memcpy(mine, from(child), bytes);
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
    if (work.out) std::memcpy(work.out, mine, bytes);
    return;
  }
  const std::byte* from_parent = inline_from ? inline_from : participants_[parent].buffer + work.at;
  const bool relay = work.down == DownData::everyone ? has_children : self_ != work.node_root;
  if (relay) {  // my children read my buffer, or get it in their words (down_sweep)
    std::memcpy(mine, from_parent, bytes);
    from_parent = mine;  // a local copy is cheaper to read again
  }
  if (work.out) std::memcpy(work.out, from_parent, bytes);
}

template class TreeCollective<TunedOrders>;
template class TreeCollective<SeqCstOrders>;

}  // namespace hympi::core
