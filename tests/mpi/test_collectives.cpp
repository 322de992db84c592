// SPDX-License-Identifier: BSD-3-Clause
// hympi's collectives against the MPI library's on the same data, at any rank count,
// with real or emulated nodes; then long runs of consecutive calls with changing data
// and random delays; then the mismatch errors; then Contexts sharing one engine.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "hympi/context.hpp"
#include "hympi/halo.hpp"
#include "mpi/coll/context_access.hpp"
#include "mpi/support/mpi_types.hpp"
#include "test_util.hpp"

using hympi::Datatype;
using hympi::Op;

namespace {

using namespace hympi::test;  // world_rank, world_size, env_long

template <class T>
MPI_Datatype mpi_type() {
  return hympi::mpi::mpi_type(hympi::datatype_of<T>());
}
using hympi::mpi::mpi_op;

// Inputs whose products stay small: values in {-2, -1, 1, 2} for prod, else wider.
template <class T>
std::vector<T> inputs(std::size_t count, Op op, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<T> v(count);
  for (auto& x : v) {
    int r = int(gen() % 2001) - 1000;
    if (op == Op::prod) x = T((r % 2 ? 1 : 2) * (r < 0 ? -1 : 1));
    else if constexpr (std::is_floating_point_v<T>) x = T(r) / T(7);
    else x = T(r);
  }
  return v;
}

template <class T>
void expect_close(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      // The tree's summation order differs from MPI's: allow a few ulps per rank.
      const T tol = T(world_size()) * std::numeric_limits<T>::epsilon() * T(1e3) * (1 + std::abs(want[i]));
      ASSERT_NEAR(got[i], want[i], tol) << what << " i=" << i;
    } else {
      ASSERT_EQ(got[i], want[i]) << what << " i=" << i;
    }
  }
}

template <class T>
void against_mpi(hympi::Context& ctx, std::size_t count) {
  const int me = world_rank(), n = world_size();
  for (Op op : {Op::sum, Op::prod, Op::min, Op::max}) {
    const std::string what = std::string(hympi::name_of(hympi::datatype_of<T>())) + " " +
                             hympi::name_of(op) + " count=" + std::to_string(count);
    auto in = inputs<T>(count, op, 1000u * me + unsigned(count));
    std::vector<T> mine(count), ref(count);
    ctx.allreduce(in.data(), mine.data(), count, op);
    MPI_Allreduce(in.data(), ref.data(), int(count), mpi_type<T>(), mpi_op(op), MPI_COMM_WORLD);
    expect_close(mine, ref, "allreduce " + what);
    // Identical bits on every rank: compare with rank 0's result.
    std::vector<T> zeros(mine);
    MPI_Bcast(zeros.data(), int(count), mpi_type<T>(), 0, MPI_COMM_WORLD);
    ASSERT_TRUE(count == 0 || 0 == std::memcmp(zeros.data(), mine.data(), count * sizeof(T))) << what;

    auto in_place = in;
    ctx.allreduce(in_place.data(), in_place.data(), count, op);
    ASSERT_EQ(in_place, mine) << "in place " << what;

    // Reduce and bcast against the MPI_Allreduce reference and the root's inputs, which
    // every rank can make itself: few MPI calls (MPICH's cost milliseconds when ranks
    // outnumber cores).
    for (int root : {0, n - 1, n / 2}) {
      std::vector<T> out(count, T(-3));
      ctx.reduce(in.data(), out.data(), count, op, root);
      if (me == root) expect_close(out, ref, "reduce " + what);
      else ASSERT_EQ(out, std::vector<T>(count, T(-3))) << "reduce wrote on a non-root rank";

      const auto root_in = inputs<T>(count, op, 1000u * root + unsigned(count));
      std::vector<T> data = me == root ? root_in : std::vector<T>(count, T(0));
      ctx.bcast(data.data(), count, root);
      ASSERT_EQ(data, root_in) << "bcast root " << root << " " << what;
    }
  }
}

}  // namespace

TEST(Collectives, EveryTypeOpAndCountAgainstMpi) {
  hympi::Options options = hympi::Options::from_env();
  options.collective_buffer_bytes = 4096;  // forces chunking for the larger counts
  hympi::Context ctx(MPI_COMM_WORLD, options);
  for (std::size_t count : {0, 1, 7, 1000}) {
    against_mpi<double>(ctx, count);
    against_mpi<float>(ctx, count);
    against_mpi<int32_t>(ctx, count);
    against_mpi<int64_t>(ctx, count);
  }
}

// On one node, allreduce chunks of 4 KiB up to 16 KiB go through the tree in 2-7 pieces
// of one sequence number each (kPieceBytes, src/core/coll/pipelined_allreduce.hpp); 2 KiB and, across nodes,
// every size below 16 KiB go whole.
TEST(Collectives, PipelinedSizesAgainstMpi) {
  hympi::Context ctx(MPI_COMM_WORLD);
  for (std::size_t count : {256, 700, 1500, 2047}) {
    against_mpi<double>(ctx, count);
    against_mpi<float>(ctx, count);
  }
}

TEST(Collectives, MillionElementsAgainstMpi) {
  hympi::Context ctx(MPI_COMM_WORLD);
  const std::size_t count = 1000000;
  auto in = inputs<double>(count, Op::sum, 7u + world_rank());
  std::vector<double> mine(count), ref(count);
  ctx.allreduce(in.data(), mine.data(), count, Op::sum);
  MPI_Allreduce(in.data(), ref.data(), int(count), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  expect_close(mine, ref, "allreduce 1e6 doubles");
  auto ints = inputs<int64_t>(count, Op::max, 9u + world_rank());
  std::vector<int64_t> imine(count), iref(count);
  ctx.allreduce(ints.data(), imine.data(), count, Op::max);
  MPI_Allreduce(ints.data(), iref.data(), int(count), MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  ASSERT_EQ(imine, iref);
}

TEST(Collectives, ConsecutiveCallsWithChangingDataAndDelays) {
  // Every barrier variant; values depend on (rank, iteration) so each call is checked
  // exactly without an MPI call in the loop (MPICH does not yield when oversubscribed).
  const long iterations = env_long("HYMPI_TEST_ITERATIONS", 100000);
  const int me = world_rank(), n = world_size();
  for (auto algorithm : {hympi::BarrierAlgorithm::combining, hympi::BarrierAlgorithm::counter_tree,
                         hympi::BarrierAlgorithm::counter_flat, hympi::BarrierAlgorithm::dissemination}) {
    hympi::Options options = hympi::Options::from_env();
    options.barrier = algorithm;
    hympi::Context ctx(MPI_COMM_WORLD, options);
    std::mt19937 gen(99u + me);
    const long calls = algorithm == hympi::BarrierAlgorithm::combining ? iterations : iterations / 10;
    long bad = 0;
    for (long k = 0; k < calls; ++k) {
      if (gen() % 512 == 0) std::this_thread::sleep_for(std::chrono::microseconds(gen() % 50));
      int64_t x = int64_t(me + 1) * (k % 1000 + 1);
      switch (k % 4) {
        case 0: ctx.barrier(); break;
        case 1: bad += ctx.allreduce(x, Op::sum) != int64_t(n) * (n + 1) / 2 * (k % 1000 + 1); break;
        case 2: bad += ctx.allreduce(double(x), Op::max) != double(int64_t(n) * (k % 1000 + 1)); break;
        case 3: {
          int32_t v = me == int(k % n) ? int32_t(k) : -1;
          ctx.bcast(&v, 1, int(k % n));
          bad += v != int32_t(k);
          break;
        }
      }
      if (k % 20000 == 19999) MPI_Barrier(MPI_COMM_WORLD);  // MPI calls in between are fine
    }
    EXPECT_EQ(bad, 0) << "wrong results with barrier=" << hympi::name_of(algorithm);
  }
}

/// The barrier property itself, under every algorithm: each rank writes its phase k into
/// a shared window before barrier k, and after it finds every rank of its shared-memory
/// domain at phase k or later (relaxed accesses: the barrier must order them). Random
/// delays vary the order of arrival.
TEST(Collectives, NoRankLeavesABarrierBeforeEveryRankArrived) {
  MPI_Comm domain;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &domain);
  int size = 0, me = 0;
  MPI_Comm_size(domain, &size);
  MPI_Comm_rank(domain, &me);
  long* mine = nullptr;
  MPI_Win win;
  MPI_Win_allocate_shared(sizeof(long), sizeof(long), MPI_INFO_NULL, domain, &mine, &win);
  std::vector<long*> phase(std::size_t(size), nullptr);
  for (int r = 0; r < size; ++r) {
    MPI_Aint bytes;
    int unit;
    MPI_Win_shared_query(win, r, &bytes, &unit, &phase[std::size_t(r)]);
  }
  long next = 0;
  for (auto algorithm : {hympi::BarrierAlgorithm::combining, hympi::BarrierAlgorithm::counter_tree,
                         hympi::BarrierAlgorithm::counter_flat, hympi::BarrierAlgorithm::dissemination}) {
    hympi::Options options = hympi::Options::from_env();
    options.barrier = algorithm;
    hympi::Context ctx(MPI_COMM_WORLD, options);
    std::mt19937 gen(7u + unsigned(world_rank()));
    long early = 0;
    for (long k = 0; k < std::max(20L, env_long("HYMPI_TEST_ITERATIONS", 100000) / 50); ++k) {
      if (gen() % 64 == 0) std::this_thread::sleep_for(std::chrono::microseconds(gen() % 100));
      std::atomic_ref<long>(*mine).store(++next, std::memory_order_relaxed);
      ctx.barrier();
      for (long* p : phase) early += std::atomic_ref<long>(*p).load(std::memory_order_relaxed) < next;
    }
    EXPECT_EQ(early, 0) << "ranks left barrier=" << hympi::name_of(algorithm) << " before all arrived";
  }
  MPI_Win_free(&win);
  MPI_Comm_free(&domain);
}

TEST(Collectives, SeqCstOrdersAgree) {
  hympi::Options options = hympi::Options::from_env();
  options.orders = hympi::MemoryOrders::seq_cst;
  hympi::Context ctx(MPI_COMM_WORLD, options);
  against_mpi<double>(ctx, 7);
}

TEST(Collectives, MismatchedArgumentsThrowOnEveryRank) {
  hympi::Context ctx(MPI_COMM_WORLD);
  const int me = world_rank(), n = world_size();
  if (n < 2) GTEST_SKIP() << "needs two ranks to disagree";
  std::vector<double> buf(64, 1.0), big(200000, 1.0);
  struct Case {
    const char* name;
    std::function<void()> call;
    const char* expect;
  };
  const bool odd = me == n - 1;
  std::vector<Case> cases = {
      {"count", [&] { ctx.allreduce(buf.data(), buf.data(), odd ? 11 : 10, Op::sum); }, "count=11"},
      // Chunks reduced in slices (>= 16 KiB), found in their first sweep, which has no leader
      // step of its own: the failure must still reach the other nodes' leaders.
      {"sliced count", [&] { ctx.allreduce(big.data(), big.data(), odd ? 100001 : 100000, Op::sum); }, "count=100001"},
      {"sliced against tree", [&] { ctx.allreduce(big.data(), big.data(), odd ? 10 : 100000, Op::sum); }, "count=10"},
      // Chunks in pieces (4-16 KiB on one node): counts that cut 5 and 3 pieces, or none.
      {"pieces count", [&] { ctx.allreduce(big.data(), big.data(), odd ? 1500 : 1000, Op::sum); }, "count=1500"},
      {"pieces against tree", [&] { ctx.allreduce(big.data(), big.data(), odd ? 10 : 1000, Op::sum); }, "count=10"},
      {"type", [&] { ctx.allreduce(buf.data(), buf.data(), 4, odd ? Datatype::float32 : Datatype::float64, Op::sum); }, "float"},
      {"op", [&] { ctx.allreduce(buf.data(), buf.data(), 4, Datatype::float64, odd ? Op::min : Op::sum); }, "min"},
      {"root", [&] { ctx.bcast(buf.data(), 4, odd ? n - 1 : 0); }, "root="},
      {"kind", [&] { if (odd) ctx.barrier(); else ctx.allreduce(buf.data(), buf.data(), 0, Op::sum); }, "barrier()"},
      // One rank's own bad argument: the others' calls are fine, every rank fails naming it.
      {"null input", [&] { ctx.allreduce(odd ? nullptr : buf.data(), buf.data(), 10, Op::sum); }, "with a null input buffer"},
      {"null input, sliced", [&] { ctx.allreduce(odd ? nullptr : big.data(), big.data(), 100000, Op::sum); },
       "with a null input buffer"},
      {"null input, pieces", [&] { ctx.allreduce(odd ? nullptr : big.data(), big.data(), 1000, Op::sum); },
       "with a null input buffer"},
      {"type that is none", [&] { ctx.allreduce(buf.data(), buf.data(), 4, odd ? Datatype(9) : Datatype::float64, Op::sum); },
       "with a type that is none of float64"},
      {"op that is none", [&] { ctx.reduce(buf.data(), buf.data(), 4, Datatype::float64, odd ? Op(7) : Op::sum, 0); },
       "with an op that is none of sum"},
      {"null root output", [&] { ctx.reduce(buf.data(), me == 0 ? nullptr : buf.data(), 4, Datatype::float64, Op::sum, 0); },
       "hympi: rank 0 called reduce(count=4, double, sum, root=0) with a null output buffer"},
  };
  for (auto& c : cases) {
    std::string message;
    try {
      c.call();
    } catch (const hympi::Error& e) {
      message = e.what();
    }
    EXPECT_NE(message.find(c.expect), std::string::npos) << c.name << ": '" << message << "'";
    // The same message on every rank: compare lengths and a checksum with rank 0's.
    long sig[2] = {long(message.size()), long(std::hash<std::string>{}(message) & 0xffffff)};
    long max[2], min[2];
    MPI_Allreduce(sig, max, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(sig, min, 2, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
    EXPECT_TRUE(max[0] == min[0] && max[1] == min[1]) << c.name << ": messages differ between ranks";
    // Still in step afterwards.
    EXPECT_EQ(ctx.allreduce(1, Op::sum), n) << c.name;
  }
}

namespace {

/// The engine a Context runs on (its shared arena), to tell a shared one from its own.
const void* engine_of(hympi::Context& c) { return &hympi::detail::ContextAccess::arena(c); }

/// An allreduce whose result names the Context and its communicator: rank r gives
/// r * 7 + salt, so a call served by another Context's data would show.
void expect_sum(hympi::Context& c, int64_t salt, const std::string& what) {
  const int64_t n = c.topology().world_size(), r = c.topology().world_rank();
  ASSERT_EQ(c.allreduce(r * 7 + salt, Op::sum), 7 * n * (n - 1) / 2 + n * salt) << what;
}

}  // namespace

/// Contexts on congruent communicators (the same one again, duplicates) with the same
/// options share one engine: thousands alive at once, each computing right, freed in a
/// shuffled order (the same on every rank) with new ones made in between.
/// HYMPI_TEST_CONTEXTS: how many (default 100; 2,000 in contexts.thousands.*).
TEST(ContextSharing, ThousandsOnDuplicatesEachRight) {
  const std::size_t count = std::size_t(env_long("HYMPI_TEST_CONTEXTS", 100));
  std::vector<MPI_Comm> comms(20, MPI_COMM_WORLD);  // comms[0]: MPI_COMM_WORLD itself
  for (std::size_t d = 1; d < comms.size(); ++d) MPI_Comm_dup(MPI_COMM_WORLD, &comms[d]);
  std::vector<std::unique_ptr<hympi::Context>> contexts;
  for (std::size_t i = 0; i < count; ++i) {
    contexts.push_back(std::make_unique<hympi::Context>(comms[i % comms.size()]));
    ASSERT_EQ(engine_of(*contexts[i]), engine_of(*contexts[0])) << "Context " << i << " has an engine of its own";
  }
  for (std::size_t i = 0; i < count; ++i) expect_sum(*contexts[i], int64_t(i), "Context " + std::to_string(i));
  std::vector<std::size_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(5));
  for (std::size_t k = 0; k < count; ++k) {
    contexts[order[k]].reset();
    if (k % 50 == 0) {  // a new one beside the survivors, and a survivor still right
      contexts.push_back(std::make_unique<hympi::Context>(comms[k % comms.size()]));
      expect_sum(*contexts.back(), -int64_t(k), "a Context made after " + std::to_string(k) + " were freed");
      if (k + 1 < count) expect_sum(*contexts[order[k + 1]], 3, "survivor " + std::to_string(order[k + 1]));
    }
  }
  contexts.clear();
  for (std::size_t d = 1; d < comms.size(); ++d) MPI_Comm_free(&comms[d]);
}

/// Another group (a split, the same ranks in another order) or other options (on every
/// rank, or on one rank only: the wait settings may differ per rank) get an engine of
/// their own, on every rank; each computes right beside the others.
TEST(ContextSharing, OtherGroupOrOptionsGetTheirOwnEngine) {
  const int me = world_rank(), n = world_size();
  hympi::Context a(MPI_COMM_WORLD);
  hympi::Options other = hympi::Options::from_env();
  other.tree_arity = other.tree_arity == 2 ? 3 : 2;
  hympi::Context b(MPI_COMM_WORLD, other);
  hympi::Options one_rank = hympi::Options::from_env();
  if (me == 0) one_rank.timeout_s += 1;
  hympi::Context c(MPI_COMM_WORLD, one_rank);
  MPI_Comm half, reversed;
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
  MPI_Comm_split(MPI_COMM_WORLD, 0, n - me, &reversed);
  hympi::Context d(half), e(reversed);
  EXPECT_NE(engine_of(b), engine_of(a)) << "other options on every rank";
  EXPECT_NE(engine_of(c), engine_of(a)) << "other options on rank 0";
  if (n > 1) {
    EXPECT_NE(engine_of(d), engine_of(a)) << "half of the ranks";
    EXPECT_NE(engine_of(e), engine_of(a)) << "the ranks in reverse order";
  }
  for (int round = 0; round < 3; ++round)
    for (hympi::Context* x : {&a, &b, &c, &d, &e}) expect_sum(*x, round, "round " + std::to_string(round));
  MPI_Comm_free(&half);
  MPI_Comm_free(&reversed);
}

/// Ranks in collectives of two Contexts of one engine (erroneous in MPI: collectives on
/// two communicators in different orders) fail on every rank with a message naming both;
/// both Contexts go on.
TEST(ContextSharing, RanksInDifferentContextsFailOnEveryRank) {
  const int me = world_rank(), n = world_size();
  if (n < 2) GTEST_SKIP() << "needs two ranks";
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  {
    hympi::Context a(MPI_COMM_WORLD), b(dup);
    ASSERT_EQ(engine_of(a), engine_of(b));
    for (int odd : {0, n - 1}) {
      hympi::test::expect_error_on_every_rank([&] { (me == odd ? b : a).allreduce(1.0, Op::sum); },
                                              "hympi: ranks called collectives of different Contexts: rank ");
      expect_sum(a, odd, "a after the mismatch");
      expect_sum(b, -odd, "b after the mismatch");
    }
  }
  MPI_Comm_free(&dup);
}

/// MPI's progress rule through hympi: rank 0 MPI_Isends 4 MiB or 10,000 bytes to rank 1
/// and enters a Context's collectives and a ghost update before it waits for the send;
/// rank 1 receives first. The rendezvous (4 MiB) and the fragments (10,000 bytes with MPICH
/// 4.0 over shared memory) need rank 0's progress while it waits in hympi for rank 1 (it
/// hung before hympi's waits drove MPI; MPICH 4.0 at least for the first 10,000-byte message
/// of a run). Six rounds, the sizes alternating from 10,000 bytes, data and results checked.
TEST(Progress, PendingIsendCompletesWhileWaitingInHympi) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) GTEST_SKIP() << "needs two ranks";
  hympi::Context ctx(MPI_COMM_WORLD);
  // A ring: point 0 goes to the right neighbour, point 1 is the ghost from the left.
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  std::vector<hympi::NeighborLists> lists;
  if (right == left) lists.push_back({right, {0}, {1}});
  else lists = {{right, {0}, {}}, {left, {}, {1}}};
  hympi::Halo halo(hympi::Pattern::from_lists(ctx, 2, lists), hympi::Strategy::shm);
  std::vector<double> big(std::size_t(4) << 17);  // 4 MiB
  for (int round = 0; round < 6; ++round) {
    const std::size_t n = round % 2 ? big.size() : 10000 / sizeof(double);
    MPI_Request request = MPI_REQUEST_NULL;
    if (rank == 0) {
      for (std::size_t i = 0; i < n; ++i) big[i] = round * 1e7 + double(i);
      MPI_Isend(big.data(), int(n), MPI_DOUBLE, 1, round, MPI_COMM_WORLD, &request);
    } else if (rank == 1) {
      MPI_Recv(big.data(), int(n), MPI_DOUBLE, 0, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += big[i] != round * 1e7 + double(i);
      EXPECT_EQ(wrong, 0u) << "round " << round;
    }
    EXPECT_EQ(ctx.allreduce(int64_t(rank + round), Op::sum), int64_t(size) * (size - 1) / 2 + int64_t(size) * round);
    double v[2] = {rank * 10.0 + round, -1};
    halo.update(v);
    EXPECT_EQ(v[1], left * 10.0 + round) << "round " << round;
    ctx.barrier();
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
}
