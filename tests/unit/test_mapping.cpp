// SPDX-License-Identifier: BSD-3-Clause
// map_ranks on rank graphs (include/hympi/mapping.hpp), without MPI: known optimal cases
// recovered from a shuffled order (cliques on nodes, sub-cliques on domains, any placement
// of the nodes), the current order kept when it is already optimal, a valid permutation
// never worse than the current order for any input (random graphs, odd sizes, isolated
// ranks, one node), and errors for bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "hympi/mapping.hpp"

using namespace hympi;

namespace {

/// Traffic of `groups` cliques of `size` ranks each (clique c: ranks c*size .. c*size+size-1
/// before `relabel`), `heavy` bytes (+-50 %) inside, `light` bytes between random pairs of
/// different cliques; then every rank r renamed relabel[r].
std::vector<RankMessage> cliques(int groups, int size, std::size_t heavy, std::size_t light, const std::vector<int>& relabel,
                                 std::mt19937& gen) {
  std::vector<RankMessage> traffic;
  const int ranks = groups * size;
  std::uniform_int_distribution<std::size_t> jitter(heavy / 2, heavy + heavy / 2);
  for (int a = 0; a < ranks; ++a)
    for (int b = 0; b < ranks; ++b)
      if (a != b && a / size == b / size) traffic.push_back({relabel[std::size_t(a)], relabel[std::size_t(b)], jitter(gen)});
  std::uniform_int_distribution<int> any(0, ranks - 1);
  for (int i = 0; i < 2 * ranks; ++i) {
    const int a = any(gen), b = any(gen);
    if (a / size != b / size) traffic.push_back({relabel[std::size_t(a)], relabel[std::size_t(b)], light});
  }
  return traffic;
}

std::vector<int> shuffled(int n, std::mt19937& gen) {
  std::vector<int> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), gen);
  return p;
}

bool is_permutation(const std::vector<int>& p) {
  std::vector<int> sorted(p);
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != int(i)) return false;
  return true;
}

/// The key (node or domain of each process) of every new rank.
std::vector<int> key_of_new_ranks(const std::vector<int>& new_rank, const std::vector<int>& key) {
  return node_of_new_ranks(new_rank, key);
}

std::size_t internode(const std::vector<RankMessage>& traffic, const std::vector<int>& node_of_rank) {
  std::vector<int> dense(node_of_rank);  // message_statistics wants node ids 0 .. nodes-1
  std::vector<int> ids(node_of_rank);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (int& n : dense) n = int(std::lower_bound(ids.begin(), ids.end(), n) - ids.begin());
  return message_statistics(traffic, dense).internode_bytes;
}

/// Every clique (before relabelling: ranks c*size ..) has one key value of its own.
void expect_cliques_together(const std::vector<int>& key_of_rank, int groups, int size, const std::vector<int>& relabel) {
  std::set<int> keys;
  for (int c = 0; c < groups; ++c) {
    const int key = key_of_rank[std::size_t(relabel[std::size_t(c * size)])];
    for (int i = 1; i < size; ++i)
      EXPECT_EQ(key_of_rank[std::size_t(relabel[std::size_t(c * size + i)])], key) << "clique " << c << " member " << i;
    keys.insert(key);
  }
  EXPECT_EQ(int(keys.size()), groups);
}

}  // namespace

TEST(MapRanks, ShuffledCliquesLandOneOnEachNode) {
  std::mt19937 gen(7);
  for (auto [groups, size] : {std::pair{2, 4}, {3, 5}, {4, 36}, {8, 16}, {16, 8}}) {
    SCOPED_TRACE(testing::Message() << groups << " cliques of " << size);
    const std::vector<int> relabel = shuffled(groups * size, gen);
    const auto traffic = cliques(groups, size, 1000, 3, relabel, gen);
    const ProcessPlacement placement = ProcessPlacement::consecutive(groups * size, size);
    const std::vector<int> new_rank = map_ranks(traffic, placement);
    ASSERT_TRUE(is_permutation(new_rank));
    expect_cliques_together(key_of_new_ranks(new_rank, placement.node_of), groups, size, relabel);
  }
}

TEST(MapRanks, AnyPlacementOfTheNodes) {
  // Nodes given round robin (process p on node p % nodes), as a launcher's cyclic mapping does.
  std::mt19937 gen(11);
  const int groups = 4, size = 9;
  const std::vector<int> relabel = shuffled(groups * size, gen);
  const auto traffic = cliques(groups, size, 500, 2, relabel, gen);
  ProcessPlacement placement;
  for (int p = 0; p < groups * size; ++p) placement.node_of.push_back(10 * (p % groups) + 3);  // any ids
  const std::vector<int> new_rank = map_ranks(traffic, placement);
  ASSERT_TRUE(is_permutation(new_rank));
  expect_cliques_together(key_of_new_ranks(new_rank, placement.node_of), groups, size, relabel);
}

TEST(MapRanks, SubCliquesLandOnDomains) {
  // 4 nodes of 8 ranks in 2 domains of 4: groups of 8 made of two sub-cliques of 4, heavy
  // inside a sub-clique, medium between the two of a group, light between groups.
  std::mt19937 gen(3);
  const int nodes = 4, per_node = 8, per_domain = 4, ranks = nodes * per_node;
  const std::vector<int> relabel = shuffled(ranks, gen);
  std::vector<RankMessage> traffic;
  for (int a = 0; a < ranks; ++a)
    for (int b = 0; b < ranks; ++b) {
      if (a == b) continue;
      const std::size_t bytes = a / per_domain == b / per_domain ? 1000 : a / per_node == b / per_node ? 100 : (a + b) % 7 == 0 ? 1 : 0;
      traffic.push_back({relabel[std::size_t(a)], relabel[std::size_t(b)], bytes});
    }
  const ProcessPlacement placement = ProcessPlacement::consecutive(ranks, per_node, per_node / per_domain);
  const std::vector<int> new_rank = map_ranks(traffic, placement);
  ASSERT_TRUE(is_permutation(new_rank));
  expect_cliques_together(key_of_new_ranks(new_rank, placement.node_of), nodes, per_node, relabel);
  std::vector<int> domain(static_cast<std::size_t>(ranks));  // a key per (node, domain)
  for (int p = 0; p < ranks; ++p) domain[std::size_t(p)] = placement.node_of[std::size_t(p)] * 2 + placement.domain_of[std::size_t(p)];
  expect_cliques_together(key_of_new_ranks(new_rank, domain), nodes * 2, per_domain, relabel);
}

TEST(MapRanks, AnOptimalOrderIsKept) {
  std::mt19937 gen(5);
  std::vector<int> identity(32);
  std::iota(identity.begin(), identity.end(), 0);
  const auto traffic = cliques(4, 8, 1000, 1, identity, gen);
  const std::vector<int> new_rank = map_ranks(traffic, ProcessPlacement::consecutive(32, 8));
  EXPECT_EQ(new_rank, identity);
  EXPECT_EQ(map_ranks({}, ProcessPlacement::consecutive(5, 2)), std::vector<int>({0, 1, 2, 3, 4}));
}

TEST(MapRanks, AGridInRandomOrderLosesMostOfItsInternodeTraffic) {
  // The 19-point grid on 8x8x8 ranks, ranks shuffled, nodes of 32: METIS's cut of the
  // rank graph puts whole sub-blocks on nodes.
  std::mt19937 gen(1);
  const std::vector<int> relabel = shuffled(512, gen);
  std::vector<RankMessage> traffic = grid_messages({64, 64, 64}, {8, 8, 8}, Stencil::star19, 1, 8);
  for (RankMessage& m : traffic) m.from = relabel[std::size_t(m.from)], m.to = relabel[std::size_t(m.to)];
  const ProcessPlacement placement = ProcessPlacement::consecutive(512, 32);
  const std::vector<int> new_rank = map_ranks(traffic, placement);
  ASSERT_TRUE(is_permutation(new_rank));
  const std::size_t before = internode(traffic, placement.node_of);
  const std::size_t after = internode(traffic, node_of_new_ranks(new_rank, placement.node_of));
  EXPECT_LT(double(after), 0.5 * double(before)) << before << " -> " << after;
}

TEST(MapRanks, AnyInputGivesAPermutationNoWorseThanTheCurrentOrder) {
  std::mt19937 gen(2024);
  for (int trial = 0; trial < 60; ++trial) {
    std::uniform_int_distribution<int> count(1, trial < 40 ? 40 : 300);
    const int ranks = count(gen);
    const int per_node = std::uniform_int_distribution<int>(1, ranks + 2)(gen);  // may exceed ranks: one node
    const int domains = std::uniform_int_distribution<int>(1, 4)(gen);
    ProcessPlacement placement = ProcessPlacement::consecutive(ranks, per_node, domains);
    if (trial % 3 == 0) std::shuffle(placement.node_of.begin(), placement.node_of.end(), gen);  // nodes of any shape
    std::vector<RankMessage> traffic;
    const int isolated = ranks / 4;  // ranks >= ranks - isolated send and receive nothing
    const int active = std::max(1, ranks - isolated);
    const int messages = std::uniform_int_distribution<int>(0, 4 * ranks)(gen);
    std::uniform_int_distribution<int> any(0, active - 1);
    std::uniform_int_distribution<std::size_t> bytes(0, trial % 2 ? 100 : std::size_t(1) << 40);  // huge weights scale down
    for (int i = 0; i < messages; ++i) traffic.push_back({any(gen), any(gen), bytes(gen)});
    SCOPED_TRACE(testing::Message() << "trial " << trial << ": " << ranks << " ranks, nodes of " << per_node << ", "
                                    << domains << " domains, " << messages << " messages");
    const std::vector<int> new_rank = map_ranks(traffic, placement);
    ASSERT_EQ(new_rank.size(), std::size_t(ranks));
    ASSERT_TRUE(is_permutation(new_rank));
    EXPECT_LE(internode(traffic, node_of_new_ranks(new_rank, placement.node_of)), internode(traffic, placement.node_of));
    EXPECT_EQ(map_ranks(traffic, placement), new_rank) << "not deterministic";
  }
}

TEST(MapRanks, ConsecutivePlacement) {
  const ProcessPlacement p = ProcessPlacement::consecutive(10, 4, 2);
  EXPECT_EQ(p.node_of, std::vector<int>({0, 0, 0, 0, 1, 1, 1, 1, 2, 2}));
  EXPECT_EQ(p.domain_of, std::vector<int>({0, 0, 1, 1, 0, 0, 1, 1, 0, 1}));
  EXPECT_TRUE(ProcessPlacement::consecutive(10, 4).domain_of.empty());
}

TEST(MapRanks, BadInputIsAnError) {
  const ProcessPlacement two = ProcessPlacement::consecutive(2, 1);
  const std::vector<RankMessage> outside{{0, 2, 8}};
  EXPECT_THROW(
      {
        try {
          map_ranks(outside, two);
        } catch (const Error& e) {
          EXPECT_STREQ(e.what(), "hympi: map_ranks: a message from rank 0 to rank 2 names a rank outside the placement's "
                                 "2 processes; pass a placement with a node for every rank");
          throw;
        }
      },
      Error);
  EXPECT_THROW(map_ranks({}, ProcessPlacement{{0, -1}, {}}), Error);
  EXPECT_THROW(map_ranks({}, ProcessPlacement{{0, 0}, {0}}), Error);
  EXPECT_THROW(ProcessPlacement::consecutive(4, 0), Error);
  EXPECT_THROW(node_of_new_ranks(std::vector<int>{0, 0}, std::vector<int>{0, 1}), Error);
}
