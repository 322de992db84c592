// SPDX-License-Identifier: BSD-3-Clause
// Structured grids: block arithmetic (every message agrees with its other end and the
// ghosts cover exactly what the stencil reads, for process grids far larger than the
// ranks running), CartesianGrid ghost updates against the exact values, the message
// statistics against HaloStats, and the grid errors on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "hympi/grid.hpp"
#include "hympi/statistics.hpp"
#include "test_util.hpp"

using hympi::Block;
using hympi::Index3;
using hympi::Stencil;

namespace {

using namespace hympi::test;

/// Global coordinates of a local id of `b`.
Index3 global_of(const Block& b, int id) {
  Index3 local;
  for (std::size_t d = 0; d < 3; ++d) {
    const int extent = b.size[d] + 2 * b.halo[d];
    local[d] = id % extent - b.halo[d];
    id /= extent;
  }
  return {b.begin[0] + local[0], b.begin[1] + local[1], b.begin[2] + local[2]};
}

struct Case {
  Index3 global, dims;
  Stencil stencil;
  int width;
};

const std::vector<Case> kCases = {
    {{13, 9, 1}, {3, 2, 1}, Stencil::star5, 1},  {{13, 9, 1}, {3, 2, 1}, Stencil::box9, 2},
    {{10, 7, 6}, {2, 3, 2}, Stencil::star7, 1},  {{10, 7, 6}, {2, 3, 2}, Stencil::star19, 1},
    {{11, 8, 9}, {3, 2, 4}, Stencil::box27, 2},  {{12, 12, 12}, {1, 1, 1}, Stencil::star19, 1},
    {{96, 96, 96}, {4, 4, 2}, Stencil::star19, 1}};

TEST(GridBlocks, MessagesAgreeAndGhostsCoverTheStencil) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::string(hympi::name_of(c.stencil)) + " width " + std::to_string(c.width));
    const int dimensions = hympi::dimensions_of(c.stencil);
    std::map<Index3, Block> blocks;
    std::map<Index3, std::vector<hympi::BlockMessage>> messages;
    for (int x = 0; x < c.dims[0]; ++x)
      for (int y = 0; y < c.dims[1]; ++y)
        for (int z = 0; z < c.dims[2]; ++z) {
          const Index3 at{x, y, z};
          blocks[at] = hympi::make_block(c.global, c.dims, at, c.width, dimensions);
          messages[at] = hympi::block_messages(blocks[at], c.stencil);
          const auto sizes = hympi::block_message_sizes(blocks[at], c.stencil);
          ASSERT_EQ(sizes.size(), messages[at].size());
          for (std::size_t i = 0; i < sizes.size(); ++i) {
            EXPECT_EQ(sizes[i].send, messages[at][i].send.size());
            EXPECT_EQ(sizes[i].recv, messages[at][i].recv.size());
          }
        }
    std::size_t owned = 0;
    for (const auto& [at, block] : blocks) {
      owned += std::size_t(block.owned_points());
      std::set<Index3> received;
      for (const hympi::BlockMessage& m : messages[at]) {
        // The other end's message back to me lists the same global points in the same order.
        const auto& theirs = messages[m.neighbor];
        const Index3 me = at;  // a structured binding: Clang before 16 cannot capture it
        auto back = std::find_if(theirs.begin(), theirs.end(), [&](const auto& t) { return t.neighbor == me; });
        ASSERT_NE(back, theirs.end());
        ASSERT_EQ(back->send.size(), m.recv.size());
        for (std::size_t i = 0; i < m.recv.size(); ++i)
          ASSERT_EQ(global_of(blocks[m.neighbor], back->send[i]), global_of(block, m.recv[i]));
        for (int id : m.recv) EXPECT_TRUE(received.insert(global_of(block, id)).second) << "ghost received twice";
      }
      // Every point the stencil reads from an owned point is owned or received.
      for (int k = 0; k < block.size[2]; ++k)
        for (int j = 0; j < block.size[1]; ++j)
          for (int i = 0; i < block.size[0]; ++i)
            for (const Index3& o : hympi::offsets_of(c.stencil))
              for (int reach = 1; reach <= c.width; ++reach) {
                const Index3 q{block.begin[0] + i + reach * o[0], block.begin[1] + j + reach * o[1],
                               block.begin[2] + k + reach * o[2]};
                bool in_grid = true, mine = true;
                for (std::size_t d = 0; d < 3; ++d) {
                  in_grid = in_grid && q[d] >= 0 && q[d] < c.global[d];
                  mine = mine && q[d] >= block.begin[d] && q[d] < block.begin[d] + block.size[d];
                }
                if (in_grid && !mine) {
                  ASSERT_TRUE(received.count(q)) << "a point the stencil reads is not received";
                }
              }
    }
    EXPECT_EQ(owned, std::size_t(c.global[0]) * std::size_t(c.global[1]) * std::size_t(c.global[2]));
  }
}

TEST(GridBlocks, NamesAndErrors) {
  EXPECT_EQ(hympi::stencil_from_name("19"), Stencil::star19);
  EXPECT_EQ(hympi::stencil_from_name("box9"), Stencil::box9);
  EXPECT_EQ(hympi::offsets_of(Stencil::star19).size(), 18u);
  EXPECT_EQ(hympi::offsets_of(Stencil::box27).size(), 26u);
  expect_error_on_every_rank([] { hympi::stencil_from_name("13"); },
                             "hympi: unknown stencil '13'; valid: star5 (5), box9 (9), star7 (7), star19 (19), box27 (27)");
  expect_error_on_every_rank([] { hympi::make_block({10, 10, 1}, {4, 1, 1}, {0, 0, 0}, 3, 2); },
                             "hympi: grid: 10 points over 4 processes in dimension 0 leave blocks of 2 points, fewer "
                             "than the ghost width 3; use a larger grid or fewer ranks");
}

/// The value of global point q at update `step` (exact in double).
double value(const Index3& q, int step) { return q[0] + 1000.0 * q[1] + 1e6 * q[2] + 1e9 * step; }

TEST(CartesianGrid, GhostUpdateFillsWhatTheStencilReads) {
  const long updates = env_long("HYMPI_TEST_ITERATIONS", 200) / 10 + 5;
  for (Stencil stencil : {Stencil::star5, Stencil::box9, Stencil::star7, Stencil::star19, Stencil::box27})
    for (bool reorder : {false, true})
      for (hympi::Strategy strategy : {hympi::Strategy::shm, hympi::Strategy::flat_mpi, hympi::Strategy::aggregated_odm}) {
        SCOPED_TRACE(std::string(hympi::name_of(stencil)) + " " + hympi::name_of(strategy) + (reorder ? " reordered" : ""));
        const std::vector<int> global = hympi::dimensions_of(stencil) == 2 ? std::vector<int>{17, 12} : std::vector<int>{9, 8, 7};
        hympi::CartesianGrid grid(context(), global, stencil, 1, reorder);
        const Block& b = grid.block();
        hympi::Halo halo(grid.pattern(), strategy);
        std::vector<double> u(std::size_t(b.local_points()), -1.0);
        for (long step = 0; step < updates; ++step) {
          for (int k = 0; k < b.size[2]; ++k)
            for (int j = 0; j < b.size[1]; ++j)
              for (int i = 0; i < b.size[0]; ++i)
                u[std::size_t(b.index(i, j, k))] = value({b.begin[0] + i, b.begin[1] + j, b.begin[2] + k}, int(step));
          halo.update(u.data());
          for (const hympi::NeighborLists& n : grid.pattern().neighbors())
            for (int id : n.recv) ASSERT_EQ(u[std::size_t(id)], value(global_of(b, id), int(step)));
        }
      }
}

TEST(CartesianGrid, ErrorsOnEveryRank) {
  const int me = world_rank(), size = world_size();
  if (size > 1)
    expect_error_on_every_rank([&] { hympi::CartesianGrid g(context(), std::vector<int>{10 + me % 2, 10}, Stencil::star5); },
                               "hympi: CartesianGrid: ranks passed different x extent: 10 on rank");
  expect_error_on_every_rank([&] { hympi::CartesianGrid g(context(), std::vector<int>{10, 10}, Stencil::star7); },
                             "hympi: CartesianGrid: the stencil star7 needs 3 grid extents, got 2");
  if (size > 1)  // a point per dimension cannot be split
    expect_error_on_every_rank([&] { hympi::CartesianGrid g(context(), std::vector<int>{1, 1, 1}, Stencil::star7); },
                               "fewer than the ghost width 1; use a larger grid or fewer ranks");
}

TEST(MessageStatistics, GridDryRunMatchesTheLivePatternAndHaloStats) {
  const std::vector<int> global{20, 18, 16};
  hympi::CartesianGrid grid(context(), global, Stencil::star19);
  const auto live = hympi::pattern_messages(grid.pattern(), 2);
  const Block& b = grid.block();
  const auto dry = hympi::grid_messages({20, 18, 16}, b.dims, Stencil::star19, 1, 2 * sizeof(double));
  ASSERT_EQ(live.size(), dry.size());
  std::set<std::tuple<int, int, std::size_t>> a, c;
  for (const auto& m : live) a.insert({m.from, m.to, m.bytes});
  for (const auto& m : dry) c.insert({m.from, m.to, m.bytes});
  EXPECT_EQ(a, c);

  const std::vector<int>& node_of = context().topology().node_of();
  const hympi::MessageStatistics st = hympi::message_statistics(live, node_of);
  for (hympi::Strategy s : {hympi::Strategy::shm, hympi::Strategy::aggregated}) {
    hympi::Halo halo(grid.pattern(), s, 2);
    unsigned long long mine[4] = {(unsigned long long)halo.stats().internode_messages, halo.stats().internode_bytes,
                                  (unsigned long long)halo.stats().intranode_messages, halo.stats().intranode_bytes},
                       total[4];
    MPI_Allreduce(mine, total, 4, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(total[0], s == hympi::Strategy::aggregated ? st.node_pair_messages : st.internode_messages);
    EXPECT_EQ(total[1], st.internode_bytes);
    EXPECT_EQ(total[2], st.intranode_messages);
    EXPECT_EQ(total[3], st.intranode_bytes);
  }
}

TEST(MessageStatistics, ReproducesTheMashmTable) {
  // Jamroz & Dennis (2016), message statistics on Yellowstone: 96^3 grid, 19-point
  // stencil, 8 B per point, 16 ranks per node. Per node count: Original average message
  // size, MASHM inter-node messages and average size (all reproduced exactly), and the slide's
  // "Original inter-node messages" column, which equals the intranode message count (the
  // internode count times its average size would exceed MASHM's total bytes).
  struct Row {
    int nodes;
    double flat_average;
    std::size_t node_pairs;
    double aggregated_average;
    std::size_t slide_original_messages;
  };
  const Row rows[] = {{2, 2852.6, 2, 79872.0, 240},       {4, 1296.0, 6, 82944.0, 336},     {8, 1296.0, 14, 82944.0, 672},
                      {16, 680.2, 72, 19498.7, 1344},     {32, 361.7, 188, 9787.9, 2304},   {64, 312.9, 396, 8494.5, 4608},
                      {128, 194.3, 884, 4986.8, 9216},    {256, 111.0, 1860, 3493.2, 7680}, {512, 86.4, 3812, 2710.2, 15360}};
  for (const Row& row : rows) {
    SCOPED_TRACE(std::to_string(row.nodes) + " nodes");
    int dims[3] = {0, 0, 0};
    MPI_Dims_create(row.nodes * 16, 3, dims);
    const auto messages = hympi::grid_messages({96, 96, 96}, {dims[0], dims[1], dims[2]}, Stencil::star19, 1, 8);
    const auto st = hympi::message_statistics(messages, hympi::consecutive_nodes(row.nodes * 16, 16));
    EXPECT_EQ(st.nodes, row.nodes);
    EXPECT_NEAR(st.average_internode_message(), row.flat_average, 0.05);
    EXPECT_EQ(st.node_pair_messages, row.node_pairs);
    EXPECT_NEAR(st.average_node_pair_message(), row.aggregated_average, 0.05);
    EXPECT_EQ(st.intranode_messages, row.slide_original_messages);
  }
}

}  // namespace
