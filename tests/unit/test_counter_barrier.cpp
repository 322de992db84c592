#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "core/counter_barrier.hpp"
#include "core/memory_order.hpp"
#include "thread_team.hpp"

using namespace hympi;
using namespace hympi::core;

namespace {

/// One rank's counter barrier and tree collective over the same blocks (binary tree),
/// with the CallBoard they share.
struct Engines {
  Engines(const test::ThreadTeam& team, int rank, bool tree_release)
      : tree(Tree::build(TreeSpec{TreeShape::kary, 2}, team.size())),
        board(rank, team.participants(), wait, team.ranks()),
        coll(rank, team.participants(), tree, 4096, wait, team.ranks(), &board),
        counter(rank, team.participants(), tree, tree_release, wait, team.ranks(), coll.sweeps(), board) {}
  WaitConfig wait{WaitPolicy::adaptive, true, 60.0};
  Tree tree;
  CallBoard<TunedOrders> board;
  TreeCollective<TunedOrders> coll;
  CounterBarrier<TunedOrders> counter;
};

}  // namespace

TEST(CounterBarrier, FlatAndTreeReleaseMixWithTreeCollectives) {
  for (bool tree_release : {false, true})
    for (int n : {1, 2, 3, 7, 8}) {
      test::ThreadTeam team(n, 4096);
      std::vector<std::atomic<int>> phase(n);
      team.run([&](int rank) {
        Engines e(team, rank, tree_release);
        unsigned noise = 31u * rank + 3;
        for (int k = 1; k <= test::scaled(3000); ++k) {
          test::jitter(noise);
          phase[rank].store(k, std::memory_order_relaxed);
          e.counter.barrier();
          for (int r = 0; r < n; ++r) ASSERT_GE(phase[r].load(std::memory_order_relaxed), k);
          if (k % 3 == 0) {  // interleave the other protocol on the same channels
            int64_t one = 1, total = 0;
            e.coll.allreduce(&one, &total, 1, Datatype::int64, Op::sum);
            ASSERT_EQ(total, n);
          } else {
            e.coll.barrier();
          }
        }
      });
    }
}

// The leader's step fails (another node called something else): every rank of the node
// gets the failure, in both release shapes, and the next barrier of either kind works.
TEST(CounterBarrier, LeaderFailureReachesEveryRank) {
  for (bool tree_release : {false, true}) {
    const int n = 6;
    test::ThreadTeam team(n, 4096);
    std::vector<std::string> messages(n);
    team.run([&](int rank) {
      Engines e(team, rank, tree_release);
      const CallDesc other{CallKind::allreduce, Datatype::float64, Op::sum, -1, 1};
      auto mismatch = [&](std::byte*, std::size_t, Status& s) {
        s = Status::mismatch(0, CallDesc{CallKind::barrier, Datatype::float64, Op::sum, -1, 0}, 7, other);
      };
      try {
        e.counter.barrier(LeaderStep(mismatch));
      } catch (const Error& error) {
        messages[rank] = error.what();
      }
      e.counter.barrier();
      e.coll.barrier();
      e.counter.barrier();
    });
    for (int r = 0; r < n; ++r) {
      EXPECT_EQ(messages[r], messages[0]);
      EXPECT_NE(messages[r].find("rank 7 called allreduce"), std::string::npos) << messages[r];
    }
  }
}

// A counter barrier on some ranks of a node against a tree allreduce on the others: no
// channel connects the two, so the CallBoard finds it. Every rank gets the same error
// (the leader's call against the first rank whose call differs), the leader's step runs
// with it, and every later call throws that the node's protocols stopped half way.
TEST(CounterBarrier, AgainstATreeCollectiveEveryRankGetsTheSameError) {
  for (bool tree_release : {false, true})
    for (int n : {2, 3, 6})
      for (int split : {0, 1, n - 1}) {
        test::ThreadTeam team(n, 4096);
        std::vector<std::string> messages(n), later(n);
        std::atomic<int> steps{0};
        team.run([&](int rank) {
          Engines e(team, rank, tree_release);
          e.counter.barrier();  // a good call first: the board numbers calls alike
          // split 0: only the leader in the barrier; otherwise ranks >= split are.
          const bool in_barrier = split == 0 ? rank == 0 : rank >= split;
          auto step = [&](std::byte*, std::size_t, Status& s) {
            EXPECT_TRUE(s.failed());
            steps.fetch_add(1, std::memory_order_relaxed);
          };
          try {
            if (in_barrier) {
              e.counter.barrier(LeaderStep(step));
            } else {
              double one = 1, total = 0;
              e.coll.allreduce(&one, &total, 1, Datatype::float64, Op::sum, LeaderStep(step));
            }
            ADD_FAILURE() << "rank " << rank << ": the mixed call returned";
          } catch (const Error& error) {
            messages[rank] = error.what();
          }
          try {
            e.coll.barrier();
          } catch (const Error& error) {
            later[rank] = error.what();
          }
        });
        const std::string first = split == 0 ? "rank 0 called barrier" : "rank 0 called allreduce";
        EXPECT_EQ(steps.load(), 1) << "the leader's step runs once, with the failure";
        for (int r = 0; r < n; ++r) {
          EXPECT_EQ(messages[r], messages[0]);
          EXPECT_NE(messages[r].find(first), std::string::npos) << messages[r];
          EXPECT_NE(later[r].find("That Context cannot be used any more: create a new Context."), std::string::npos)
              << later[r];
        }
      }
}
