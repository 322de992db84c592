#include "core/counter_barrier.hpp"

#include "core/memory_order.hpp"

namespace hympi::core {

template <class Orders>
CounterBarrier<Orders>::CounterBarrier(int self, std::vector<Participant> participants,
                                       Tree tree, bool tree_release, WaitConfig wait,
                                       std::vector<int> world_ranks)
    : self_(self),
      participants_(std::move(participants)),
      tree_(std::move(tree)),
      tree_release_(tree_release),
      wait_(wait),
      world_ranks_(std::move(world_ranks)) {}

template <class Orders>
void CounterBarrier<Orders>::barrier(uint64_t& seq, LeaderStep step) {
  const uint64_t s = ++seq;
  const uint64_t n = participants_.size();
  ++calls_;
  // The counter lives in the leader's block (participant 0), which waits on it.
  Channel& counter = participants_[0].block->arrivals;
  if (self_ == 0) {
    wait_at_least<Orders>(counter, calls_ * (n - 1), wait_,
                          node_site("counter barrier: arrivals", world_ranks_, self_, n > 1 ? 1 : 0));
    Status status;
    if (step) step(nullptr, 0, status);
    if (status.failed()) throw Error(status.message());
  } else {
    counter.seq.fetch_add(1, Orders::publish);  // release: my writes before the barrier
    wake_sleepers<Orders>(counter);
    wait_at_least<Orders>(participants_[self_].block->down, s, wait_,
                          node_site("counter barrier: release", world_ranks_, self_,
                                    tree_release_ ? tree_.parent(self_) : 0));
  }
  // Release: everyone (flat) or my children (tree); the seq value is the call's number.
  if (self_ == 0 && !tree_release_) {
    for (std::size_t r = 1; r < participants_.size(); ++r)
      publish<Orders>(participants_[r].block->down, s);  // release: the barrier is complete
  } else if (tree_release_) {
    for (int child : tree_.children(self_))
      publish<Orders>(participants_[child].block->down, s);  // release: passes the chain on
  }
}

template class CounterBarrier<TunedOrders>;
template class CounterBarrier<SeqCstOrders>;

}  // namespace hympi::core
