// SPDX-License-Identifier: BSD-3-Clause
// map_ranks on a live Pattern and the reordered communicator (include/hympi/mapping.hpp):
// heavy pairs that straddle the (emulated) nodes in rank order share a node after the
// mapping, the same permutation on every rank; the reordered communicator gives every
// process its new rank and carries messages between the new ranks (with MPICH's cliques,
// nodes that stay with the processes, its own Topology finds the pairs on one node); a
// permutation that differs between ranks is an error on every rank. With emulated sockets
// (HYMPI_EMULATE_SOCKETS), the placement groups each node's ranks as that setting says.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <set>
#include <vector>

#include "hympi/mapping.hpp"
#include "test_util.hpp"

using hympi::test::context;
using hympi::test::expect_error_on_every_rank;
using hympi::test::world_rank;
using hympi::test::world_size;

namespace {

/// Rank r's heavy partner: half the communicator away (on another node in rank order).
int partner(int r, int size) { return (r + size / 2) % size; }

/// Each rank exchanges `heavy` points with its partner (both ways: with an odd count the
/// rank whose partner it is, too) and one point with each ring neighbour.
hympi::Pattern heavy_pairs(hympi::Context& ctx, int heavy) {
  const int me = world_rank(), size = world_size();
  std::map<int, int> points;  // neighbour -> points each way
  for (int rank : std::set<int>{partner(me, size), (me - size / 2 + size) % size}) points[rank] += heavy;
  for (int ring : std::set<int>{(me + 1) % size, (me + size - 1) % size}) points[ring] += 1;
  points.erase(me);
  int owned = 2 * heavy + 2, next_ghost = owned;
  std::vector<hympi::NeighborLists> lists;
  for (auto [rank, n] : points) {
    hympi::NeighborLists l{rank, {}, {}};
    for (int i = 0; i < n; ++i) {
      l.send.push_back(i);
      l.recv.push_back(next_ghost++);
    }
    lists.push_back(std::move(l));
  }
  return hympi::Pattern::from_lists(ctx, next_ghost, std::move(lists));
}

}  // namespace

TEST(MapRanks, HeavyPairsShareANodeAndTheCommunicatorIsReordered) {
  auto& ctx = context();
  const hympi::Topology& topo = ctx.topology();
  const hympi::Pattern pattern = heavy_pairs(ctx, 512);
  const std::vector<int> new_rank = hympi::map_ranks(pattern);
  ASSERT_EQ(new_rank.size(), std::size_t(world_size()));
  std::vector<int> sorted(new_rank);
  std::sort(sorted.begin(), sorted.end());
  for (int r = 0; r < world_size(); ++r) ASSERT_EQ(sorted[std::size_t(r)], r);
  std::vector<int> rank0(new_rank);
  MPI_Bcast(rank0.data(), int(rank0.size()), MPI_INT, 0, MPI_COMM_WORLD);
  EXPECT_EQ(rank0, new_rank) << "not the same permutation on every rank";

  // Where each vertex (the work of a rank) runs afterwards.
  const std::vector<int> node_after = hympi::node_of_new_ranks(new_rank, topo.node_of());
  const bool pairs_fit = topo.node_count() > 1 && world_size() % 2 == 0 && topo.node_size() % 2 == 0;
  for (int v = 0; v < world_size() && pairs_fit; ++v)
    EXPECT_EQ(node_after[std::size_t(v)], node_after[std::size_t(partner(v, world_size()))]) << "vertex " << v;
  const auto traffic = hympi::pattern_messages(pattern);
  const auto before = hympi::message_statistics(traffic, topo.node_of()).internode_bytes;
  const auto after = hympi::message_statistics(traffic, node_after).internode_bytes;
  EXPECT_LE(after, before);
  if (pairs_fit) {
    EXPECT_LT(after, before);
  }

  MPI_Comm comm = hympi::reordered_comm(topo.world(), new_rank);
  int rank = -1;
  MPI_Comm_rank(comm, &rank);
  EXPECT_EQ(rank, new_rank[std::size_t(world_rank())]);
  // New rank v talks to new rank partner(v), as old rank v did: the communicator carries it.
  int sent = 1000 + rank, got = -1;
  const int to = partner(rank, world_size()), from = (rank - world_size() / 2 + world_size()) % world_size();
  MPI_Sendrecv(&sent, 1, MPI_INT, to, 0, &got, 1, MPI_INT, from, 0, comm, MPI_STATUS_IGNORE);
  EXPECT_EQ(got, 1000 + from);
  // Nodes that stay with the processes (MPICH's cliques; real nodes), unlike emulated
  // nodes, which follow rank order: the reordered communicator's own Topology sees every
  // heavy pair on one node.
  if (pairs_fit && hympi::test::env_long("HYMPI_TEST_NODES_FOLLOW_PROCESSES", 0)) {
    hympi::Topology reordered(comm);
    for (int v = 0; v < world_size(); ++v)
      EXPECT_EQ(reordered.node_of()[std::size_t(v)], reordered.node_of()[std::size_t(partner(v, world_size()))])
          << "new rank " << v;
  }
  MPI_Comm_free(&comm);
}

TEST(Placement, EmulatedSocketsGroupEachNodesRanks) {
  const char* sockets = std::getenv("HYMPI_EMULATE_SOCKETS");
  if (!sockets) GTEST_SKIP() << "set HYMPI_EMULATE_SOCKETS=S[:bunch|:scatter]";
  const hympi::Topology& topo = context().topology();
  const int s = std::min(std::atoi(sockets), topo.node_size());
  const bool scatter = std::strstr(sockets, ":scatter") != nullptr;
  const hympi::ProcessPlacement placement = hympi::placement_of(topo);
  ASSERT_EQ(placement.domain_of.size(), std::size_t(world_size()));
  // Group 0 is node rank 0's domain (domain 0), then the others in order: group = domain.
  std::vector<int> node_rank(static_cast<std::size_t>(world_size()));
  std::map<int, int> seen;  // per node, ranks so far (emulated nodes follow rank order)
  for (int r = 0; r < world_size(); ++r) node_rank[std::size_t(r)] = seen[topo.node_of()[std::size_t(r)]]++;
  for (int r = 0; r < world_size(); ++r) {
    const int nr = node_rank[std::size_t(r)], n = seen[topo.node_of()[std::size_t(r)]];
    EXPECT_EQ(placement.domain_of[std::size_t(r)], scatter ? nr % s : nr * std::min(s, n) / n) << "rank " << r;
  }
}

TEST(MapRanks, APermutationThatDiffersBetweenRanksIsAnError) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks to disagree";
  std::vector<int> identity(static_cast<std::size_t>(world_size()));
  std::iota(identity.begin(), identity.end(), 0);
  std::vector<int> mine(identity);
  if (world_rank() == 0) std::swap(mine[0], mine[1]);
  expect_error_on_every_rank([&] { MPI_Comm c = hympi::reordered_comm(MPI_COMM_WORLD, mine); MPI_Comm_free(&c); },
                             "hympi: reordered_comm: ranks passed different permutation (hash)");
  std::vector<int> twice(identity);
  twice.back() = 0;
  expect_error_on_every_rank([&] { MPI_Comm c = hympi::reordered_comm(MPI_COMM_WORLD, twice); MPI_Comm_free(&c); },
                             "the new ranks are not a permutation of 0.." + std::to_string(world_size() - 1));
}
