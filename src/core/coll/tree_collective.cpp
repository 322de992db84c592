// SPDX-License-Identifier: BSD-3-Clause
// TreeCollective's calls: each call's protocol chosen (tree_collective.hpp), its post on
// the CallBoard and the waits that scan it.
#include "core/coll/tree_collective.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "core/coll/call_board.hpp"
#include "core/memory_order.hpp"

namespace hympi::core {

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

template class TreeCollective<TunedOrders>;
template class TreeCollective<SeqCstOrders>;

}  // namespace hympi::core
