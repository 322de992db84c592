// SPDX-License-Identifier: BSD-3-Clause
// The sliced allreduce; its protocol and invariants: sliced_allreduce.hpp.
#include "core/coll/sliced_allreduce.hpp"

#include <cstddef>

#include "core/coll/reduce_ops.hpp"
#include "core/coll/tree_collective.hpp"
#include "core/copy.hpp"
#include "core/memory_order.hpp"

namespace hympi::core {

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
  copy_bytes(mine, work.in, offset);  // A: every slice but mine, which only I read (from work.in)
  copy_bytes(mine + offset + slice_bytes, work.in + offset + slice_bytes, bytes - offset - slice_bytes);
  sweep(sweeps_.next(), call, sync, step, true);  // 2: every input is in its buffer
  if (last > first) {  // B: my slice, participants in order, into the root's buffer
    auto input = [&](std::size_t q) { return q == k ? work.in + offset : participants_[q].buffer + offset; };
    combine(root + offset, input(0), input(1), last - first, work.type, work.op);
    for (std::size_t q = 2; q < p; ++q) combine(root + offset, root + offset, input(q), last - first, work.type, work.op);
  }
  sweep(sweeps_.next(), call, sync, step);        // 3: the root's buffer holds the chunk's result
  copy_bytes(work.out, root, bytes);  // C
}

template void TreeCollective<TunedOrders>::sliced_allreduce(const Call&, const Work&, LeaderStep);
template void TreeCollective<SeqCstOrders>::sliced_allreduce(const Call&, const Work&, LeaderStep);

}  // namespace hympi::core
