// SPDX-License-Identifier: BSD-3-Clause
#include "core/coll/board_barrier.hpp"

#include <exception>
#include <string>

#include "core/memory_order.hpp"

namespace hympi::core {
namespace {

constexpr std::size_t kFailedCall = kChannelWords - 1;  // beyond TreeCollective's down words

}  // namespace

template <class Orders>
BoardBarrier<Orders>::BoardBarrier(int self, std::vector<Participant> participants, Tree tree, Arrival arrival,
                                   bool tree_release, WaitConfig wait, std::vector<int> world_ranks,
                                   SweepCounter& sweeps, CallBoard<Orders>& board)
    : self_(self),
      participants_(std::move(participants)),
      tree_(std::move(tree)),
      arrival_(arrival),
      tree_release_(tree_release && arrival == Arrival::counter),
      wait_(wait),
      world_ranks_(std::move(world_ranks)),
      sweeps_(sweeps),
      board_(board) {
  if (arrival_ == Arrival::dissemination && participants_.size() > (std::size_t(1) << kMaxRounds))
    throw Error("hympi: the dissemination barrier takes at most " + std::to_string(1u << kMaxRounds) +
                " ranks per node; set HYMPI_BARRIER=combining");
}

template <class Orders>
bool BoardBarrier<Orders>::rounds(FunctionRef<bool()> other_call) {
  const std::size_t n = participants_.size(), me = std::size_t(self_);
  const uint64_t call = board_.calls();  // not calls_: a failed call leaves no flag a later one accepts
  for (std::size_t r = 0, d = 1; d < n; ++r, d *= 2) {
    publish_before_waiting<Orders>(participants_[(me + d) % n].block->rounds[r], call);  // release: all I know so far
    const int from = int((me + n - d) % n);
    if (!wait_at_least_or<Orders>(participants_[me].block->rounds[r], call, wait_,
                                  node_site("dissemination barrier: a round's partner", world_ranks_, self_, from),
                                  other_call))  // acquire: all the partner knew
      return false;
  }
  return true;
}

template <class Orders>
void BoardBarrier<Orders>::barrier(LeaderStep step) {
  static constexpr CallDesc kBarrier{CallKind::barrier, Datatype::float64, Op::sum, -1, 0};
  board_.post(kBarrier, step);
  auto other_call = [this] { return board_.disagreement(); };
  const uint64_t s = sweeps_.next();
  const uint64_t n = participants_.size();
  ++calls_;
  // Without a leader step the rounds alone make the barrier; a counter always needs the release.
  const bool released = arrival_ == Arrival::counter || bool(step);
  if (arrival_ == Arrival::dissemination && !rounds(other_call)) board_.fail(self_ == 0 ? step : LeaderStep{});
  // The counter lives in the leader's block (participant 0), which waits on it.
  Channel& counter = participants_[0].block->arrivals;
  bool failed = false;
  std::exception_ptr leader_error;
  if (self_ == 0) {
    if (arrival_ == Arrival::counter &&
        !wait_at_least_or<Orders>(counter, calls_ * (n - 1), wait_,
                                  node_site("counter barrier: arrivals", world_ranks_, self_, n > 1 ? 1 : 0),
                                  other_call))
      board_.fail(step);
    Status status;
    try {
      if (step) step(nullptr, 0, status);
    } catch (...) {
      leader_error = std::current_exception();
      status = Status::leader_error(world_ranks_[0], kBarrier);
    }
    failed = status.failed();
    if (failed) store_words<Orders>(status, counter.words);  // published by the releases below
  } else if (released) {
    if (arrival_ == Arrival::counter) {
      counter.seq.fetch_add(1, Orders::publish);  // release: my writes before the barrier
      wake_sleepers<Orders>(counter);
    }
    Channel& down = participants_[self_].block->down;
    if (!wait_at_least_or<Orders>(down, s, wait_,
                                  node_site("barrier: release", world_ranks_, self_,
                                            tree_release_ ? tree_.parent(self_) : 0),
                                  other_call))
      board_.fail({});
    failed = down.words[kFailedCall].load(Orders::hint) == s;  // ordered by the seq acquire
  }
  // Release: everyone (flat) or my children (tree); the seq value is the call's number.
  auto release = [&](Channel& down) {
    if (failed) down.words[kFailedCall].store(s, Orders::hint);  // the publish below releases it
    publish<Orders>(down, s);  // release: the barrier is complete (or failed) for this rank
  };
  if (released && self_ == 0 && !tree_release_) {
    for (std::size_t r = 1; r < participants_.size(); ++r) release(participants_[r].block->down);
  } else if (released && tree_release_) {
    for (int child : tree_.children(self_)) release(participants_[child].block->down);
  }
  if (leader_error) std::rethrow_exception(leader_error);
  if (failed) throw Error(load_words<Orders, Status>(counter.words).message());  // after the seq acquire
}

template class BoardBarrier<TunedOrders>;
template class BoardBarrier<SeqCstOrders>;

}  // namespace hympi::core
