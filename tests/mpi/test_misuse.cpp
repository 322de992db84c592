// SPDX-License-Identifier: BSD-3-Clause
// Misuse that must end in the same hympi::Error on every rank at once (never a hang:
// ctest's HYMPI_TIMEOUT turns one into a watchdog abort, which fails the test); a Halo call
// out of order on one rank in the error there and, on every rank that waits for it, the
// error naming it.
// Each case puts the mistake on one rank only (the first, then the last), and the objects
// involved, or new ones, still work afterwards.
#include <gtest/gtest.h>
#include <sys/statvfs.h>

#include <fstream>
#include <functional>
#include <memory>
#include <new>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "hympi/hympi.hpp"
#include "test_util.hpp"

namespace hympi::test {
namespace {

/// Non-zero: operator new throws std::bad_alloc for this many bytes or more (below).
std::size_t refuse_new_from = 0;

/// MPI refusing a communicator (MPICH: 2,046 ids per process), exhausted by the test's own
/// duplicates first: a new Context fails on every rank with a hympi::Error naming the
/// refusal and what hympi holds, not an MPI abort; once some are freed, the next Context
/// works. Its own ctest entries (misuse.comms_exhausted.*, MPICH only: see CMakeLists.txt).
TEST(MisuseResources, CommunicatorsExhaustedIsAnErrorOnEveryRank) {
  MPI_Comm reversed;  // a group no Context has yet: a Context on it needs communicators
  MPI_Comm_split(MPI_COMM_WORLD, 0, world_size() - world_rank(), &reversed);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  std::vector<MPI_Comm> taken;
  constexpr std::size_t kEnough = 200000;
  for (MPI_Comm c; taken.size() < kEnough && MPI_Comm_dup(MPI_COMM_WORLD, &c) == MPI_SUCCESS;) taken.push_back(c);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  const bool refused = taken.size() < kEnough;
  if (refused) {
    std::string message;
    try {
      Context c(reversed);
    } catch (const Error& e) {
      message = e.what();
    }
    EXPECT_NE(message.find("hympi: MPI_Comm_dup failed: "), std::string::npos) << message;
    EXPECT_NE(message.find(" communicators in this process for "), std::string::npos) << message;
    EXPECT_NE(message.find(" ghost-update objects alive"), std::string::npos) << message;
    int mine = message.empty(), any = 0;  // every rank, not only this one
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(any, 0) << "some rank made the Context";
    for (int k = 0; k < 8; ++k) MPI_Comm_free(&taken[taken.size() - 1 - std::size_t(k)]);
    taken.resize(taken.size() - 8);
    Context c(reversed);
    EXPECT_EQ(c.allreduce(1.0, Op::sum), double(world_size()));
  }
  for (MPI_Comm& c : taken) MPI_Comm_free(&c);
  MPI_Comm_free(&reversed);
  if (!refused) GTEST_SKIP() << "this MPI gave " << kEnough << " communicators without refusing one";
}

}  // namespace
}  // namespace hympi::test

// This program's operator new (it replaces the library's, as C++ allows): a rank's memory
// running out, on that rank only. Single-threaded where it is set.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"  // this new is malloc: its delete is free
void* operator new(std::size_t bytes) {
  if (hympi::test::refuse_new_from != 0 && bytes >= hympi::test::refuse_new_from) throw std::bad_alloc();
  if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace hympi::test {
namespace {

/// A ring: points 0 and 1 to each neighbour, ghosts 4.. from them (2 each).
std::vector<NeighborLists> ring_lists() {
  const int me = world_rank(), size = world_size();
  std::vector<NeighborLists> lists;
  for (int peer : {(me + 1) % size, (me + size - 1) % size})
    if (peer != me && (lists.empty() || lists[0].rank != peer)) lists.push_back({peer, {0, 1}, {}});
  for (std::size_t i = 0; i < lists.size(); ++i) lists[i].recv = {4 + 2 * int(i), 5 + 2 * int(i)};
  return lists;
}

Pattern ring(Context& ctx) { return Pattern::from_lists(ctx, 8, ring_lists()); }

/// Updates with fresh values and checks every ghost: the Halo works.
void expect_updates_work(Halo& halo, std::vector<double>& v) {
  const auto lists = ring_lists();
  for (int it = 1; it <= 3; ++it) {
    for (int i = 0; i < 4; ++i) v[std::size_t(i)] = world_rank() * 100 + i + 1000 * it;
    halo.update(v.data());
    for (const NeighborLists& n : lists)
      for (int k = 0; k < 2; ++k) EXPECT_EQ(v[std::size_t(n.recv[std::size_t(k)])], n.rank * 100 + k + 1000 * it);
  }
}

int misuser(int round) { return round == 0 ? 0 : world_size() - 1; }

TEST(Misuse, HaloArgumentsDifferOnOneRank) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  Pattern p = ring(context());
  for (int round : {0, 1}) {
    const bool odd = world_rank() == misuser(round);
    expect_error_on_every_rank([&] { Halo h(p, odd ? Strategy::flat_mpi : Strategy::shm); },
                               "hympi: Halo: ranks passed different strategy: ");
    expect_error_on_every_rank([&] { Halo h(p, Strategy::shm, 1, odd ? HaloMode::buffers : HaloMode::vectors); },
                               "hympi: Halo: ranks passed different mode: ");
    expect_error_on_every_rank([&] { Halo h(p, Strategy::aggregated, odd ? 3 : 1); },
                               "hympi: Halo: ranks passed different field count: ");
  }
  Halo h(p, Strategy::shm);
  std::vector<double> v(8);
  expect_updates_work(h, v);
}

TEST(Misuse, HalosCreatedInADifferentOrder) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  Pattern a = ring(context());
  Pattern b = Pattern::from_lists(context(), 8, {});  // nothing to exchange: another pattern
  const bool even = world_rank() % 2 == 0;
  expect_error_on_every_rank([&] { Halo first(even ? a : b, Strategy::shm); },
                             "hympi: Halo: ranks passed different pattern: the pattern with fingerprint ");
  Halo ha(a, Strategy::shm), hb(b, Strategy::shm);  // the same order everywhere works
  std::vector<double> v(8);
  expect_updates_work(ha, v);
}

TEST(Misuse, DifferentSetupsOnDifferentRanks) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  Pattern p = ring(context());
  const std::vector<int> extents{16, 16};
  expect_error_on_every_rank(
      [&] {
        if (world_rank() == misuser(1)) Halo h(p, Strategy::shm);
        else CartesianGrid g(context(), extents, Stencil::star5);
      },
      "hympi: ranks are in different collective set-ups: a CartesianGrid on rank");
}

TEST(Misuse, InvalidRootOnOneRankOrAll) {
  const int size = world_size();
  double x[3] = {1, 2, 3}, y[3] = {0, 0, 0};
  for (int bad : {-1, size, size + 5}) {
    // Every rank: the same error everywhere.
    expect_error_on_every_rank([&] { context().bcast(x, 3, bad); },
                               "hympi: root " + std::to_string(bad) + " is not a rank of the communicator (size " +
                                   std::to_string(size) + ")");
    expect_error_on_every_rank([&] { context().reduce(x, y, 3, Op::sum, bad); }, "is not a rank of the communicator");
    if (size < 2) continue;
    // One rank: the others' valid root does not let them go on without it.
    for (int round : {0, 1}) {
      const int root = world_rank() == misuser(round) ? bad : 0;
      expect_error_on_every_rank([&] { context().bcast(x, 3, root); }, "hympi: ");
      expect_error_on_every_rank([&] { context().reduce(x, y, 3, Op::sum, root); }, "hympi: ");
    }
  }
  double value = world_rank() + 1.0;  // the Context still works
  EXPECT_EQ(context().allreduce(value, Op::sum), size * (size + 1) / 2.0);
  double b = world_rank() == size - 1 ? 42.0 : 0.0;
  context().bcast(&b, 1, size - 1);
  EXPECT_EQ(b, 42.0);
}

/// A call out of order on one rank (the first, a middle one, the last), while the others
/// update: that rank throws the call-order error, every other rank the error naming it, in
/// that update or a later one (a rank d neighbours away: by its d-th; never the watchdog);
/// every later call throws it, and once the Halo is freed on every rank a new one works.
/// Every strategy, each mistake on each position over the strategies; zero-copy buffers too.
TEST(Misuse, HaloCallOutOfOrderOnOneRankFailsEveryRank) {
  struct Mistake {
    const char* reason;
    std::function<void(Halo&, double*, double*)> make;  // on the misusing rank, instead of one update
    bool buffers = false;
  };
  const std::vector<Mistake> mistakes{
      {"hympi: Halo::end(vectors) out of order: no update is in flight: call begin(v) before end(v)",
       [](Halo& h, double* v, double*) { h.end(v); }},
      {"hympi: Halo::begin(vectors) out of order: an update is in flight: call end(v) before the next begin(v) or "
       "update(v)",
       [](Halo& h, double* v, double*) {
         h.begin(v);
         h.begin(v);
       }},
      {"hympi: Halo::end(send, recv) out of order: the update in flight began with begin(v): end it with end(v)",
       [](Halo& h, double* v, double* w) {
         h.begin(v);
         h.end(static_cast<const double*>(v), w);
       }},
      {"hympi: Halo::end(send, recv) out of order: no update is in flight: call begin(send, recv) before end(send, "
       "recv)",
       [](Halo& h, double* v, double* w) { h.end(static_cast<const double*>(v), w); }},
      {"hympi: Halo::begin(vectors) out of order: an update is in flight: call end(send, recv) before the next "
       "begin(v) or update(v)",
       [](Halo& h, double* v, double* w) {
         h.begin(static_cast<const double*>(v), w);
         h.update(v);
       }},
      {"hympi: Halo::begin_buffers() out of order: one update is acquire(), writes to send_buffer, begin_buffers(), "
       "end_buffers(), reads of recv_buffer",
       [](Halo& h, double*, double*) { h.begin_buffers(); }, true},
  };
  Pattern p = ring(context());
  const int positions[] = {0, world_size() / 2, world_size() - 1};
  std::size_t next = 0;
  auto run = [&](Strategy s, const Mistake& mistake, int bad) {
    const bool me = world_rank() == bad;
    auto h = std::make_unique<Halo>(p, s, 1, mistake.buffers ? HaloMode::buffers : HaloMode::vectors);
    std::vector<double> own(8), w(8);
    double* v = s == Strategy::shm_direct ? h->shared_field<double>() : own.data();
    auto good = [&] {
      if (!mistake.buffers) return h->update(v);
      h->acquire();
      h->begin_buffers();
      h->end_buffers();
    };
    auto attempt = [&](auto call) {
      try {
        call();
      } catch (const Error& e) {
        return std::string(e.what());
      }
      return std::string();
    };
    const std::string naming = "hympi: Halo: rank " + std::to_string(bad) + " could not take part in a ghost update (";
    std::string error;
    if (me) {
      good();  // a good update first: the refusal meets links in use
      error = attempt([&] { mistake.make(*h, v, w.data()); });
      EXPECT_NE(error.find(mistake.reason), std::string::npos) << name_of(s) << ": " << error;
      EXPECT_EQ(error.find(naming), std::string::npos) << name_of(s) << ": " << error;
      error = attempt(good);
    }
    // The others' first update is the good one, which a rank of the bad rank's node may
    // already refuse (it checks the node's refusal at every begin).
    for (int updates = 0; error.empty() && updates <= world_size(); ++updates) error = attempt(good);
    EXPECT_NE(error.find(naming + mistake.reason + ")"), std::string::npos) << name_of(s) << ": '" << error << "'";
    EXPECT_EQ(attempt(good), error) << name_of(s);
    h.reset();  // collective, with the refused update's messages still pending
  };
  for (Strategy s : all_strategies()) {
    if (s == Strategy::automatic) continue;  // runs one of the others
    for (int position : positions) {
      const Mistake& mistake = mistakes[next++ % (mistakes.size() - 1)];  // the vectors' mistakes in turn
      run(s, mistake, position);
    }
  }
  for (int position : positions) run(Strategy::shm, mistakes.back(), position);
  Halo h(p, Strategy::shm);
  std::vector<double> v(8);
  expect_updates_work(h, v);
}

/// One rank's arrays fail an update's checks (a field too many, the wrong element type,
/// for shm_direct an array that is not its shared field): that rank throws its reason, every
/// other rank the error naming it, in that update or, when it waited for nobody, in a later
/// one (a rank d neighbours away: by its d-th; never the watchdog); every later call throws
/// it, and once the Halo is freed on every rank a new one works. Every strategy, the
/// baselines that block in MPI (rma_fence, rma_pscw) too; round 2 refuses at end(), after a
/// begin() that went through.
TEST(Misuse, HaloArraysWrongOnOneRankFailEveryRank) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  Pattern p = ring(context());
  for (Strategy s : all_strategies())
    for (int round : {0, 1, 2}) {
      if (s == Strategy::automatic) continue;  // runs one of the others
      const int bad = misuser(round % 2);
      const bool me = world_rank() == bad;
      auto h = std::make_unique<Halo>(p, s);
      std::vector<double> own(8);
      std::vector<float> other_type(8);
      double* v = s == Strategy::shm_direct ? h->shared_field<double>() : own.data();
      void* two[2] = {v, v};
      const std::string reason =
          round == 0 ? "hympi: Halo was set up for 1 field(s), got 2"
          : s == Strategy::shm_direct
              ? "hympi: Halo(shm_direct) moves the vectors of Halo::shared_field(); field 0 is another array"
              : "hympi: Halo: the pattern moves double, the vectors passed hold float";
      auto wrong = [&] {
        if (round == 0) return h->update(std::span<void* const>(two));
        if (round == 2) h->begin(v);
        if (s == Strategy::shm_direct) round == 2 ? h->end(own.data()) : h->update(own.data());
        else round == 2 ? h->end(other_type.data()) : h->update(other_type.data());
      };
      auto attempt = [&] {
        try {
          me ? wrong() : h->update(v);
        } catch (const Error& e) {
          return std::string(e.what());
        }
        return std::string();
      };
      const std::string naming = "hympi: Halo: rank " + std::to_string(bad) + " could not take part in a ghost update (";
      std::string error;
      if (me) {
        h->update(v);  // a good update first: the refusal meets links in use
        error = attempt();
        EXPECT_NE(error.find(reason), std::string::npos) << name_of(s) << ": " << error;
        EXPECT_EQ(error.find(naming), std::string::npos) << name_of(s) << ": " << error;
        error = attempt();
      }
      // The others' first update is the good one, which a rank of the bad rank's node may
      // already refuse (it checks the node's refusal at every begin).
      for (int updates = 0; error.empty() && updates <= world_size(); ++updates) error = attempt();
      EXPECT_NE(error.find(naming + reason + ")"), std::string::npos) << name_of(s) << ": '" << error << "'";
      EXPECT_EQ(attempt(), error) << name_of(s);
      h.reset();  // collective, with the refused update's messages still pending
    }
  Halo h(p, Strategy::shm);
  std::vector<double> v(8);
  expect_updates_work(h, v);
}

TEST(Misuse, OptionsDifferOnOneRank) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  for (int round : {0, 1}) {
    Options o = Options::from_env();
    if (world_rank() == misuser(round)) o.barrier = BarrierAlgorithm::counter_flat;
    expect_error_on_every_rank([&] { Context c(MPI_COMM_WORLD, o); },
                               "hympi: Context: ranks passed different HYMPI_BARRIER: ");
    o = Options::from_env();
    if (world_rank() == misuser(round)) o.node_size = o.node_size == 1 ? 2 : 1;
    expect_error_on_every_rank([&] { Context c(MPI_COMM_WORLD, o); },
                               "hympi: Context: ranks passed different HYMPI_NODE_SIZE: ");
  }
}

/// A malformed HYMPI_* variable on one rank only (one host's environment): the Context's
/// set-up fails on every rank, naming that rank and the variable; then a Context works.
TEST(Misuse, MalformedEnvironmentOnOneRank) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  const char* name = "HYMPI_COLL_BUFFER";
  const char* before = std::getenv(name);
  const std::string saved = before ? before : "";
  for (int round : {0, 1}) {
    if (world_rank() == misuser(round)) setenv(name, "lots", 1);
    expect_error_on_every_rank([&] { Context c(MPI_COMM_WORLD); },
                               "hympi: Context set-up refused on rank " + std::to_string(misuser(round)) + ": ");
    expect_error_on_every_rank([&] { Context c(MPI_COMM_WORLD); }, name);
    if (before)
      setenv(name, saved.c_str(), 1);
    else
      unsetenv(name);
  }
  Context c(MPI_COMM_WORLD);
  double one = 1, sum = 0;
  c.allreduce(&one, &sum, 1, Op::sum);
  EXPECT_EQ(sum, world_size());
}

/// Across emulated nodes of one rank, under every barrier algorithm: a barrier on some
/// nodes against an allreduce on the others reaches every rank as the same error.
TEST(Misuse, BarrierAgainstAllreduceUnderEveryBarrier) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  for (BarrierAlgorithm algorithm :
       {BarrierAlgorithm::combining, BarrierAlgorithm::counter_tree, BarrierAlgorithm::counter_flat,
        BarrierAlgorithm::dissemination}) {
    for (int node_size : {1, 2}) {
      Options o = Options::from_env();
      o.barrier = algorithm;
      o.node_size = node_size;
      Context c(MPI_COMM_WORLD, o);
      if (c.topology().node_count() < 2) continue;
      const bool first_node = c.topology().node_index() == 0;
      expect_error_on_every_rank(
          [&] {
            if (first_node) c.barrier();
            else c.allreduce(1.0, Op::sum);
          },
          "hympi: ranks called a collective with different arguments: ");
      c.barrier();  // still usable
      EXPECT_EQ(c.allreduce(1.0, Op::sum), double(world_size()));
    }
  }
}

/// Inside one node (real, or emulated nodes of two ranks and more), a barrier checked by
/// the CallBoard (counter or dissemination) on one rank of the first node (its leader, then rank 1) against an allreduce on the
/// others: no channel joins the two protocols, so the node's CallBoard finds it. The same
/// error on every rank, also on other nodes; after a counter barrier that Context then
/// refuses every call (on every rank) and a new one works (also beside it), after a dissemination barrier
/// (the default) the same Context goes on.
TEST(Misuse, BoardBarrierAgainstAllreduceInsideANode) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  for (BarrierAlgorithm algorithm :
       {BarrierAlgorithm::counter_tree, BarrierAlgorithm::counter_flat, BarrierAlgorithm::dissemination})
    for (int misuser : {0, 1}) {
      SCOPED_TRACE(std::string("barrier=") + name_of(algorithm) + ", rank " + std::to_string(misuser) + " in it");
      Options o = Options::from_env();
      o.barrier = algorithm;
      if (o.node_size == 1) continue;  // nodes of one rank: the internode case, tested above
      Context c(MPI_COMM_WORLD, o);
      c.barrier();
      expect_error_on_every_rank(
          [&] {
            if (world_rank() == misuser) c.barrier();
            else c.allreduce(1.0, Op::sum);
          },
          "hympi: ranks called a collective with different arguments: ");
      if (algorithm == BarrierAlgorithm::dissemination) {
        for (int k = 0; k < 20; ++k) {
          c.barrier();
          EXPECT_EQ(c.allreduce(1.0, Op::sum), double(world_size()));
        }
      } else {
        expect_error_on_every_rank([&] { c.allreduce(1.0, Op::sum); },
                                   "That Context cannot be used any more: create a new Context.");
        Context beside(MPI_COMM_WORLD, o);  // the same options, made while `c` is broken: not its engine
        beside.barrier();
        EXPECT_EQ(beside.allreduce(1.0, Op::sum), double(world_size()));
      }
    }
  Options o = Options::from_env();
  o.barrier = BarrierAlgorithm::counter_tree;
  Context fresh(MPI_COMM_WORLD, o);
  fresh.barrier();
  EXPECT_EQ(fresh.allreduce(1.0, Op::sum), double(world_size()));
}

/// A Halo whose shared vectors do not fit in /dev/shm fails on every rank, frees what it
/// had made (its communicator, windows), and the program goes on with another Halo.
TEST(Misuse, HaloSetupThatFailsLeavesNothingBehind) {
  Pattern small = ring(context());
  struct statvfs fs{};
  ASSERT_EQ(statvfs("/dev/shm", &fs), 0);
  const std::size_t shm_bytes = std::size_t(fs.f_blocks) * fs.f_frsize;
  if (shm_bytes / 64 >= std::size_t(1) << 30) GTEST_SKIP() << "/dev/shm too large for an int chunk";
  const int chunk = int(shm_bytes / (8 * sizeof(double))) + 1;  // 8 points of `chunk` doubles: more than /dev/shm
  Pattern huge = Pattern::from_lists(context(), 8, ring_lists(), chunk);
  // One node: its shared vectors exceed /dev/shm. Several: its internode messages exceed
  // MPI's int counts first (checked before anything is allocated).
  const std::string expected = context().topology().node_count() == 1
                                   ? "hympi: cannot allocate a shared window: the node needs "
                                   : " in one MPI message; MPI counts are int";
  // Three attempts let MPI map what it makes on first use (MPICH 5: the shared collective
  // buffers of a long-lived communicator, after a few collectives on it); three more must
  // add nothing.
  const auto attempts = [&] {
    for (int attempt = 0; attempt < 3; ++attempt)
      expect_error_on_every_rank([&] { Halo h(huge, Strategy::shm_direct); }, expected);
  };
  attempts();
  const auto before = shared_mappings();
  attempts();
  EXPECT_EQ(shared_mappings(), before) << "a failed Halo set-up left shared memory mapped";
  if (world_size() > 1)  // the same messages through MPI exceed its int counts: found before anything is sent
    expect_error_on_every_rank([&] { Halo h(huge, Strategy::flat_mpi); }, " in one MPI message; MPI counts are int");
  Halo h(small, Strategy::shm);
  std::vector<double> v(8);
  expect_updates_work(h, v);
}

/// A Halo whose set-up fails on one rank only after the set-up's agreement (here memory for
/// the MPI buffers of its part: operator new refuses on that rank, as when its node is out of
/// memory; or a local MPI call fails): the same error on every rank, naming it, not a Halo
/// on the others that hangs at its first update; then a Halo works.
TEST(Misuse, HaloSetupThatFailsOnOneRankFailsOnEveryRank) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  Pattern big = Pattern::from_lists(context(), 8, ring_lists(), 1 << 18);  // 2 MiB per point
  for (int round : {0, 1}) {
    const int bad = misuser(round);
    if (world_rank() == bad) refuse_new_from = 1 << 20;
    expect_error_on_every_rank([&] { Halo h(big, Strategy::flat_mpi); },
                               "hympi: Halo: rank " + std::to_string(bad) +
                                   " could not set up its part of the ghost update (std::bad_alloc); the set-up "
                                   "failed on every rank");
    refuse_new_from = 0;
  }
  Halo h(ring(context()), Strategy::shm);
  std::vector<double> v(8);
  expect_updates_work(h, v);
}

/// A Context whose collective buffers do not fit in /dev/shm: made (its collectives' shared
/// memory comes at its first collective call), then every collective fails on every rank,
/// each call trying again, and leaves no shared memory mapped; a Context with buffers that
/// fit works.
TEST(Misuse, ContextWhoseBuffersDoNotFitFailsAtEveryCollective) {
  struct statvfs fs{};
  ASSERT_EQ(statvfs("/dev/shm", &fs), 0);
  Options too_big = Options::from_env();
  too_big.collective_buffer_bytes = std::size_t(fs.f_blocks) * fs.f_frsize + (1 << 20);
  {
    Context c(MPI_COMM_WORLD, too_big);
    // Three rounds let MPI map what it makes on a communicator's first uses (MPICH 5: its
    // shared collective buffers, after a few collectives); three more must add nothing.
    const auto attempts = [&] {
      for (int attempt = 0; attempt < 3; ++attempt) {
        expect_error_on_every_rank([&] { c.allreduce(1.0, Op::sum); },
                                   "hympi: cannot allocate a shared window: the node needs ");
        expect_error_on_every_rank([&] { c.barrier(); }, " communicators in this process for ");
      }
    };
    attempts();
    const auto before = shared_mappings();
    attempts();
    EXPECT_EQ(shared_mappings(), before) << "a failed first collective left shared memory mapped";
  }
  Context c(MPI_COMM_WORLD);
  EXPECT_EQ(c.allreduce(1.0, Op::sum), double(world_size()));
}

/// A rank's first collective call on a Context against a Halo's set-up on the others: the
/// collective's making of its shared memory is a set-up too, and the same error reaches
/// every rank; then both work, in the same order everywhere.
TEST(Misuse, FirstCollectiveAgainstAHaloSetup) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  Options fresh = Options::from_env();
  fresh.collective_buffer_bytes += 4096;  // not the engine of context(): its first call is still to come
  Context c(MPI_COMM_WORLD, fresh);
  Pattern p = ring(c);
  expect_error_on_every_rank(
      [&] {
        if (world_rank() == misuser(1)) c.barrier();
        else Halo h(p, Strategy::shm);
      },
      "hympi: ranks are in different collective set-ups: a Halo on ");
  c.barrier();
  EXPECT_EQ(c.allreduce(1.0, Op::sum), double(world_size()));
  Halo h(p, Strategy::shm);
  std::vector<double> v(8);
  expect_updates_work(h, v);
}

}  // namespace
}  // namespace hympi::test
