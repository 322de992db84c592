// SPDX-License-Identifier: BSD-3-Clause
// The pipelined allreduce; its protocol and invariants: pipelined_allreduce.hpp.
#include "core/coll/pipelined_allreduce.hpp"

#include <algorithm>
#include <cstddef>

#include "core/coll/tree_collective.hpp"
#include "core/memory_order.hpp"

namespace hympi::core {

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

template void TreeCollective<TunedOrders>::pipelined_allreduce(const Call&, const Work&);
template void TreeCollective<SeqCstOrders>::pipelined_allreduce(const Call&, const Work&);

}  // namespace hympi::core
