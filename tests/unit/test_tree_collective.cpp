// SPDX-License-Identifier: BSD-3-Clause
// The tree collectives over threads, against values every thread can compute itself:
// contributions are f(rank, call, index), so each call checks the exact result.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/coll/call_board.hpp"
#include "core/coll/tree_collective.hpp"
#include "core/memory_order.hpp"
#include "thread_team.hpp"

using namespace hympi;
using namespace hympi::core;
using hympi::test::ThreadTeam;

namespace {

template <class Orders>
TreeCollective<Orders> tree_collective(const ThreadTeam& team, int rank, TreeSpec spec, std::size_t buffer_bytes,
                                       std::size_t sliced_min_bytes = kSlicedMinBytes,
                                       std::size_t piece_bytes = kPieceBytes) {
  WaitConfig wait{WaitPolicy::adaptive, true, 60.0};
  return TreeCollective<Orders>(rank, team.participants(), Tree::build(spec, team.size()),
                                buffer_bytes, wait, team.ranks(), nullptr, sliced_min_bytes, piece_bytes);
}

/// One rank's tree collective beside the node's CallBoard, as a Context with the default
/// (dissemination) barrier has it: allreduces, bcasts and reduces of up to
/// flat_max_count(n) elements then go flat at 2 to kMaxFlat participants.
template <class Orders>
struct BoardNode {
  BoardNode(const ThreadTeam& team, int rank, TreeSpec spec, std::size_t buffer_bytes,
            std::size_t sliced_min_bytes = kSlicedMinBytes,
            std::size_t piece_bytes = kPieceBytes)
      : board(rank, team.participants(), wait, team.ranks(), true),
        coll(rank, team.participants(), Tree::build(spec, team.size()), buffer_bytes, wait, team.ranks(),
             &board, sliced_min_bytes, piece_bytes) {}
  WaitConfig wait{WaitPolicy::adaptive, true, 60.0};
  CallBoard<Orders> board;
  TreeCollective<Orders> coll;
};

int64_t value(int rank, int call, std::size_t i) { return (rank + 1) * 1000 + call * 7 + int64_t(i % 13); }

/// `board`: beside a CallBoard (BoardNode), so small calls go flat.
template <class Orders>
void mixed_calls(int n, TreeSpec spec, std::size_t buffer_bytes, int calls,
                 std::size_t sliced_min_bytes = kSlicedMinBytes,
                 std::size_t piece_bytes = kPieceBytes, bool board = false) {
  ThreadTeam team(n, buffer_bytes);
  std::vector<std::atomic<int>> phase(n);
  team.run([&](int rank) {
    std::unique_ptr<BoardNode<Orders>> node;
    std::unique_ptr<TreeCollective<Orders>> alone;
    if (board) node = std::make_unique<BoardNode<Orders>>(team, rank, spec, buffer_bytes, sliced_min_bytes, piece_bytes);
    else alone = std::make_unique<TreeCollective<Orders>>(tree_collective<Orders>(team, rank, spec, buffer_bytes, sliced_min_bytes, piece_bytes));
    TreeCollective<Orders>& coll = board ? node->coll : *alone;
    unsigned noise = 17u * rank + 1;
    // In the channels' words (kInlineBytes, 32): 1 and 4 int64 or doubles (the allreduces),
    // 1-7 int32 or floats (the bcast and the reduce); in the buffers: 5, 7, 32, 33 and 1000
    // int64 or doubles, 9 and more int32 or floats (36 bytes). Beside a board, allreduces,
    // bcasts and reduces of up to flat_max_count(n) elements go flat instead: 32 at 2
    // participants (33 straddles it), 16 at 3, 10 at 4 (9 within, 32 above), 5 at 7 (5
    // within, 7 above), 4 at 8.
    const std::size_t counts[] = {0, 1, 4, 5, 7, 9, 32, 33, 1000};
    for (int call = 0; call < calls; ++call) {
      test::jitter(noise);
      const std::size_t count = counts[call % 9];
      switch (call % 5) {
        case 0: {  // barrier: everyone's phase write before it is seen after it
          phase[rank].store(call, std::memory_order_relaxed);
          coll.barrier();
          for (int r = 0; r < n; ++r) ASSERT_EQ(phase[r].load(std::memory_order_relaxed), call);
          coll.barrier();  // nobody moves on until all have checked
          break;
        }
        case 1: {  // allreduce int64 sum, in place on odd calls
          std::vector<int64_t> in(count), out(count, -1);
          for (std::size_t i = 0; i < count; ++i) in[i] = value(rank, call, i);
          int64_t* dst = call % 2 ? in.data() : out.data();
          coll.allreduce(in.data(), dst, count, Datatype::int64, Op::sum);
          for (std::size_t i = 0; i < count; ++i) {
            int64_t expect = 0;
            for (int r = 0; r < n; ++r) expect += value(r, call, i);
            ASSERT_EQ(dst[i], expect) << "call " << call << " i " << i;
          }
          break;
        }
        case 2: {  // allreduce double max / min
          std::vector<double> in(count), out(count);
          for (std::size_t i = 0; i < count; ++i) in[i] = 0.5 * double(value(rank, call, i));
          Op op = call % 2 ? Op::max : Op::min;
          coll.allreduce(in.data(), out.data(), count, Datatype::float64, op);
          for (std::size_t i = 0; i < count; ++i)
            ASSERT_EQ(out[i], 0.5 * double(value(op == Op::max ? n - 1 : 0, call, i)));
          break;
        }
        case 3: {  // bcast from a rotating root
          const int root = call % n;
          std::vector<int32_t> data(count, -7);
          if (rank == root)
            for (std::size_t i = 0; i < count; ++i) data[i] = int32_t(value(root, call, i));
          coll.bcast(data.data(), count, Datatype::int32, root, root);
          for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(data[i], int32_t(value(root, call, i)));
          break;
        }
        case 4: {  // reduce (float sum of small integers: exact) to a rotating root
          const int root = (call / 5) % n;
          std::vector<float> in(count, float(rank + 1)), out(count, -1.0f);
          coll.reduce(in.data(), out.data(), count, Datatype::float32, Op::sum, root, root);
          const float expect = float(n * (n + 1) / 2);
          for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(out[i], rank == root ? expect : -1.0f);
          break;
        }
      }
    }
  });
}

}  // namespace

// 1000 int64 or doubles (8000 bytes) are in pieces by default (kPieceBytes 2 KiB: 3
// pieces, one sequence number each).
TEST(TreeCollective, MixedConsecutiveCallsAllSizesAndShapes) {
  for (int n : {1, 2, 3, 4, 7, 8})
    for (TreeSpec spec : {TreeSpec{TreeShape::kary, 2}, TreeSpec{TreeShape::kary, 4},
                          TreeSpec{TreeShape::binomial, 0}})
      mixed_calls<TunedOrders>(n, spec, 64 * 1024, test::scaled(2000));
}

// Beside a CallBoard the allreduces, bcasts and reduces of up to flat_max_count(n) elements
// go flat (one exchange through the flat channels, both parities, then reused), mixed with
// tree calls on the same blocks; 9 participants is above kMaxFlat (the tree again, with the
// board).
TEST(TreeCollective, FlatSmallCallsMixedWithTreeCalls) {
  for (int n : {1, 2, 3, 4, 7, 8, 9})
    for (TreeSpec spec : {TreeSpec{TreeShape::kary, 2}, TreeSpec{TreeShape::binomial, 0}})
      mixed_calls<TunedOrders>(n, spec, 64 * 1024, test::scaled(2000), kSlicedMinBytes,
                               kPieceBytes, true);
  mixed_calls<SeqCstOrders>(4, TreeSpec{TreeShape::kary, 4}, 4096, test::scaled(1000),
                            kSlicedMinBytes, kPieceBytes, true);
}

// Flat calls that disagree: allreduce counts that differ within the bound (the flat protocol's
// own check), counts on both sides of it (one rank in the tree: the CallBoard), another
// type on participant 0 itself, a rank's own invalid argument, the same with a count of
// its own (as a binding that refused an argument passes; the others in the tree: the
// CallBoard reports that rank's failure, not the protocols' mismatch), a barrier; flat
// bcasts whose roots differ, a flat reduce among flat bcasts (the flat check compares
// kinds and roots too). Every rank throws the same message, no data moves, and every rank
// goes on with both protocols.
TEST(TreeCollective, FlatMismatchEveryRankTheSameErrorThenGoesOn) {
  enum Variant { counts_within, counts_straddle, type_on_zero, own_failure, refused, barrier, bcast_root, reduce_kind };
  for (int n : {2, 3, 7, 8})
    for (Variant variant :
         {counts_within, counts_straddle, type_on_zero, own_failure, refused, barrier, bcast_root, reduce_kind}) {
      ThreadTeam team(n, 4096);
      std::vector<std::string> messages(n);
      const int odd = variant == type_on_zero ? 0 : n - 1;
      team.run([&](int rank) {
        BoardNode<TunedOrders> node(team, rank, TreeSpec{TreeShape::kary, 2}, 4096);
        // 3 elements go flat at every n here, flat_max_count(n) + 1 through the tree.
        const std::size_t above = flat_max_count(n) + 1;
        std::vector<double> in(above), out(above, -1.0);
        for (std::size_t i = 0; i < above; ++i) in[i] = double(i + 1);
        std::size_t count = variant == refused ? above : 3;
        Datatype type = Datatype::float64;
        Status own;
        if (rank == odd) {
          if (variant == counts_within) count = 2;
          if (variant == counts_straddle) count = above;
          if (variant == type_on_zero) type = Datatype::int64;
          if (variant == refused) count = 1;
          if (variant == own_failure || variant == refused)
            own = Status::invalid_argument(rank, CallDesc{CallKind::allreduce, type, Op::sum, -1, count}, Argument::out);
        }
        try {
          const bool bcasts = variant == bcast_root || variant == reduce_kind;
          const int root = variant == bcast_root && rank == odd ? 1 : 0;
          if (variant == barrier && rank == odd) node.coll.barrier();
          else if (variant == reduce_kind && rank == odd) node.coll.reduce(in.data(), out.data(), count, type, Op::sum, 0, 0);
          else if (bcasts) node.coll.bcast(rank == root ? in.data() : out.data(), count, type, root, root);
          else node.coll.allreduce(in.data(), out.data(), count, type, Op::sum, {}, own);
          ADD_FAILURE() << "rank " << rank << ": the call returned";
        } catch (const Error& e) {
          messages[rank] = e.what();
        }
        for (double x : out) ASSERT_EQ(x, -1.0) << "a failed call moved data";
        for (int k = 1; k <= 20; ++k) {  // both protocols go on, both parities
          for (double& x : in) x = double(rank + k);
          node.coll.allreduce(in.data(), out.data(), 1 + k % 4, Datatype::float64, Op::sum);
          for (int i = 0; i < 1 + k % 4; ++i) ASSERT_EQ(out[i], double(n * (n - 1) / 2 + n * k));
          node.coll.allreduce(in.data(), out.data(), above, Datatype::float64, Op::max);
          ASSERT_EQ(out[above - 1], double(n - 1 + k));
        }
      });
      for (int r = 0; r < n; ++r) {
        EXPECT_FALSE(messages[r].empty()) << "variant " << variant << " rank " << r;
        EXPECT_EQ(messages[r], messages[0]) << "variant " << variant;
      }
      const std::string named = "rank " + std::to_string(odd);
      EXPECT_NE(messages[0].find(named), std::string::npos) << messages[0];
      const std::string expected[] = {"count=2", "count=" + std::to_string(flat_max_count(n) + 1), "int64",
                                      "null output buffer", "null output buffer", "barrier", "root=1", "reduce("};
      EXPECT_NE(messages[0].find(expected[variant]), std::string::npos) << messages[0];
    }
}

// Flat calls back to back, with nothing else between them: only the call of the other
// parity in between keeps a channel from being rewritten before its reader has read it
// (rule 3). Allreduces, bcasts and reduces in turn (a bcast's root and a reduce's others
// write no data, yet wait for everyone's CallDesc), roots, counts and values change every
// call; a rank's own failure now and then (every rank throws, then the streak goes on with
// the next parity).
TEST(TreeCollective, FlatCallsBackToBack) {
  for (int n : {2, 3, 5, 8}) {
    const std::size_t most = flat_max_count(n);
    ThreadTeam team(n, 4096);
    team.run([&](int rank) {
      BoardNode<TunedOrders> node(team, rank, TreeSpec{TreeShape::kary, 2}, 4096);
      unsigned noise = 31u * rank + 5;
      std::vector<int64_t> in(most), out(most);
      for (int call = 0; call < test::scaled(3000); ++call) {
        test::jitter(noise);
        const std::size_t count = 1 + std::size_t(call) * 7 % most;
        const CallKind kind = CallKind(int(CallKind::bcast) + call % 3);
        const int root = call / 3 % n;
        for (std::size_t i = 0; i < count; ++i) in[i] = value(rank, call, i);
        std::fill(out.begin(), out.end(), -1);
        Status own;
        const bool fails = call % 97 == 13;
        if (fails && rank == call % n)
          own = Status::invalid_argument(rank, CallDesc{kind, Datatype::int64, Op::sum, -1, count}, Argument::out);
        try {
          if (kind == CallKind::allreduce) node.coll.allreduce(in.data(), out.data(), count, Datatype::int64, Op::sum, {}, own);
          if (kind == CallKind::reduce && rank == root && call % 2) {  // in place at the root (MPI_IN_PLACE)
            std::copy(in.begin(), in.end(), out.begin());
            node.coll.reduce(out.data(), out.data(), count, Datatype::int64, Op::sum, root, root, {}, own);
          } else if (kind == CallKind::reduce) {
            node.coll.reduce(in.data(), out.data(), count, Datatype::int64, Op::sum, root, root, {}, own);
          }
          if (kind == CallKind::bcast) {
            if (rank == root) std::copy(in.begin(), in.end(), out.begin());
            node.coll.bcast(out.data(), count, Datatype::int64, root, root, {}, own);
          }
          ASSERT_FALSE(fails) << "call " << call << ": a rank's own failure was not reported";
        } catch (const Error& e) {
          ASSERT_TRUE(fails) << "call " << call << ": " << e.what();
          continue;
        }
        for (std::size_t i = 0; i < count; ++i) {
          int64_t expect = 0;
          for (int r = 0; r < n; ++r) expect += value(r, call, i);
          if (kind == CallKind::bcast) expect = value(root, call, i);
          if (kind == CallKind::reduce && rank != root) expect = -1;
          ASSERT_EQ(out[i], expect) << "n " << n << " call " << call << " kind " << int(kind) << " i " << i;
        }
      }
    });
  }
}

// The bound itself: flat_max_count(n) elements go flat (every other participant's flat
// channel of one parity in my block gets the call's number), one more goes through the
// tree (no flat channel changes), for an allreduce, a bcast and a reduce alike; floats
// whose last word is half full (31, 15 and 3 of them: in the tail at 2 and 3
// participants, in the head at 8) arrive exact, summed and broadcast.
TEST(TreeCollective, FlatBoundIsExactAndHalfWordsArrive) {
  static_assert(flat_max_count(2) == 32 && flat_max_count(3) == 16 && flat_max_count(8) == 4);
  for (int n : {2, 3, 8}) {
    const std::size_t most = flat_max_count(n);
    ThreadTeam team(n, 4096);
    team.run([&](int rank) {
      BoardNode<TunedOrders> node(team, rank, TreeSpec{TreeShape::kary, 2}, 4096);
      const CollectiveBlock& mine = *team.participants()[rank].block;
      auto changed_since = [&](std::vector<uint64_t>& seen) {  // flat channels published since `seen`
        int changed = 0;
        for (int p = 0; p < 2; ++p)
          for (int j = 0; j < kMaxFlat; ++j) {
            const uint64_t now = mine.flat[p][j].head.seq.load(std::memory_order_acquire);
            changed += now != seen[p * kMaxFlat + j];
            seen[p * kMaxFlat + j] = now;
          }
        return changed;
      };
      std::vector<uint64_t> seen(2 * kMaxFlat, 0);
      std::vector<double> in(most + 1), out(most + 1);
      for (int round = 1; round <= 20; ++round) {
        for (double& x : in) x = double(rank + round);
        node.coll.allreduce(in.data(), out.data(), most, Datatype::float64, Op::sum);
        ASSERT_EQ(out[most - 1], double(n * (n - 1) / 2 + n * round));
        ASSERT_EQ(changed_since(seen), n - 1) << "n " << n << ": " << most << " elements did not go flat";
        node.coll.allreduce(in.data(), out.data(), most + 1, Datatype::float64, Op::sum);
        ASSERT_EQ(out[most], double(n * (n - 1) / 2 + n * round));
        ASSERT_EQ(changed_since(seen), 0) << "n " << n << ": " << most + 1 << " elements went flat";
        node.coll.barrier();  // nobody writes a flat channel before everyone has looked
        // A bcast and a reduce at the bound and one above it, from a rotating root.
        const int root = round % n;
        for (CallKind kind : {CallKind::bcast, CallKind::reduce})
          for (std::size_t count : {most, most + 1}) {
            for (double& x : in) x = double(rank + round);
            std::fill(out.begin(), out.end(), -1.0);
            double expect = -1.0;
            if (kind == CallKind::bcast) {
              node.coll.bcast(rank == root ? in.data() : out.data(), count, Datatype::float64, root, root);
              if (rank != root) expect = double(root + round);
            } else {
              node.coll.reduce(in.data(), out.data(), count, Datatype::float64, Op::sum, root, root);
              if (rank == root) expect = double(n * (n - 1) / 2 + n * round);
            }
            ASSERT_EQ(out[count - 1], expect) << "n " << n << " kind " << int(kind) << " count " << count;
            ASSERT_EQ(changed_since(seen), count == most ? n - 1 : 0)
                << "n " << n << " kind " << int(kind) << ": " << count << " elements (flat up to " << most << ")";
            node.coll.barrier();
          }
        const std::size_t floats = most % 2 ? most : most - 1;
        std::vector<float> fin(floats), fout(floats), fdata(floats);
        for (std::size_t i = 0; i < floats; ++i) fin[i] = float((rank + 1) * (i + 1) + round);
        node.coll.allreduce(fin.data(), fout.data(), floats, Datatype::float32, Op::sum);
        for (std::size_t i = 0; i < floats; ++i)
          ASSERT_EQ(fout[i], float(n * (n + 1) / 2 * (i + 1) + n * round)) << "n " << n << " element " << i;
        node.coll.bcast(rank == root ? fin.data() : fdata.data(), floats, Datatype::float32, root, root);
        for (std::size_t i = 0; i < floats && rank != root; ++i)
          ASSERT_EQ(fdata[i], float((root + 1) * (i + 1) + round)) << "n " << n << " bcast element " << i;
        changed_since(seen);
        node.coll.barrier();
      }
    });
  }
}

// A flat allreduce sums in participant order on every rank: the same bits everywhere,
// those of the sequential sum 0, 1, ..., n-1 (values whose sum depends on the order), and
// so does a flat reduce's root, at the most elements that go flat (their last words in
// the FlatChannel's tail).
TEST(TreeCollective, FlatFloatSumsTheSameBitsOnEveryRank) {
  for (int n : {3, 5, 8}) {
    const int count = int(flat_max_count(n));
    ThreadTeam team(n, 4096);
    std::vector<std::vector<double>> results(n, std::vector<double>(count));
    std::vector<std::vector<double>> reduced(n, std::vector<double>(count, -7.0));
    auto contribution = [](int rank, int i) { return (rank % 2 ? 1e16 : 1.0) * (0.1 + rank + i) * (rank % 3 ? -1 : 1); };
    team.run([&](int rank) {
      BoardNode<TunedOrders> node(team, rank, TreeSpec{TreeShape::kary, 2}, 4096);
      std::vector<double> in(count);
      for (int i = 0; i < count; ++i) in[i] = contribution(rank, i);
      node.coll.allreduce(in.data(), results[rank].data(), count, Datatype::float64, Op::sum);
      node.coll.reduce(in.data(), reduced[rank].data(), count, Datatype::float64, Op::sum, n - 1, n - 1);
    });
    for (int i = 0; i < count; ++i) {
      double expect = contribution(0, i);
      for (int r = 1; r < n; ++r) expect += contribution(r, i);
      for (int r = 0; r < n; ++r) EXPECT_EQ(results[r][i], expect) << "n " << n << " rank " << r << " element " << i;
      EXPECT_EQ(reduced[n - 1][i], expect) << "n " << n << " reduce, element " << i;
      for (int r = 0; r < n - 1; ++r) EXPECT_EQ(reduced[r][i], -7.0) << "n " << n << ": a reduce wrote rank " << r << "'s output";
    }
  }
}

TEST(TreeCollective, ChunkedThroughSmallBuffers) {
  // 1000 elements through 256-byte buffers: 32-125 sweeps per call.
  for (int n : {2, 3, 8}) mixed_calls<TunedOrders>(n, TreeSpec{TreeShape::kary, 2}, 256, test::scaled(300));
}

TEST(TreeCollective, SlicedAllreduceOfLargeChunks) {
  // Every allreduce of 4 or more elements goes the sliced way (reduce-scatter + allgather
  // through the buffers, in chunks of 512 int64 / doubles), mixed with tree calls; 7
  // elements over 8 participants leaves some slices empty.
  for (int n : {2, 3, 5, 8})
    for (TreeSpec spec : {TreeSpec{TreeShape::kary, 4}, TreeSpec{TreeShape::binomial, 0}})
      mixed_calls<TunedOrders>(n, spec, 4096, test::scaled(600), 16);
}

TEST(TreeCollective, PipelinedAllreduceInPiecesOfOneCacheLine) {
  // 64-byte pieces: 4-7 elements (32-56 bytes) go whole, 1000 in 8 pieces of 128 elements (the
  // slot's limit; the last one short); through 256-byte buffers each chunk of 32 elements
  // goes in 4 pieces of one cache line.
  for (int n : {2, 3, 5, 8})
    for (TreeSpec spec : {TreeSpec{TreeShape::kary, 2}, TreeSpec{TreeShape::binomial, 0}}) {
      mixed_calls<TunedOrders>(n, spec, 64 * 1024, test::scaled(600), kSlicedMinBytes, 64);
      mixed_calls<TunedOrders>(n, spec, 256, test::scaled(200), kSlicedMinBytes, 64);
    }
}

// Ranks whose counts differ split their chunks into different numbers of pieces (8, 5, or
// none): every rank still stops at the first piece with the same error, and every rank
// can go on (each sweep's slot of sequence numbers is the same everywhere).
TEST(TreeCollective, PipelinedMismatchStopsAtTheFirstPieceAndRecovers) {
  const int n = 5;
  for (const std::size_t odd_count : {std::size_t(40), std::size_t(3), std::size_t(0)}) {
    ThreadTeam team(n, 64 * 1024);
    std::vector<std::string> messages(n);
    team.run([&](int rank) {
      auto coll = tree_collective<TunedOrders>(team, rank, TreeSpec{TreeShape::kary, 2}, 64 * 1024,
                                               kSlicedMinBytes, 64);
      std::vector<double> in(1000, 1.0), out(1000, -1.0);
      const bool odd = rank == 3;
      try {
        if (odd && odd_count == 0) coll.barrier();
        else coll.allreduce(in.data(), out.data(), odd ? odd_count : 1000, Datatype::float64, Op::sum);
      } catch (const Error& e) {
        messages[rank] = e.what();
      }
      coll.allreduce(in.data(), out.data(), 1000, Datatype::float64, Op::sum);
      for (double x : out) ASSERT_EQ(x, double(n));
      coll.barrier();
      coll.allreduce(in.data(), out.data(), 500, Datatype::float64, Op::sum);
      ASSERT_EQ(out[499], double(n));
    });
    for (int r = 0; r < n; ++r) {
      EXPECT_FALSE(messages[r].empty()) << "odd count " << odd_count << ": rank " << r << " did not throw";
      EXPECT_EQ(messages[r], messages[0]);
      if (odd_count) {
        EXPECT_NE(messages[r].find("count=" + std::to_string(odd_count)), std::string::npos) << messages[r];
      }
    }
  }
}

TEST(TreeCollective, SeqCstOrdersGiveTheSameResults) {
  mixed_calls<SeqCstOrders>(4, TreeSpec{TreeShape::binomial, 0}, 4096, test::scaled(1000));
}

TEST(TreeCollective, ProdAndInt32Exact) {
  ThreadTeam team(5, 4096);
  team.run([&](int rank) {
    auto coll = tree_collective<TunedOrders>(team, rank, TreeSpec{}, 4096);
    int32_t in[3] = {rank + 1, -1, 2}, out[3];
    coll.allreduce(in, out, 3, Datatype::int32, Op::prod);
    EXPECT_EQ(out[0], 120);
    EXPECT_EQ(out[1], -1);
    EXPECT_EQ(out[2], 32);
  });
}

TEST(TreeCollective, MismatchedCountThrowsTheSameMessageEverywhereThenRecovers) {
  const int n = 7;
  ThreadTeam team(n, 4096);
  std::vector<std::string> messages(n);
  team.run([&](int rank) {
    auto coll = tree_collective<TunedOrders>(team, rank, TreeSpec{TreeShape::kary, 2}, 4096);
    std::vector<double> in(100, 1.0), out(100);
    const std::size_t count = rank == 5 ? 11 : 10;
    try {
      coll.allreduce(in.data(), out.data(), count, Datatype::float64, Op::sum);
    } catch (const Error& e) {
      messages[rank] = e.what();
    }
    // Every rank is still in step: a correct call works afterwards.
    coll.allreduce(in.data(), out.data(), 10, Datatype::float64, Op::sum);
    EXPECT_EQ(out[0], double(n));
  });
  for (int r = 0; r < n; ++r) {
    EXPECT_EQ(messages[r], messages[0]);
    EXPECT_NE(messages[r].find("count=11"), std::string::npos) << messages[r];
    EXPECT_NE(messages[r].find("count=10"), std::string::npos) << messages[r];
    EXPECT_NE(messages[r].find("rank 5"), std::string::npos) << messages[r];
  }
}

TEST(TreeCollective, MismatchedOperationTypeOpOrRootIsReported) {
  const int n = 4;
  for (int variant = 0; variant < 4; ++variant) {
    ThreadTeam team(n, 4096);
    std::vector<int> thrown(n, 0);
    team.run([&](int rank) {
      auto coll = tree_collective<TunedOrders>(team, rank, TreeSpec{}, 4096);
      double x[4] = {1, 2, 3, 4};
      const bool odd = rank == 3;
      try {
        if (variant == 0 && odd) coll.barrier();
        else if (variant == 0) coll.allreduce(x, x, 0, Datatype::float64, Op::sum);
        if (variant == 1) coll.allreduce(x, x, 2, odd ? Datatype::int64 : Datatype::float64, Op::sum);
        if (variant == 2) coll.allreduce(x, x, 2, Datatype::float64, odd ? Op::max : Op::sum);
        if (variant == 3) coll.bcast(x, 2, Datatype::float64, odd ? 1 : 0, odd ? 1 : 0);
      } catch (const Error&) {
        thrown[rank] = 1;
      }
    });
    for (int r = 0; r < n; ++r) EXPECT_EQ(thrown[r], 1) << "variant " << variant << " rank " << r;
  }
}

// A mismatch found in the first sweep of a sliced chunk, which has no leader step of its
// own, still runs the root's leader step once, with the failure: that is how the other
// nodes' leaders learn it (else they wait in their check for this node's leader).
TEST(TreeCollective, SlicedChunkMismatchRunsTheLeaderStepOnceWithTheFailure) {
  const int n = 4;
  for (const std::size_t odd_count : {std::size_t(301), std::size_t(3)}) {  // sliced vs sliced, sliced vs tree
    ThreadTeam team(n, 4096);
    std::atomic<int> steps{0}, failed_steps{0};
    std::vector<std::string> messages(n);
    team.run([&](int rank) {
      auto coll = tree_collective<TunedOrders>(team, rank, TreeSpec{TreeShape::kary, 2}, 4096, 256);
      auto step = [&](std::byte*, std::size_t, Status& status) {
        steps.fetch_add(1);
        if (status.failed()) failed_steps.fetch_add(1);
      };
      std::vector<double> in(400, 1.0), out(400);
      try {
        coll.allreduce(in.data(), out.data(), rank == 2 ? odd_count : 300, Datatype::float64, Op::sum,
                       LeaderStep(step));
      } catch (const Error& e) {
        messages[rank] = e.what();
      }
    });
    EXPECT_EQ(steps.load(), 1) << "odd count " << odd_count;
    EXPECT_EQ(failed_steps.load(), 1) << "odd count " << odd_count;
    for (int r = 0; r < n; ++r) {
      EXPECT_EQ(messages[r], messages[0]);
      EXPECT_NE(messages[r].find("count=" + std::to_string(odd_count)), std::string::npos) << messages[r];
    }
  }
}

// A leader step that throws (an MPI error among node leaders) releases the node with a
// failure: the root rethrows its own error, every other rank throws hympi::Error naming
// the root; nobody is left waiting, and the next call works. A rank's own bad argument
// (an invalid root) fails the call on every rank the same way, without touching data.
TEST(TreeCollective, FailingLeaderStepAndOwnFailureReachEveryRank) {
  const int n = 5;
  ThreadTeam team(n, 4096);
  std::vector<std::string> messages(n), own(n);
  team.run([&](int rank) {
    auto coll = tree_collective<TunedOrders>(team, rank, TreeSpec{TreeShape::kary, 2}, 4096);
    auto failing = [](std::byte*, std::size_t, Status&) { throw std::runtime_error("MPI_Allreduce failed"); };
    double x[2] = {1, 1};
    try {
      coll.allreduce(x, x, 2, Datatype::float64, Op::sum, LeaderStep(failing));
    } catch (const std::exception& e) {
      messages[rank] = e.what();
    }
    const CallDesc bad{CallKind::bcast, Datatype::float64, Op::sum, 9, 2};
    const Status mine = rank == 3 ? Status::invalid_root(rank, bad, n) : Status{};
    double y[2] = {double(rank), double(rank)};
    try {
      coll.bcast(y, 2, Datatype::float64, rank == 3 ? 9 : 0, rank == 3 ? -1 : 0, {}, mine);
    } catch (const Error& e) {
      own[rank] = e.what();
    }
    EXPECT_EQ(y[0], double(rank)) << "a failed call moved data";
    coll.allreduce(x, x, 2, Datatype::float64, Op::sum);
    EXPECT_EQ(x[0], double(n));
  });
  EXPECT_EQ(messages[0], "MPI_Allreduce failed");
  for (int r = 1; r < n; ++r) {
    EXPECT_NE(messages[r].find("failed on rank 0"), std::string::npos) << messages[r];
    EXPECT_EQ(own[r], own[0]);
  }
  EXPECT_NE(own[0].find("rank 3 called bcast(count=2, double, root=9)"), std::string::npos) << own[0];
}
