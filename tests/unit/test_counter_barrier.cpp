#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "core/counter_barrier.hpp"
#include "core/memory_order.hpp"
#include "thread_team.hpp"

using namespace hympi;
using namespace hympi::core;

TEST(CounterBarrier, FlatAndTreeReleaseMixWithTreeCollectives) {
  for (bool tree_release : {false, true})
    for (int n : {1, 2, 3, 7, 8}) {
      test::ThreadTeam team(n, 4096);
      std::vector<std::atomic<int>> phase(n);
      team.run([&](int rank) {
        WaitConfig wait{WaitPolicy::adaptive, true, 60.0};
        Tree tree = Tree::build(TreeSpec{TreeShape::kary, 2}, n);
        TreeCollective<TunedOrders> coll(rank, team.participants(), tree, 4096, wait, team.ranks());
        CounterBarrier<TunedOrders> counter(rank, team.participants(), tree, tree_release, wait, team.ranks(),
                                            coll.sweeps());
        unsigned noise = 31u * rank + 3;
        for (int k = 1; k <= test::scaled(3000); ++k) {
          test::jitter(noise);
          phase[rank].store(k, std::memory_order_relaxed);
          counter.barrier();
          for (int r = 0; r < n; ++r) ASSERT_GE(phase[r].load(std::memory_order_relaxed), k);
          if (k % 3 == 0) {  // interleave the other protocol on the same channels
            int64_t one = 1, total = 0;
            coll.allreduce(&one, &total, 1, Datatype::int64, Op::sum);
            ASSERT_EQ(total, n);
          } else {
            coll.barrier();
          }
        }
      });
    }
}
