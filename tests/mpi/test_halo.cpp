// SPDX-License-Identifier: BSD-3-Clause
// The ghost update, every strategy, against a plain-MPI reference and against the exact
// expected values: random graphs (asymmetric, empty ranks, send-only and receive-only
// pairs, scattered ids), structured grids, every element type, chunk 1 and 3, several
// fields, split phase with work between, many consecutive updates with data that changes
// each time and random delays, in one array and in separate send and receive arrays;
// then the setup errors, on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <fstream>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "hympi/halo.hpp"
#include "hympi/messages.hpp"
#include "mpi/support/mpi_types.hpp"
#include "test_util.hpp"

using hympi::Datatype;
using hympi::NeighborLists;
using hympi::Strategy;

namespace {

using namespace hympi::test;  // world_rank, world_size, env_long, context, expect_error_on_every_rank

/// A partition known to every rank (same seed): points owned per rank, and each rank's
/// ghosts as (owner, owner's local id), in the rank's ghost order.
struct Graph {
  std::vector<int> owned;
  std::vector<std::vector<std::pair<int, int>>> ghosts;
  std::vector<int64_t> first_global;  // global id of each rank's local point 0

  int local_points(int r) const { return owned[r] + int(ghosts[r].size()); }
  int64_t global_id(int r, int local) const {
    if (local < owned[r]) return first_global[r] + local;
    auto [owner, id] = ghosts[r][std::size_t(local - owned[r])];
    return first_global[owner] + id;
  }

  /// The lists of rank r, in the orders both sides agree on.
  std::vector<NeighborLists> lists(int r) const {
    const int size = int(owned.size());
    std::vector<NeighborLists> result(static_cast<std::size_t>(size));
    for (int s = 0; s < size; ++s) result[std::size_t(s)].rank = s;
    for (std::size_t g = 0; g < ghosts[r].size(); ++g)
      result[std::size_t(ghosts[r][g].first)].recv.push_back(owned[r] + int(g));
    for (int s = 0; s < size; ++s)
      for (auto [owner, id] : ghosts[s])
        if (owner == r) result[std::size_t(s)].send.push_back(id);
    std::erase_if(result, [](const NeighborLists& n) { return n.send.empty() && n.recv.empty(); });
    return result;
  }
};

/// Random: some ranks own nothing, edges are one-way with probability `p_edge`, ghost
/// ids scattered and their order shuffled across owners.
Graph random_graph(unsigned seed, int max_points, int max_ghosts, double p_edge) {
  const int size = world_size();
  std::mt19937 gen(seed);
  Graph g;
  g.owned.resize(std::size_t(size));
  g.ghosts.resize(std::size_t(size));
  for (int r = 0; r < size; ++r)
    g.owned[std::size_t(r)] = gen() % 5 == 0 ? 0 : int(gen() % unsigned(max_points + 1));
  g.first_global.assign(std::size_t(size), 0);
  for (int r = 1; r < size; ++r) g.first_global[std::size_t(r)] = g.first_global[std::size_t(r - 1)] + g.owned[std::size_t(r - 1)];
  std::uniform_real_distribution<double> coin(0, 1);
  for (int r = 0; r < size; ++r) {
    for (int s = 0; s < size; ++s) {
      if (s == r || g.owned[std::size_t(s)] == 0 || coin(gen) > p_edge) continue;
      std::vector<int> ids(std::size_t(g.owned[std::size_t(s)]));
      std::iota(ids.begin(), ids.end(), 0);
      std::shuffle(ids.begin(), ids.end(), gen);
      const int k = 1 + int(gen() % unsigned(std::min(max_ghosts, g.owned[std::size_t(s)])));
      for (int i = 0; i < k; ++i) g.ghosts[std::size_t(r)].push_back({s, ids[std::size_t(i)]});
    }
    std::shuffle(g.ghosts[std::size_t(r)].begin(), g.ghosts[std::size_t(r)].end(), gen);
  }
  return g;
}

/// A 2D (5-point) or 3D (7-point) grid of n^d points per rank on a Cartesian process
/// grid, one ghost layer, ids lexicographic (faces strided in memory).
Graph grid_graph(int dims, int n) {
  const int size = world_size();
  std::vector<int> shape(std::size_t(dims), 0);
  MPI_Dims_create(size, dims, shape.data());
  auto coords_of = [&](int r) {
    std::vector<int> c(static_cast<std::size_t>(dims));
    for (int d = dims - 1; d >= 0; --d) {
      c[std::size_t(d)] = r % shape[std::size_t(d)];
      r /= shape[std::size_t(d)];
    }
    return c;
  };
  auto rank_of = [&](const std::vector<int>& c) {
    int r = 0;
    for (int d = 0; d < dims; ++d) r = r * shape[std::size_t(d)] + c[std::size_t(d)];
    return r;
  };
  const int cube = dims == 2 ? n * n : n * n * n;
  auto local = [&](const std::vector<int>& p) {
    int id = 0;
    for (int d = 0; d < dims; ++d) id = id * n + p[std::size_t(d)];
    return id;
  };
  Graph g;
  g.owned.assign(std::size_t(size), cube);
  g.ghosts.resize(std::size_t(size));
  g.first_global.resize(std::size_t(size));
  for (int r = 0; r < size; ++r) g.first_global[std::size_t(r)] = int64_t(r) * cube;
  for (int r = 0; r < size; ++r) {
    const std::vector<int> c = coords_of(r);
    for (int d = 0; d < dims; ++d)
      for (int side : {-1, 1}) {
        std::vector<int> nc = c;
        nc[std::size_t(d)] += side;
        if (nc[std::size_t(d)] < 0 || nc[std::size_t(d)] >= shape[std::size_t(d)]) continue;
        const int s = rank_of(nc);
        for (int id = 0; id < cube; ++id) {  // the face of s that touches r
          std::vector<int> p(static_cast<std::size_t>(dims));
          for (int e = dims - 1, rest = id; e >= 0; --e, rest /= n) p[std::size_t(e)] = rest % n;
          if (p[std::size_t(d)] == (side < 0 ? n - 1 : 0)) g.ghosts[std::size_t(r)].push_back({s, local(p)});
        }
      }
  }
  return g;
}

template <class T>
T value(int64_t global, int component, int field, long iteration) {
  return T((global * 31 + component * 7 + field * 101 + iteration * 1009) % 8388593);
}

/// The plain-MPI reference: blocking-simple Isend/Irecv of packed values per neighbour,
/// sent points read from `send`, received ones written into `recv` (may be `send` itself).
template <class T>
void reference_update(const std::vector<NeighborLists>& lists, int chunk, const std::vector<T>& send, std::vector<T>& recv) {
  std::vector<std::vector<T>> out(lists.size()), in(lists.size());
  std::vector<MPI_Request> requests;
  const MPI_Datatype type = hympi::mpi::mpi_type(hympi::datatype_of<T>());
  for (std::size_t i = 0; i < lists.size(); ++i) {
    in[i].resize(lists[i].recv.size() * std::size_t(chunk));
    requests.emplace_back();
    MPI_Irecv(in[i].data(), int(in[i].size()), type, lists[i].rank, 99, MPI_COMM_WORLD, &requests.back());
  }
  for (std::size_t i = 0; i < lists.size(); ++i) {
    for (int id : lists[i].send)
      for (int c = 0; c < chunk; ++c) out[i].push_back(send[std::size_t(id) * std::size_t(chunk) + std::size_t(c)]);
    requests.emplace_back();
    MPI_Isend(out[i].data(), int(out[i].size()), type, lists[i].rank, 99, MPI_COMM_WORLD, &requests.back());
  }
  MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  for (std::size_t i = 0; i < lists.size(); ++i)
    for (std::size_t j = 0; j < lists[i].recv.size(); ++j)
      for (int c = 0; c < chunk; ++c)
        recv[std::size_t(lists[i].recv[j]) * std::size_t(chunk) + std::size_t(c)] = in[i][j * std::size_t(chunk) + std::size_t(c)];
}

void jitter(std::mt19937& gen) {
  const unsigned r = gen() % 64;
  if (r == 0) std::this_thread::sleep_for(std::chrono::microseconds(gen() % 30));
  else if (r < 4) std::this_thread::yield();
}

/// RMA baselines block inside MPI (fences, epochs; MPICH's never yield): with
/// HYMPI_TEST_RMA_DIVISOR=d they run n/d updates (at least 2: consecutive calls).
long calls(Strategy s, long n) {
  const bool rma = s == Strategy::rma_fence || s == Strategy::rma_pscw || s == Strategy::rma_lock ||
                   s == Strategy::rma_lock_target;
  return rma ? std::max(2L, n / env_long("HYMPI_TEST_RMA_DIVISOR", 1)) : n;
}

struct Run {
  Strategy strategy;
  int chunk = 1;
  int fields = 1;
  long iterations = 20;
  bool order = false;                // renumber with order_local_ids first
  hympi::Context* context = nullptr;  // the tests' own by default
  const hympi::Pattern* lists = nullptr;  // check_apart: this pattern's lists, with_unit(chunk, T)
};

/// Runs `iterations` updates of `graph` with `run.strategy`: every update checked against
/// the expected values; the first and last also bit-identical to the reference.
template <class T>
void check_updates(const Graph& graph, const Run& run) {
  const int me = world_rank(), chunk = run.chunk;
  const int points = graph.local_points(me);
  std::vector<NeighborLists> lists = graph.lists(me);
  hympi::Pattern pattern = hympi::Pattern::from_lists(run.context ? *run.context : context(), points, lists, chunk,
                                                      hympi::datatype_of<T>());
  std::vector<int> new_id(static_cast<std::size_t>(points));
  std::iota(new_id.begin(), new_id.end(), 0);
  if (run.order) {
    hympi::LocalOrdering ordering = hympi::order_local_ids(pattern);
    new_id = ordering.new_id;
    pattern = ordering.pattern;
    lists = pattern.neighbors();
    ASSERT_EQ(ordering.inner + ordering.boundary + ordering.ghosts, points);
  }
  std::vector<char> is_ghost(static_cast<std::size_t>(points), 0);
  for (const NeighborLists& n : lists)
    for (int id : n.recv) is_ghost[std::size_t(id)] = 1;

  hympi::Halo halo(pattern, run.strategy, run.fields);
  const long updates = calls(run.strategy, run.iterations);
  const std::size_t n = std::size_t(points) * std::size_t(chunk);
  std::vector<std::vector<T>> storage(std::size_t(run.fields), std::vector<T>(n));
  std::vector<T*> v(std::size_t(run.fields));
  for (int f = 0; f < run.fields; ++f)
    v[std::size_t(f)] = run.strategy == Strategy::shm_direct ? halo.shared_field<T>(f) : storage[std::size_t(f)].data();
  std::vector<void*> raw(v.begin(), v.end());
  std::vector<const void*> raw_send(v.begin(), v.end());

  std::mt19937 gen(1234u + unsigned(me));
  long wrong = 0;
  for (long it = 1; it <= updates; ++it) {
    for (int f = 0; f < run.fields; ++f)
      for (int old = 0; old < points; ++old) {
        const std::size_t at = std::size_t(new_id[std::size_t(old)]) * std::size_t(chunk);
        for (int c = 0; c < chunk; ++c)
          v[std::size_t(f)][at + std::size_t(c)] =
              is_ghost[std::size_t(new_id[std::size_t(old)])] ? T(-1) : value<T>(graph.global_id(me, old), c, f, it);
      }
    jitter(gen);
    if (it % 2 == 0) {  // split phase with some work between
      halo.begin(std::span<void* const>(raw));
      volatile double work = 0;
      for (int i = 0; i < int(gen() % 2000); ++i) work = work + i;
      halo.end(std::span<void* const>(raw));
    } else if (it % 3 == 0) {  // the two-array form with both arrays the same
      halo.update(std::span<const void* const>(raw_send), std::span<void* const>(raw));
    } else {
      halo.update(std::span<void* const>(raw));
    }
    for (int f = 0; f < run.fields; ++f)
      for (int old = 0; old < points; ++old) {
        const std::size_t at = std::size_t(new_id[std::size_t(old)]) * std::size_t(chunk);
        for (int c = 0; c < chunk; ++c)
          wrong += v[std::size_t(f)][at + std::size_t(c)] != value<T>(graph.global_id(me, old), c, f, it);
      }
    if (it == 1 || it == updates) {  // bit-identical to the plain-MPI reference
      std::vector<T> reference(v[0], v[0] + n);
      for (int old = 0; old < points; ++old)
        if (is_ghost[std::size_t(new_id[std::size_t(old)])])
          for (int c = 0; c < chunk; ++c) reference[std::size_t(new_id[std::size_t(old)]) * std::size_t(chunk) + std::size_t(c)] = T(-1);
      reference_update(lists, chunk, reference, reference);
      EXPECT_TRUE(n == 0 || 0 == std::memcmp(reference.data(), v[0], n * sizeof(T))) << "iteration " << it;
    }
    if (wrong) break;
  }
  EXPECT_EQ(wrong, 0) << hympi::name_of(run.strategy) << ": wrong values on rank " << me;
}

/// Separate arrays over `graph`'s edges, as PetscSF has them: each rank sends from an array
/// of its owned points and receives into another, longer array, at scattered points (the
/// others must stay untouched); every third ghost is listed twice (a point sent twice to
/// one rank: a root that two leaves of that rank reference).
struct ApartLists {
  int send_points = 0, recv_points = 0;
  std::vector<std::pair<int, int>> ghosts;  // this rank's, (owner, owner's id), duplicates included
  std::vector<int> slot;                    // per ghost: its point in the receive array
  std::vector<NeighborLists> lists;
};

ApartLists apart_lists(const Graph& graph) {
  const int me = world_rank(), size = world_size();
  auto ghosts_of = [&](int r) {
    std::vector<std::pair<int, int>> g = graph.ghosts[std::size_t(r)];
    for (std::size_t i = 0; i < graph.ghosts[std::size_t(r)].size(); i += 3) g.push_back(graph.ghosts[std::size_t(r)][i]);
    return g;
  };
  ApartLists a;
  a.send_points = graph.owned[std::size_t(me)];
  a.ghosts = ghosts_of(me);
  a.recv_points = 2 * int(a.ghosts.size()) + 1;
  std::vector<int> points(static_cast<std::size_t>(a.recv_points));
  std::iota(points.begin(), points.end(), 0);
  std::shuffle(points.begin(), points.end(), std::mt19937(99u + unsigned(me)));
  a.slot.assign(points.begin(), points.begin() + std::ptrdiff_t(a.ghosts.size()));
  a.lists.resize(static_cast<std::size_t>(size));
  for (int s = 0; s < size; ++s) a.lists[std::size_t(s)].rank = s;
  for (std::size_t g = 0; g < a.ghosts.size(); ++g) a.lists[std::size_t(a.ghosts[g].first)].recv.push_back(a.slot[g]);
  for (int r = 0; r < size; ++r)
    for (auto [owner, id] : ghosts_of(r))
      if (owner == me) a.lists[std::size_t(r)].send.push_back(id);
  std::erase_if(a.lists, [](const NeighborLists& n) { return n.send.empty() && n.recv.empty(); });
  return a;
}

/// Runs `iterations` updates of `graph` in separate arrays (apart_lists) with
/// `run.strategy`: after each, every received point holds the value just sent and every
/// other point of the receive array its initial value; the first and last update also
/// bit-identical to the plain-MPI reference. Forms alternate: update, split phase with
/// work between, typed.
template <class T>
void check_apart(const Graph& graph, const Run& run) {
  const int me = world_rank(), chunk = run.chunk;
  const std::size_t c_size = std::size_t(chunk);
  const ApartLists a = apart_lists(graph);
  hympi::Pattern pattern =
      run.lists ? run.lists->with_unit(chunk, hympi::datatype_of<T>())
                : hympi::Pattern::from_lists_apart(run.context ? *run.context : context(), a.send_points, a.recv_points,
                                                   a.lists, chunk, hympi::datatype_of<T>());
  ASSERT_EQ(pattern.chunk(), chunk);
  ASSERT_EQ(pattern.type(), hympi::datatype_of<T>());
  ASSERT_TRUE(pattern.apart());
  ASSERT_EQ(pattern.send_points(), a.send_points);
  ASSERT_EQ(pattern.recv_points(), a.recv_points);
  hympi::Halo halo(pattern, run.strategy, run.fields);
  const long updates = calls(run.strategy, run.iterations);
  const std::size_t n_send = std::size_t(a.send_points) * c_size, n_recv = std::size_t(a.recv_points) * c_size;
  std::vector<std::vector<T>> send_storage(std::size_t(run.fields), std::vector<T>(n_send));
  std::vector<std::vector<T>> recv(std::size_t(run.fields), std::vector<T>(n_recv, T(-1)));
  std::vector<const void*> send_raw;
  std::vector<void*> recv_raw;
  std::vector<T*> send(std::size_t(run.fields));
  for (int f = 0; f < run.fields; ++f) {
    send[std::size_t(f)] = run.strategy == Strategy::shm_direct ? halo.shared_field<T>(f) : send_storage[std::size_t(f)].data();
    send_raw.push_back(send[std::size_t(f)]);
    recv_raw.push_back(recv[std::size_t(f)].data());
  }
  std::vector<T> expected(n_recv);
  std::mt19937 gen(4321u + unsigned(me));
  long wrong = 0;
  for (long it = 1; it <= updates && wrong == 0; ++it) {
    for (int f = 0; f < run.fields; ++f)
      for (int id = 0; id < a.send_points; ++id)
        for (int c = 0; c < chunk; ++c)
          send[std::size_t(f)][std::size_t(id) * c_size + std::size_t(c)] = value<T>(graph.global_id(me, id), c, f, it);
    jitter(gen);
    if (it % 3 == 0) {
      halo.begin(std::span<const void* const>(send_raw), std::span<void* const>(recv_raw));
      volatile double work = 0;
      for (int i = 0; i < int(gen() % 2000); ++i) work = work + i;
      halo.end(std::span<const void* const>(send_raw), std::span<void* const>(recv_raw));
    } else if (it % 3 == 1 && run.fields == 1) {
      halo.update(static_cast<const T*>(send[0]), recv[0].data());
    } else {
      halo.update(std::span<const void* const>(send_raw), std::span<void* const>(recv_raw));
    }
    for (int f = 0; f < run.fields; ++f) {
      std::fill(expected.begin(), expected.end(), T(-1));
      for (std::size_t g = 0; g < a.ghosts.size(); ++g) {
        const auto [owner, id] = a.ghosts[g];
        for (int c = 0; c < chunk; ++c)
          expected[std::size_t(a.slot[g]) * c_size + std::size_t(c)] =
              value<T>(graph.first_global[std::size_t(owner)] + id, c, f, it);
      }
      wrong += expected != recv[std::size_t(f)];
    }
    if (it == 1 || it == updates) {  // bit-identical to the plain-MPI reference
      std::vector<T> sent(send[0], send[0] + n_send), reference(n_recv, T(-1));
      reference_update(a.lists, chunk, sent, reference);
      EXPECT_TRUE(n_recv == 0 || 0 == std::memcmp(reference.data(), recv[0].data(), n_recv * sizeof(T)))
          << "iteration " << it;
    }
  }
  EXPECT_EQ(wrong, 0) << hympi::name_of(run.strategy) << " (separate arrays): wrong values on rank " << me;
}

long iterations() { return env_long("HYMPI_TEST_ITERATIONS", 2000); }

class EveryStrategy : public ::testing::TestWithParam<Strategy> {};

TEST_P(EveryStrategy, RandomGraphManyUpdates) {
  const Graph g = random_graph(7, 300, 60, 0.6);
  std::size_t ghosts = 0;
  for (const auto& list : g.ghosts) ghosts += list.size();
  if (world_size() > 1) {
    ASSERT_GT(ghosts, 0u) << "the graph must exchange something";
  }
  check_updates<double>(g, {GetParam(), 1, 1, iterations()});
}

TEST_P(EveryStrategy, EveryTypeAndChunk) {
  for (int chunk : {1, 3}) {
    const Graph g = random_graph(100u + unsigned(chunk), 80, 30, 0.5);
    check_updates<double>(g, {GetParam(), chunk, 1, 10});
    check_updates<float>(g, {GetParam(), chunk, 1, 10});
    check_updates<int32_t>(g, {GetParam(), chunk, 1, 10});
    check_updates<int64_t>(g, {GetParam(), chunk, 1, 10});
  }
}

TEST_P(EveryStrategy, SeveralFieldsOneSynchronization) {
  check_updates<double>(random_graph(11, 100, 40, 0.7), {GetParam(), 3, 3, 20});
}

TEST_P(EveryStrategy, StructuredGrids) {
  check_updates<double>(grid_graph(2, 12), {GetParam(), 1, 1, 20});
  check_updates<double>(grid_graph(3, 5), {GetParam(), 1, 1, 20, true});
}

TEST_P(EveryStrategy, LargeMessagesAndEmptyRanks) {
  // Up to 10^5 points per neighbour; most ranks have none.
  check_updates<double>(random_graph(5, 100000, 100000, 0.3), {GetParam(), 1, 1, 20});
}

TEST_P(EveryStrategy, SeparateSendAndReceiveArrays) {
  // Consecutive updates: a tenth of the one-array runs' count (same protocols, other ends).
  check_apart<double>(random_graph(53, 300, 60, 0.6), {GetParam(), 1, 1, std::max(20L, iterations() / 10)});
  check_apart<double>(random_graph(59, 80, 30, 0.5), {GetParam(), 3, 2, 20});
  check_apart<int32_t>(random_graph(61, 80, 30, 0.5), {GetParam(), 1, 1, 10});
  check_apart<float>(grid_graph(3, 5), {GetParam(), 2, 1, 10});
}

TEST_P(EveryStrategy, UnitsShareOneValidatedPattern) {
  // One validation, Halos of other units on it (a PETSc SF's units), each checked as above.
  const Graph g = random_graph(67, 80, 30, 0.5);
  const ApartLists a = apart_lists(g);
  const hympi::Pattern lists =
      hympi::Pattern::from_lists_apart(context(), a.send_points, a.recv_points, a.lists, 1, Datatype::float64);
  check_apart<float>(g, {GetParam(), 3, 1, 10, false, nullptr, &lists});
  check_apart<int64_t>(g, {GetParam(), 2, 2, 10, false, nullptr, &lists});
  check_apart<double>(g, {GetParam(), 5, 1, 10, false, nullptr, &lists});
}

TEST_P(EveryStrategy, LocalOrderingKeepsTheResult) {
  check_updates<double>(random_graph(17, 200, 80, 0.6), {GetParam(), 1, 1, 20, true});
}

/// Every strategy that moves data itself; `automatic` runs one of them (chosen by timing
/// each at set-up, which would multiply these tests' Halos by three): HaloAutomatic.* and
/// ZeroCopy/automatic cover it.
std::vector<Strategy> moving_strategies() {
  std::vector<Strategy> all(hympi::all_strategies().begin(), hympi::all_strategies().end());
  std::erase(all, Strategy::automatic);
  return all;
}

INSTANTIATE_TEST_SUITE_P(Halo, EveryStrategy, ::testing::ValuesIn(moving_strategies()),
                         [](const auto& param_info) { return std::string(hympi::name_of(param_info.param)); });

/// Zero-copy: the code packs each neighbour's values into send_buffer(n) itself and reads
/// its ghosts from recv_buffer(n), which must stay intact until the next acquire() even
/// while neighbours run ahead. Where the strategy has test_buffers() (shm, flat_mpi), every
/// other update polls it before end_buffers(), and it must stay true once true.
void check_zero_copy(Strategy strategy, const Graph& graph, int chunk, int fields, long updates) {
  const int me = world_rank();
  const std::vector<NeighborLists> lists = graph.lists(me);
  hympi::Pattern pattern = hympi::Pattern::from_lists(context(), graph.local_points(me), lists, chunk);
  hympi::Halo halo(pattern, strategy, fields, hympi::HaloMode::buffers);
  const bool tests = halo.strategy() == Strategy::shm || halo.strategy() == Strategy::flat_mpi;
  std::mt19937 gen(77u + unsigned(me));
  long wrong = 0;
  for (long it = 1; it <= updates && wrong == 0; ++it) {
    halo.acquire();
    for (std::size_t n = 0; n < lists.size(); ++n) {
      std::span<double> out = halo.send_buffer<double>(int(n));
      ASSERT_EQ(out.size(), lists[n].send.size() * std::size_t(chunk * fields));
      std::size_t at = 0;
      for (int f = 0; f < fields; ++f)
        for (int id : lists[n].send)
          for (int c = 0; c < chunk; ++c) out[at++] = value<double>(graph.global_id(me, id), c, f, it);
    }
    jitter(gen);
    halo.begin_buffers();
    jitter(gen);
    if (tests && it % 2) {
      while (!halo.test_buffers()) std::this_thread::yield();
      EXPECT_TRUE(halo.test_buffers());
    }
    halo.end_buffers();
    for (int pass = 0; pass < 2; ++pass) {  // read twice around a pause: nobody overwrote them
      for (std::size_t n = 0; n < lists.size(); ++n) {
        std::span<const double> in = halo.recv_buffer<double>(int(n));
        EXPECT_EQ(in.size(), lists[n].recv.size() * std::size_t(chunk * fields));
        std::size_t at = 0;
        for (int f = 0; f < fields; ++f)
          for (int id : lists[n].recv)
            for (int c = 0; c < chunk; ++c) wrong += in[at++] != value<double>(graph.global_id(me, id), c, f, it);
      }
      if (pass == 0 && gen() % 8 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
  EXPECT_EQ(wrong, 0) << hympi::name_of(strategy) << " zero-copy: wrong values on rank " << me;
}

class ZeroCopy : public ::testing::TestWithParam<Strategy> {};

TEST_P(ZeroCopy, RandomGraphsAndGrids) {
  check_zero_copy(GetParam(), random_graph(43, 300, 60, 0.6), 1, 1, iterations());
  check_zero_copy(GetParam(), random_graph(47, 100, 40, 0.7), 3, 2, 50);
  check_zero_copy(GetParam(), grid_graph(3, 5), 1, 1, 50);
}

// test_buffers() is false while a neighbour has not begun its part and true once it has:
// rank 0 and rank 1 exchange one value; rank 1 begins only after rank 0 saw false and
// told it so (by MPI), then rank 0 polls until true.
TEST_P(ZeroCopy, TestBuffersWaitsForTheNeighbour) {
  const Strategy strategy = GetParam();
  const int me = world_rank();
  if (world_size() < 2 || (strategy != Strategy::shm && strategy != Strategy::flat_mpi)) GTEST_SKIP();
  std::vector<NeighborLists> lists;
  if (me < 2) lists.push_back({1 - me, {0}, {1}});
  hympi::Halo halo(hympi::Pattern::from_lists(context(), 2, lists), strategy, 1, hympi::HaloMode::buffers);
  const MPI_Comm comm = MPI_COMM_WORLD;  // the Context's group
  for (int it = 1; it <= 20; ++it) {
    halo.acquire();
    if (me < 2) halo.send_buffer<double>(0)[0] = 100.0 * it + me;
    int go = 0;
    if (me == 1) MPI_Recv(&go, 1, MPI_INT, 0, 99, comm, MPI_STATUS_IGNORE);
    halo.begin_buffers();
    if (me == 0) {
      EXPECT_FALSE(halo.test_buffers()) << "call " << it << ": rank 1 has not begun";
      MPI_Send(&go, 1, MPI_INT, 1, 99, comm);
      while (!halo.test_buffers()) std::this_thread::yield();
    }
    halo.end_buffers();
    if (me < 2) {
      EXPECT_EQ(halo.recv_buffer<double>(0)[0], 100.0 * it + (1 - me));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Halo, ZeroCopy,
                         ::testing::Values(Strategy::shm, Strategy::aggregated, Strategy::aggregated_odm,
                                           Strategy::flat_mpi, Strategy::automatic),
                         [](const auto& param_info) { return std::string(hympi::name_of(param_info.param)); });

// hympi's messages go to the handler the program sets (M11 of the xSDK policies): a Halo
// destroyed between begin() and end() on every rank warns through it, and a null handler
// silences it. The misuse happens on a Context of its own, freed afterwards: the
// other tests' Context never sees it.
TEST(Messages, RedirectedThenSilenced) {
  const int me = world_rank(), size = world_size();
  hympi::Context own(MPI_COMM_WORLD);
  // Neighbours on this rank's node only: nothing of the abandoned update is left in MPI.
  const std::vector<int>& node_of = own.topology().node_of();
  std::vector<hympi::NeighborLists> lists;
  for (int peer : {(me + 1) % size, (me + size - 1) % size})
    if (peer != me && node_of[std::size_t(peer)] == node_of[std::size_t(me)] && (lists.empty() || lists[0].rank != peer))
      lists.push_back({peer, {0}, {int(lists.size()) + 1}});
  const hympi::Pattern pattern = hympi::Pattern::from_lists(own, 3, lists);
  std::vector<std::string> heard;
  auto keep = [](const char* message, void* into) { static_cast<std::vector<std::string>*>(into)->push_back(message); };
  std::vector<double> v(3, 1.0);
  for (bool silenced : {false, true}) {
    hympi::set_message_handler(silenced ? nullptr : +keep, &heard);
    {
      hympi::Halo halo(pattern, Strategy::shm);
      halo.begin(v.data());
    }  // destroyed in flight, on every rank
    own.barrier();
  }
  hympi::set_message_handler(&hympi::default_message_handler, nullptr);
  ASSERT_EQ(heard.size(), 1u);
  EXPECT_NE(heard[0].find("rank " + std::to_string(me) + " destroys a Halo between begin() and end()"), std::string::npos)
      << heard[0];
}

TEST(HaloErrors, ZeroCopyMisuse) {
  hympi::Pattern pattern = hympi::Pattern::from_lists(context(), 4, {});
  expect_error_on_every_rank([&] { hympi::Halo h(pattern, Strategy::rma_fence, 1, hympi::HaloMode::buffers); },
                             "hympi: Halo: zero-copy buffers need shm, aggregated, aggregated_odm, flat_mpi or "
                             "automatic, not rma_fence");
  auto zero_copy = [&] { return std::make_unique<hympi::Halo>(pattern, Strategy::shm, 1, hympi::HaloMode::buffers); };
  double v[4];
  // Calls out of order refuse the update (tests/mpi/test_misuse.cpp), each on a new Halo;
  // a rank may meet another's refusal (posted for the whole node) in a correct call before.
  EXPECT_THROW(zero_copy()->update(v), hympi::Error);        // buffers mode
  EXPECT_THROW(zero_copy()->begin_buffers(), hympi::Error);  // before acquire()
  EXPECT_THROW(
      {
        auto h = zero_copy();
        h->acquire();
        h->begin_buffers();
        h->acquire();  // in flight
      },
      hympi::Error);
  EXPECT_THROW(hympi::Halo(pattern, Strategy::shm).acquire(), hympi::Error);
  EXPECT_THROW(zero_copy()->test_buffers(), hympi::Error);  // no update in flight
  {  // a strategy without the test: this rank's error alone, the update goes on
    hympi::Halo aggregated(pattern, Strategy::aggregated, 1, hympi::HaloMode::buffers);
    aggregated.acquire();
    aggregated.begin_buffers();
    expect_error_on_every_rank([&] { (void)aggregated.test_buffers(); },
                               "hympi: Halo::test_buffers() is for the strategies shm and flat_mpi; end_buffers() "
                               "completes the others");
    aggregated.end_buffers();
  }
  // The buffers' accessors: this rank's mistake alone, the Halo goes on.
  hympi::Halo halo(pattern, Strategy::shm, 1, hympi::HaloMode::buffers);
  EXPECT_THROW(halo.recv_buffer<double>(0), hympi::Error);  // nothing received yet
  halo.acquire();
  EXPECT_THROW(halo.send_buffer<double>(0), hympi::Error);  // no neighbour 0
  EXPECT_THROW(halo.send_buffer<float>(0), hympi::Error);   // wrong type
  halo.begin_buffers();
  halo.end_buffers();
}

/// Thousands of Halos alive at once, each still updating right: a Halo holds no
/// communicator or window of its own (MPICH has 2,046 communicator ids per process, and
/// aborted inside MPI with about 1,020 Halos alive when each held its own), and freed ones
/// give their tags and shared memory back to the next (created, freed, created again).
TEST(HaloResources, ThousandsAliveEachUpdating) {
  const int me = world_rank(), size = world_size();
  std::vector<hympi::NeighborLists> lists;
  for (int peer : {(me + 1) % size, (me + size - 1) % size})
    if (peer != me && (lists.empty() || lists[0].rank != peer)) lists.push_back({peer, {0, 1}, {}});
  for (std::size_t i = 0; i < lists.size(); ++i) lists[i].recv = {4 + 2 * int(i), 5 + 2 * int(i)};
  hympi::Pattern pattern = hympi::Pattern::from_lists(context(), 8, lists);
  // HYMPI_TEST_HALOS: how many (even: halos[h] and halos[count - 1 - h] are two)
  const std::size_t count = std::size_t(env_long("HYMPI_TEST_HALOS", 3000)) / 2 * 2;
  for (int round = 0; round < 2; ++round) {
    std::vector<std::unique_ptr<hympi::Halo>> halos;
    for (std::size_t h = 0; h < count; ++h)
      halos.push_back(std::make_unique<hympi::Halo>(pattern, h % 2 ? Strategy::shm : Strategy::aggregated));
    std::vector<double> v(8);
    for (std::size_t h = 0; h < count / 2; ++h) {  // every one, two at a time in flight together
      hympi::Halo& a = *halos[h];
      hympi::Halo& b = *halos[count - 1 - h];
      std::vector<double> w(8);
      for (int i = 0; i < 4; ++i) v[std::size_t(i)] = me * 100 + i + double(h), w[std::size_t(i)] = -v[std::size_t(i)];
      a.begin(v.data());
      b.begin(w.data());
      b.end(w.data());
      a.end(v.data());
      for (const hympi::NeighborLists& n : lists)
        for (int k = 0; k < 2; ++k) {
          ASSERT_EQ(v[std::size_t(n.recv[std::size_t(k)])], n.rank * 100 + k + double(h)) << "Halo " << h;
          ASSERT_EQ(w[std::size_t(n.recv[std::size_t(k)])], -(n.rank * 100 + k + double(h))) << "Halo " << count - 1 - h;
        }
    }
  }
}

/// Halos of two Contexts on duplicates of one communicator (one shared engine: the same
/// arena and tag ranges) in flight together, each receiving its own data.
TEST(HaloResources, ContextsOnDuplicatesInFlightTogether) {
  const int me = world_rank(), size = world_size();
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  {
    hympi::Context other(dup);
    std::vector<hympi::NeighborLists> lists;
    for (int peer : {(me + 1) % size, (me + size - 1) % size})
      if (peer != me && (lists.empty() || lists[0].rank != peer)) lists.push_back({peer, {0, 1}, {}});
    for (std::size_t i = 0; i < lists.size(); ++i) lists[i].recv = {4 + 2 * int(i), 5 + 2 * int(i)};
    hympi::Pattern pa = hympi::Pattern::from_lists(context(), 8, lists);
    hympi::Pattern pb = hympi::Pattern::from_lists(other, 8, lists);
    for (Strategy s : {Strategy::shm, Strategy::aggregated, Strategy::flat_mpi}) {
      hympi::Halo a(pa, s), b(pb, s);
      for (int call = 0; call < 20; ++call) {
        std::vector<double> v(8), w(8);
        for (int i = 0; i < 4; ++i) v[std::size_t(i)] = me * 100 + i + call, w[std::size_t(i)] = -v[std::size_t(i)];
        a.begin(v.data());
        b.begin(w.data());
        if (call % 2) {  // ended in either order
          b.end(w.data());
          a.end(v.data());
        } else {
          a.end(v.data());
          b.end(w.data());
        }
        for (const hympi::NeighborLists& n : lists)
          for (int k = 0; k < 2; ++k) {
            ASSERT_EQ(v[std::size_t(n.recv[std::size_t(k)])], n.rank * 100 + k + call) << name_of(s);
            ASSERT_EQ(w[std::size_t(n.recv[std::size_t(k)])], -(n.rank * 100 + k + call)) << name_of(s);
          }
      }
    }
  }
  MPI_Comm_free(&dup);
}

TEST(HaloStats, OneMessagePerNodePairWhenAggregated) {
  const Graph g = random_graph(31, 120, 40, 0.7);
  const int me = world_rank();
  const std::vector<int>& node_of = context().topology().node_of();
  std::set<std::pair<int, int>> node_pairs;
  int rank_pairs = 0;
  for (int r = 0; r < world_size(); ++r) {
    std::set<int> owners;
    for (auto [owner, id] : g.ghosts[std::size_t(r)]) owners.insert(owner);
    for (int s : owners)
      if (node_of[std::size_t(s)] != node_of[std::size_t(r)]) {
        node_pairs.insert({node_of[std::size_t(s)], node_of[std::size_t(r)]});
        ++rank_pairs;
      }
  }
  hympi::Pattern pattern = hympi::Pattern::from_lists(context(), g.local_points(me), g.lists(me));
  for (Strategy s : {Strategy::aggregated, Strategy::aggregated_odm, Strategy::flat_mpi, Strategy::shm}) {
    hympi::Halo halo(pattern, s);
    int messages = halo.stats().internode_messages, total = 0;
    MPI_Allreduce(&messages, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    const bool aggregated = s == Strategy::aggregated || s == Strategy::aggregated_odm;
    EXPECT_EQ(total, aggregated ? int(node_pairs.size()) : rank_pairs) << hympi::name_of(s);
  }
}

TEST(HaloAutomatic, ChoosesOneCandidateOnEveryRankAndReportsTrials) {
  const Graph g = random_graph(37, 300, 60, 0.5);
  const int me = world_rank();
  hympi::Pattern pattern = hympi::Pattern::from_lists(context(), g.local_points(me), g.lists(me));
  hympi::Halo halo(pattern, Strategy::automatic);
  EXPECT_EQ(halo.requested_strategy(), Strategy::automatic);
  const Strategy chosen = halo.strategy();
  if (context().topology().node_count() == 1) {
    EXPECT_EQ(chosen, Strategy::shm);
    EXPECT_TRUE(halo.trials().empty());
  } else {
    ASSERT_EQ(halo.trials().size(), 3u);
    double best = halo.trials()[0].seconds;
    for (const hympi::HaloTrial& t : halo.trials()) {
      EXPECT_GT(t.seconds, 0.0);
      best = std::min(best, t.seconds);
    }
    const auto it = std::find_if(halo.trials().begin(), halo.trials().end(),
                                 [&](const hympi::HaloTrial& t) { return t.strategy == chosen; });
    ASSERT_NE(it, halo.trials().end());
    EXPECT_EQ(it->seconds, best);
  }
  int mine = int(chosen), lowest = 0, highest = 0;
  MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &highest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(lowest, highest) << "ranks chose different strategies";
}

TEST(HaloAutomatic, SeparateArrays) {
  // Its trials run on scratch send and receive arrays of the pattern's two lengths.
  check_apart<double>(random_graph(67, 200, 50, 0.6), {Strategy::automatic, 1, 1, 20});
}

/// Every rank sends every other rank `runs` runs of `run_points` points, `gap` points apart
/// in its own array; the receiver's ghosts from one owner are contiguous. Large runs take
/// the single-copy path (src/halo/single_copy.hpp) between ranks of a node.
Graph runs_graph(int runs, int run_points, int gap) {
  const int size = world_size(), owned = runs * (run_points + gap);
  Graph g;
  g.owned.assign(std::size_t(size), owned);
  g.ghosts.resize(std::size_t(size));
  g.first_global.resize(std::size_t(size));
  for (int r = 0; r < size; ++r) g.first_global[std::size_t(r)] = int64_t(r) * owned;
  for (int r = 0; r < size; ++r)
    for (int s = 0; s < size; ++s)
      if (s != r)
        for (int run = 0; run < runs; ++run)
          for (int i = 0; i < run_points; ++i) g.ghosts[std::size_t(r)].push_back({s, run * (run_points + gap) + i});
  return g;
}

/// Every rank receives all `points` points of the next rank (one message per rank, to the
/// previous one).
Graph ring_graph(int points) {
  const int size = world_size();
  Graph g;
  g.owned.assign(std::size_t(size), points);
  g.ghosts.resize(std::size_t(size));
  for (int r = 0; r < size; ++r) g.first_global.push_back(int64_t(r) * points);
  for (int r = 0; r < size; ++r)
    if (size > 1)
      for (int i = 0; i < points; ++i) g.ghosts[std::size_t(r)].push_back({(r + 1) % size, i});
  return g;
}

/// Whether rank r reads this rank's messages with one copy: another rank of its node, and
/// not one the kernel refuses process_vm_readv (HYMPI_TEST_DENIED: "all", or one rank that
/// cannot read, so nobody sends to it by single copy).
bool reads_by_single_copy(int r) {
  const char* denied = std::getenv("HYMPI_TEST_DENIED");
  if (denied && std::string(denied) == "all") return false;
  const int me = world_rank(), deny = denied ? std::atoi(denied) : -1;
  const std::vector<int>& node_of = context().topology().node_of();
  return r != me && r != deny && node_of[std::size_t(r)] == node_of[std::size_t(me)];
}

/// The single-copy messages a rank should send in runs_graph (one to every other rank).
int expected_single_copy_messages() {
  int n = 0;
  for (int r = 0; r < world_size(); ++r) n += reads_by_single_copy(r);
  return n;
}

/// Collective: a Context whose Halos read messages of 256 KiB or more with one copy.
std::unique_ptr<hympi::Context> single_copy_context(std::size_t bytes = 262144) {
  hympi::Options options = hympi::Options::from_env();
  options.single_copy_bytes = bytes;
  return std::make_unique<hympi::Context>(MPI_COMM_WORLD, options);
}

TEST(SingleCopy, LargeRunsReadStraightFromTheSendersArray) {
  const auto ctx = single_copy_context();
  struct Case {
    int runs, run_points, gap, chunk, fields;
    long iterations;
  };
  // One 256 KiB run; 300 runs of 1 KiB (over one system call's 128 iovecs); chunk 3 in
  // two fields; a run too short on average (512 B): two copies.
  for (const Case& c : {Case{1, 32768, 5, 1, 1, 100}, Case{300, 128, 3, 1, 1, 50}, Case{2, 6000, 1, 3, 2, 30},
                        Case{600, 64, 1, 1, 1, 10}}) {
    const Graph g = runs_graph(c.runs, c.run_points, c.gap);
    check_updates<double>(g, {Strategy::shm, c.chunk, c.fields, c.iterations, false, ctx.get()});
    check_apart<double>(g, {Strategy::shm, c.chunk, c.fields, std::max(2L, c.iterations / 10), false, ctx.get()});
    hympi::Pattern pattern = hympi::Pattern::from_lists(*ctx, g.local_points(world_rank()), g.lists(world_rank()), c.chunk);
    const bool long_runs = std::size_t(c.run_points) * std::size_t(c.chunk) * sizeof(double) >= 1024;
    for (Strategy s : {Strategy::shm, Strategy::aggregated, Strategy::aggregated_odm}) {
      hympi::Halo halo(pattern, s, c.fields);
      EXPECT_EQ(halo.stats().single_copy_messages, long_runs ? expected_single_copy_messages() : 0)
          << hympi::name_of(s) << ", runs of " << c.run_points << " points";
      hympi::Halo buffers(pattern, s, c.fields, hympi::HaloMode::buffers);  // zero-copy: the slots
      EXPECT_EQ(buffers.stats().single_copy_messages, 0);
    }
  }
}

TEST(SingleCopy, TheOptionSetsTheSmallestMessage) {
  // By default from 1 MiB: a ring of 1 MiB messages one copy, of 1 MiB - 8 B two copies.
  // 8000 B per neighbour: two copies from 262144, one from 4096.
  const int me = world_rank();
  if (!std::getenv("HYMPI_SINGLE_COPY")) {
    const int previous = (me + world_size() - 1) % world_size();
    for (int points : {131072, 131071}) {
      const Graph ring = ring_graph(points);
      hympi::Halo halo(hympi::Pattern::from_lists(context(), ring.local_points(me), ring.lists(me)), Strategy::shm);
      EXPECT_EQ(halo.stats().single_copy_messages, points == 131072 && reads_by_single_copy(previous) ? 1 : 0)
          << points * 8 << " B";
    }
  }
  const Graph small = runs_graph(1, 1000, 0);
  const auto from_256k = single_copy_context();
  hympi::Halo two(hympi::Pattern::from_lists(*from_256k, small.local_points(me), small.lists(me)), Strategy::shm);
  EXPECT_EQ(two.stats().single_copy_messages, 0);
  const auto from_4k = single_copy_context(4096);
  hympi::Halo on(hympi::Pattern::from_lists(*from_4k, small.local_points(me), small.lists(me)), Strategy::shm);
  EXPECT_EQ(on.stats().single_copy_messages, expected_single_copy_messages());
  std::vector<double> v(std::size_t(small.local_points(me)));
  for (int it = 1; it <= 50; ++it) {  // against the exact values
    for (int id = 0; id < small.owned[std::size_t(me)]; ++id) v[std::size_t(id)] = value<double>(small.global_id(me, id), 0, 0, it);
    on.update(v.data());
    long wrong = 0;
    for (int id = 0; id < small.local_points(me); ++id) wrong += v[std::size_t(id)] != value<double>(small.global_id(me, id), 0, 0, it);
    ASSERT_EQ(wrong, 0) << "update " << it;
  }
}

TEST(SingleCopy, ASendArrayShorterThanItsIdsFailsTheUpdateOnEveryRank) {
  // The sender's array ends in an unmapped page: the reader's process_vm_readv fails
  // (EFAULT), where two copies would have read past the array.
  const int me = world_rank(), size = world_size();
  const std::vector<int>& node_of = context().topology().node_of();
  if (size < 2 || node_of[0] != node_of[1] || std::getenv("HYMPI_TEST_DENIED"))
    GTEST_SKIP() << "needs ranks 0 and 1 on one node, reading each other";
  const long page = sysconf(_SC_PAGESIZE);
  const int points = 65536;  // 512 KiB of doubles per rank, all sent to the other
  std::vector<NeighborLists> lists;
  if (me < 2) {
    NeighborLists n{1 - me, {}, {}};
    for (int i = 0; i < points; ++i) n.send.push_back(i);
    for (int i = 0; i < points; ++i) n.recv.push_back(points + i);
    lists.push_back(n);
  }
  const auto ctx = single_copy_context();
  hympi::Halo halo(hympi::Pattern::from_lists(*ctx, 2 * points, lists), Strategy::shm);
  ASSERT_EQ(halo.stats().single_copy_messages, me < 2 ? 1 : 0);
  // Rank 0's array: its first half mapped, the second (ghosts) too, then one page less
  // at the end of the sent part, i.e. the sent points end past an unmapped page.
  const std::size_t bytes = 2 * std::size_t(points) * sizeof(double);
  auto* base = static_cast<std::byte*>(mmap(nullptr, bytes + std::size_t(page), PROT_READ | PROT_WRITE,
                                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(base, MAP_FAILED);
  auto* v = reinterpret_cast<double*>(base);
  std::fill(v, v + 2 * points, 1.0);
  if (me == 0) munmap(base + std::size_t(page) * 4, std::size_t(page));  // a hole in the points rank 0 sends
  const std::string expected = "rank 1 could not read the ghosts that rank 0 sent in field 0 (process_vm_readv: Bad address";
  std::string message;
  try {
    halo.update(v);  // ranks 0 and 1 wait for each other; the others for nobody, but those on
  } catch (const hympi::Error& e) {  // their node stop at a begin that finds the refusal posted
    message = e.what();
  }
  if (me < 2 || !message.empty()) {
    EXPECT_NE(message.find(expected), std::string::npos) << "rank " << me << " got: '" << message << "'";
  }
  munmap(base, bytes + std::size_t(page));
}

TEST(HaloResources, DestroyedHalosReturnTheirSharedMemory) {
  const Graph g = random_graph(41, 2000, 500, 0.5);
  const int me = world_rank();
  hympi::Pattern pattern = hympi::Pattern::from_lists(context(), g.local_points(me), g.lists(me));
  // MPI's own first-use mappings, and the arena's growth to what one Halo of each kind needs
  // (how much room earlier tests left depends on what `automatic` chose there, by timing).
  for (Strategy s : {Strategy::shm, Strategy::shm_direct, Strategy::aggregated}) hympi::Halo warm(pattern, s, 2);
  const auto before = shared_mappings();
  if (before.empty() && context().topology().node_size() == 1)
    GTEST_SKIP() << "Open MPI backs a one-rank shared window with private memory: nothing to see";
  ASSERT_FALSE(before.empty()) << "this MPI's shared windows are not files in /dev/shm: the test cannot see them";
  for (int i = 0; i < 8; ++i)
    for (Strategy s : {Strategy::shm, Strategy::shm_direct, Strategy::aggregated}) hympi::Halo halo(pattern, s, 2);
  // Nothing new may stay mapped; a mapping of before may go (an earlier test's engine
  // released meanwhile: MPICH 5 at 8 ranks on nodes of 4 unmapped one during this loop).
  const std::set<std::string> earlier(before.begin(), before.end());
  std::vector<std::string> left;
  for (const std::string& m : shared_mappings())
    if (!earlier.count(m)) left.push_back(m);
  EXPECT_TRUE(left.empty()) << "a destroyed Halo left shared memory mapped: " << testing::PrintToString(left);
}

TEST(Pattern, FromOwnersGivesTheSameListsAsFromLists) {
  const Graph g = random_graph(23, 150, 50, 0.6);
  const int me = world_rank();
  std::vector<int64_t> global(std::size_t(g.local_points(me)));
  std::vector<int> owners(global.size());
  for (int i = 0; i < g.local_points(me); ++i) {
    global[std::size_t(i)] = g.global_id(me, i);
    owners[std::size_t(i)] = i < g.owned[std::size_t(me)] ? me : g.ghosts[std::size_t(me)][std::size_t(i - g.owned[std::size_t(me)])].first;
  }
  hympi::Pattern derived = hympi::Pattern::from_owners(context(), global, owners);
  const std::vector<NeighborLists> expected = g.lists(me);
  ASSERT_EQ(derived.neighbors().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(derived.neighbors()[i].rank, expected[i].rank);
    EXPECT_EQ(derived.neighbors()[i].send, expected[i].send);
    EXPECT_EQ(derived.neighbors()[i].recv, expected[i].recv);
  }
}

TEST(Pattern, LocalOrderingMakesEachNeighboursGhostsContiguous) {
  const Graph g = random_graph(29, 200, 80, 0.6);
  const int me = world_rank();
  hympi::Pattern pattern = hympi::Pattern::from_lists(context(), g.local_points(me), g.lists(me));
  hympi::LocalOrdering o = hympi::order_local_ids(pattern);
  std::vector<int> sorted = o.new_id;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> identity(sorted.size());
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(sorted, identity) << "not a permutation";
  for (const NeighborLists& n : o.pattern.neighbors()) {
    for (std::size_t j = 1; j < n.recv.size(); ++j) EXPECT_EQ(n.recv[j], n.recv[j - 1] + 1);
    for (int id : n.recv) EXPECT_GE(id, o.inner + o.boundary);
    for (int id : n.send) {
      EXPECT_GE(id, o.inner);
      EXPECT_LT(id, o.inner + o.boundary);
    }
  }
}

TEST(PatternErrors, CountsThatDisagree) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  const int me = world_rank();
  std::vector<NeighborLists> lists;
  if (me == 0) lists.push_back({1, {0, 1, 2}, {}});
  if (me == 1) lists.push_back({0, {}, {3, 4}});
  expect_error_on_every_rank([&] { hympi::Pattern::from_lists(context(), 10, lists); },
                             "hympi: Pattern: rank 0 sends 3 points to rank 1, but rank 1 expects 2 from rank 0");
}

TEST(PatternErrors, IdOutOfRange) {
  const int me = world_rank(), size = world_size();
  std::vector<NeighborLists> lists;
  if (size > 1) lists.push_back({(me + 1) % size, {me == size - 1 ? 10 : 0}, {}});
  if (size > 1) lists.push_back({(me + size - 1) % size, {}, {5}});
  if (size == 2) lists = {{1 - me, {me == 1 ? 10 : 0}, {5}}};
  if (size == 1) GTEST_SKIP() << "needs two ranks";
  expect_error_on_every_rank([&] { hympi::Pattern::from_lists(context(), 10, lists); },
                             "rank " + std::to_string(size - 1) + ": sends local id 10 to rank 0, outside 0..9");
}

TEST(PatternErrors, GhostReceivedTwiceSelfNeighbourAndBadRank) {
  const int me = world_rank(), size = world_size();
  expect_error_on_every_rank(
      [&] { hympi::Pattern::from_lists(context(), 4, {{me, {0}, {1}}}); }, "rank 0: lists itself as a neighbour");
  expect_error_on_every_rank(
      [&] { hympi::Pattern::from_lists(context(), 4, {{size, {0}, {}}}); },
      "rank 0: neighbour rank " + std::to_string(size) + " is not in the communicator (size " + std::to_string(size) + ")");
  if (size < 3) return;
  std::vector<NeighborLists> lists;
  if (me == 0) lists = {{1, {}, {2}}, {2, {}, {2}}};
  if (me == 1 || me == 2) lists = {{0, {0}, {}}};
  expect_error_on_every_rank([&] { hympi::Pattern::from_lists(context(), 4, lists); },
                             "rank 0: ghost 2 is received twice (from rank 1 and from rank 2)");
}

TEST(PatternErrors, ChunkOrTypeDisagree) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  const int me = world_rank();
  expect_error_on_every_rank([&] { hympi::Pattern::from_lists(context(), 4, {}, me == 1 ? 3 : 1); },
                             "hympi: Pattern: ranks passed different chunk: 1 on rank");
  expect_error_on_every_rank(
      [&] { hympi::Pattern::from_lists(context(), 4, {}, 1, me == 1 ? Datatype::float32 : Datatype::float64); },
      "hympi: Pattern: ranks passed different element type: double on rank");
}

TEST(PatternErrors, UnitsThatDisagreeFailTheHaloOnEveryRank) {
  // with_unit is local: ranks that ask for different units learn it at the Halo's set-up.
  const int me = world_rank(), size = world_size();
  std::vector<NeighborLists> ring;
  if (size > 1) ring = {{(me + 1) % size, {0}, {}}, {(me + size - 1) % size, {}, {0}}};
  if (size == 2) ring = {{1 - me, {0}, {0}}};
  const hympi::Pattern lists = hympi::Pattern::from_lists_apart(context(), 1, 1, ring);
  EXPECT_THROW(lists.with_unit(0, Datatype::float64), hympi::Error);
  if (size < 2) return;
  expect_error_on_every_rank([&] { hympi::Halo(lists.with_unit(me == size - 1 ? 2 : 3, Datatype::float64), Strategy::shm); },
                             "hympi: Halo: ranks passed different chunk: 3 on rank");
  expect_error_on_every_rank(
      [&] { hympi::Halo(lists.with_unit(1, me == 0 ? Datatype::int32 : Datatype::float64), Strategy::shm); },
      "hympi: Halo: ranks passed different element type: ");
  hympi::Halo fine(lists.with_unit(4, Datatype::float32), Strategy::shm);  // and the lists still serve
  std::vector<float> send(4, float(me)), recv(4, -1.0f);
  fine.update(send.data(), recv.data());
  EXPECT_EQ(recv, std::vector<float>(4, float((me + size - 1) % size)));
}

TEST(PatternErrors, SeparateArrays) {
  const int me = world_rank(), size = world_size();
  // Ids are checked against the array they index: send 0..2, receive 0..9.
  if (size > 1) {
    const int next = (me + 1) % size, previous = (me + size - 1) % size;
    std::vector<NeighborLists> lists{{next, {2}, {}}, {previous, {}, {me == 0 ? 10 : 9}}};
    if (size == 2) lists = {{next, {2}, {me == 0 ? 10 : 9}}};
    expect_error_on_every_rank([&] { hympi::Pattern::from_lists_apart(context(), 3, 10, lists); },
                               "hympi: Pattern: rank 0: receives from rank " + std::to_string(size - 1) +
                                   " into local id 10, outside 0..9 (recv_points 10)");
    // The same id sent and received is fine with two arrays, an error with one.
    std::vector<NeighborLists> both{{next, {2}, {}}, {previous, {}, {2}}};
    if (size == 2) both = {{next, {2}, {2}}};
    EXPECT_NO_THROW(hympi::Pattern::from_lists_apart(context(), 3, 10, both));
    expect_error_on_every_rank([&] { hympi::Pattern::from_lists(context(), 3, both); },
                               "rank 0: local id 2 is a ghost (from rank " + std::to_string(size - 1) + ") and is also sent");
    // Every rank builds the same kind.
    expect_error_on_every_rank(
        [&] {
          if (me == size - 1) hympi::Pattern::from_lists_apart(context(), 3, 3, {});
          else hympi::Pattern::from_lists(context(), 3, {});
        },
        "hympi: Pattern: ranks passed different arrays: ");
  }
  hympi::Pattern apart = hympi::Pattern::from_lists_apart(context(), 3, 5, {});
  EXPECT_THROW((void)apart.local_points(), hympi::Error);
  expect_error_on_every_rank([&] { hympi::order_local_ids(apart); },
                             "hympi: order_local_ids renumbers the one array of a pattern from from_lists");
}

TEST(PatternErrors, OwnerThatDoesNotOwnTheId) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  const int me = world_rank();
  std::vector<int64_t> global{int64_t(me) * 10, int64_t(me) * 10 + 1};
  std::vector<int> owners{me, me};
  if (me == 1) {
    global.push_back(7);  // rank 0 owns 0 and 1 only
    owners.push_back(0);
  }
  expect_error_on_every_rank([&] { hympi::Pattern::from_owners(context(), global, owners); },
                             "hympi: Pattern: rank 1 has a ghost of global id 7 owned by rank 0, but rank 0 does not own that id");
}

TEST(HaloErrors, UnknownStrategyNameListsTheValidOnes) {
  expect_error_on_every_rank([] { hympi::strategy_from_name("fast"); },
                             "hympi: unknown ghost-update strategy 'fast'; valid: shm, shm_direct, flat_mpi, neighbor, "
                             "rma_fence, rma_pscw, rma_lock, rma_lock_target, aggregated, aggregated_odm, automatic");
  EXPECT_EQ(hympi::strategy_from_name("aggregated"), Strategy::aggregated);
}

// Arrays that fail an update's checks throw on the rank that passed them and refuse the
// update (Misuse.HaloArraysWrongOnOneRankFailEveryRank has them on one rank only): the
// Halo then throws on every call, so each case below gets a Halo of its own.
template <class Update>
void expect_refused(hympi::Halo&& halo, Update update, const std::string& reason) {
  try {
    update(halo);
    ADD_FAILURE() << "no error, expected: " << reason;
  } catch (const hympi::Error& e) {
    EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
  }
  try {
    update(halo);
    ADD_FAILURE() << "a refused Halo took another update";
  } catch (const hympi::Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("could not take part in a ghost update ("), std::string::npos) << message;
    EXPECT_NE(message.find(reason), std::string::npos) << message;
  }
}

TEST(HaloErrors, SeparateArraysFormsAndSharedField) {
  hympi::Pattern apart = hympi::Pattern::from_lists_apart(context(), 3, 5, {});
  double s0[3], s1[3], r0[5], r1[5];
  const double *c0 = s0, *c1 = s1;
  expect_refused(hympi::Halo(apart, Strategy::shm, 2), [&](hympi::Halo& h) { h.update({r0, r1}); },
                 "hympi: Halo: the pattern has separate send and receive arrays");
  expect_refused(hympi::Halo(apart, Strategy::shm, 2), [&](hympi::Halo& h) { h.update({c0}, {r0, r1}); },
                 "hympi: Halo was set up for 2 field(s), got 1 send and 2 receive array(s)");
  EXPECT_NO_THROW(hympi::Halo(apart, Strategy::shm, 2).update({c0, c1}, {r0, r1}));
  float f[5];
  expect_refused(hympi::Halo(apart, Strategy::shm), [&](hympi::Halo& h) { h.update(static_cast<const float*>(f), f); },
                 "hympi: Halo: the pattern moves double, the vectors passed hold float");
  // shm_direct: the send arrays are its shared fields (send_points long), the receive arrays any.
  expect_refused(hympi::Halo(apart, Strategy::shm_direct), [&](hympi::Halo& h) { h.update(c0, r0); },
                 "moves the vectors of Halo::shared_field(); the send array of field 0 is another array");
  hympi::Halo direct(apart, Strategy::shm_direct);
  EXPECT_NO_THROW(direct.update(static_cast<const double*>(direct.shared_field<double>()), r0));
  // A one-array pattern takes both forms.
  hympi::Pattern one = hympi::Pattern::from_lists(context(), 5, {});
  hympi::Halo plain(one, Strategy::flat_mpi);
  EXPECT_NO_THROW(plain.update(r0));
  EXPECT_NO_THROW(plain.update(static_cast<const double*>(r1), r0));
}

TEST(HaloErrors, WrongTypeFieldCountAndSharedField) {
  hympi::Pattern pattern = hympi::Pattern::from_lists(context(), 4, {});
  float f[4];
  expect_refused(hympi::Halo(pattern, Strategy::shm), [&](hympi::Halo& h) { h.update(f); },
                 "hympi: Halo: the pattern moves double, the vectors passed hold float");
  double a[4], b[4];
  expect_refused(hympi::Halo(pattern, Strategy::shm), [&](hympi::Halo& h) { h.update({a, b}); },
                 "hympi: Halo was set up for 1 field(s), got 2");
  hympi::Halo halo(pattern, Strategy::shm);
  EXPECT_THROW(halo.shared_field<double>(), hympi::Error);  // an accessor: this rank's error, the Halo works on
  EXPECT_NO_THROW(halo.update(a));
  expect_refused(hympi::Halo(pattern, Strategy::shm_direct), [&](hympi::Halo& h) { h.update(a); },
                 "moves the vectors of Halo::shared_field(); field 0 is another array");
  hympi::Halo direct(pattern, Strategy::shm_direct);
  EXPECT_NO_THROW(direct.update(direct.shared_field<double>()));
  expect_error_on_every_rank([&] { hympi::Halo h(pattern, Strategy::shm, world_rank() == 0 ? 1 : 2); },
                             world_size() > 1 ? "hympi: Halo: ranks passed different field count: 1 on rank 0, 2 on rank"
                                              : "");
}

}  // namespace
