// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "core/coll/board_barrier.hpp"
#include "core/coll/tree_collective.hpp"
#include "core/memory_order.hpp"
#include "thread_team.hpp"

using namespace hympi;
using namespace hympi::core;

namespace {

/// The three barriers of BoardBarrier: counter arrival with a flat or a tree release, and
/// dissemination.
struct Kind {
  Arrival arrival;
  bool tree_release;
};
constexpr Kind kKinds[] = {{Arrival::counter, false}, {Arrival::counter, true}, {Arrival::dissemination, false}};

/// One rank's BoardBarrier and tree collective over the same blocks (binary tree), with
/// the CallBoard they share.
struct Protocols {
  Protocols(const test::ThreadTeam& team, int rank, Kind kind)
      : tree(Tree::build(TreeSpec{TreeShape::kary, 2}, team.size())),
        board(rank, team.participants(), wait, team.ranks(), kind.arrival == Arrival::dissemination),
        coll(rank, team.participants(), tree, 4096, wait, team.ranks(), &board),
        counter(rank, team.participants(), tree, kind.arrival, kind.tree_release, wait, team.ranks(), coll.sweeps(), board) {}
  WaitConfig wait{WaitPolicy::adaptive, true, 60.0};
  Tree tree;
  CallBoard<TunedOrders> board;
  TreeCollective<TunedOrders> coll;
  BoardBarrier<TunedOrders> counter;
};

}  // namespace

TEST(BoardBarrier, EveryKindMixesWithTreeCollectives) {
  for (Kind kind : kKinds)
    for (int n : {1, 2, 3, 7, 8}) {
      test::ThreadTeam team(n, 4096);
      std::vector<std::atomic<int>> phase(n);
      team.run([&](int rank) {
        Protocols e(team, rank, kind);
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
// gets the failure, with every kind of barrier, and the next barrier of either protocol works.
TEST(BoardBarrier, LeaderFailureReachesEveryRank) {
  for (Kind kind : kKinds) {
    const int n = 6;
    test::ThreadTeam team(n, 4096);
    std::vector<std::string> messages(n);
    team.run([&](int rank) {
      Protocols e(team, rank, kind);
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

// A BoardBarrier on some ranks of a node against a tree allreduce on the others: no
// channel connects the two, so the CallBoard finds it. Every rank gets the same error
// (the leader's call against the first rank whose call differs), the leader's step runs
// with it; after a counter barrier every later call throws that the node's protocols
// stopped half way, after a dissemination barrier the next calls work.
TEST(BoardBarrier, AgainstATreeCollectiveEveryRankGetsTheSameError) {
  for (Kind kind : kKinds)
    for (int n : {2, 3, 6})
      for (int split : {0, 1, n - 1}) {
        test::ThreadTeam team(n, 4096);
        std::vector<std::string> messages(n), later(n);
        std::vector<std::atomic<int>> phase(n);
        std::atomic<int> steps{0};
        team.run([&](int rank) {
          Protocols e(team, rank, kind);
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
            if (kind.arrival == Arrival::dissemination)  // both protocols go on, correct, a barrier first
              for (int k = 1; k <= 50; ++k) {
                phase[rank].store(k, std::memory_order_relaxed);
                e.counter.barrier();
                for (int q = 0; q < n; ++q) ASSERT_GE(phase[q].load(std::memory_order_relaxed), k);
                double one = 1, total = 0;
                e.coll.allreduce(&one, &total, 1, Datatype::float64, Op::sum);
                ASSERT_EQ(total, n);
              }
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
          if (kind.arrival == Arrival::dissemination)  // the node goes on
            EXPECT_EQ(later[r], "");
          else
            EXPECT_NE(later[r].find("That Context cannot be used any more: create a new Context."), std::string::npos)
                << later[r];
        }
      }
}

// The same against an allreduce in pieces (no leader step, chunks of 4 KiB: two pieces of
// one sequence number each): every rank gets the same error, and beside the dissemination
// barrier every later call works, pieces included (the failed call took one slot of
// sequence numbers on every rank).
TEST(BoardBarrier, AgainstAnAllreduceInPiecesTheNodeGoesOn) {
  const Kind kind{Arrival::dissemination, false};
  for (int n : {2, 3, 6})
    for (int split : {0, 1, n - 1}) {
      test::ThreadTeam team(n, 4096);
      std::vector<std::string> messages(n), later(n);
      team.run([&](int rank) {
        Protocols e(team, rank, kind);
        e.counter.barrier();
        const bool in_barrier = split == 0 ? rank == 0 : rank >= split;
        std::vector<double> in(1000), out(1000);
        for (int k = 0; k <= 50; ++k) {
          for (std::size_t i = 0; i < in.size(); ++i) in[i] = double(rank * 100 + k + int(i % 7));
          try {
            if (k == 0 && in_barrier) e.counter.barrier();
            else e.coll.allreduce(in.data(), out.data(), in.size(), Datatype::float64, Op::sum);
            if (k == 0) ADD_FAILURE() << "rank " << rank << ": the mixed call returned";
            for (std::size_t i = 0; k > 0 && i < in.size(); ++i)
              ASSERT_EQ(out[i], double(100 * n * (n - 1) / 2 + n * (k + int(i % 7)))) << "call " << k;
            if (k > 0) e.counter.barrier();
          } catch (const Error& error) {
            (k == 0 ? messages : later)[rank] = error.what();
          }
        }
      });
      for (int r = 0; r < n; ++r) {
        EXPECT_FALSE(messages[r].empty()) << "rank " << r;
        EXPECT_EQ(messages[r], messages[0]);
        EXPECT_EQ(later[r], "") << "n " << n << " split " << split;
      }
    }
}

// A flat allreduce against a tree one (counts on both sides of flat_max_count), and the
// same with bcasts and with reduces: every rank gets the same error, and with every kind of barrier the
// node goes on, barriers included: no rank was in a barrier, so even a counter barrier's
// board stays usable.
TEST(BoardBarrier, FlatAgainstTreeCallTheNodeGoesOnWithEveryBarrier) {
  for (Kind kind : kKinds)
    for (int n : {2, 3, 7})
      for (CallKind call : {CallKind::allreduce, CallKind::bcast, CallKind::reduce}) {
        test::ThreadTeam team(n, 4096);
        std::vector<std::string> messages(n), later(n);
        const std::size_t above = flat_max_count(n) + 1;
        team.run([&](int rank) {
          Protocols e(team, rank, kind);
          e.counter.barrier();
          std::vector<double> in(above, 1.0), out(above);
          try {
            const std::size_t count = rank == n - 1 ? above : above - 1;
            if (call == CallKind::bcast) e.coll.bcast(rank == 0 ? in.data() : out.data(), count, Datatype::float64, 0, 0);
            if (call == CallKind::reduce) e.coll.reduce(in.data(), out.data(), count, Datatype::float64, Op::sum, 0, 0);
            if (call == CallKind::allreduce) e.coll.allreduce(in.data(), out.data(), count, Datatype::float64, Op::sum);
            ADD_FAILURE() << "rank " << rank << ": the mixed call returned";
          } catch (const Error& error) {
            messages[rank] = error.what();
          }
          try {
            for (int k = 1; k <= 30; ++k) {
              e.counter.barrier();
              for (std::size_t count : {above - 1, above}) {
                for (double& x : in) x = double(rank + k);
                e.coll.allreduce(in.data(), out.data(), count, Datatype::float64, Op::sum);
                ASSERT_EQ(out[count - 1], double(n * (n - 1) / 2 + n * k));
                if (call != CallKind::bcast) continue;
                e.coll.bcast(rank == k % n ? in.data() : out.data(), count, Datatype::float64, k % n, k % n);
                if (rank != k % n) { ASSERT_EQ(out[count - 1], double(k % n + k)); }
              }
            }
          } catch (const Error& error) {
            later[rank] = error.what();
          }
        });
        for (int r = 0; r < n; ++r) {
          EXPECT_EQ(messages[r], messages[0]);
          EXPECT_NE(messages[r].find("count=" + std::to_string(above)), std::string::npos) << messages[r];
          EXPECT_EQ(later[r], "") << "n " << n << " rank " << r;
        }
      }
}
