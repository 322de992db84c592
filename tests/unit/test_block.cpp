// SPDX-License-Identifier: BSD-3-Clause
// Blocks and stencils of structured grids (include/hympi/block.hpp), MPI-free: blocks
// tile the grid, and the two ends of every message list the same global points in the
// same order.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "hympi/block.hpp"

using namespace hympi;

namespace {

/// Global coordinates of a local id of `b`.
Index3 global_of(const Block& b, int id) {
  Index3 local{};
  for (std::size_t d = 0; d < 3; ++d) {
    const int extent = b.size[d] + 2 * b.halo[d];
    local[d] = id % extent - b.halo[d];
    id /= extent;
  }
  return {b.begin[0] + local[0], b.begin[1] + local[1], b.begin[2] + local[2]};
}

std::vector<Index3> globals(const Block& b, const std::vector<int>& ids) {
  std::vector<Index3> g;
  for (int id : ids) g.push_back(global_of(b, id));
  return g;
}

}  // namespace

TEST(Block, BlocksTileTheGridExtraPointsFirst) {
  const Index3 global{10, 7, 1}, dims{3, 2, 1};
  int covered = 0;
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 2; ++y) {
      const Block b = make_block(global, dims, {x, y, 0}, 1, 2);
      EXPECT_EQ(b.size[0], x == 0 ? 4 : 3);
      EXPECT_EQ(b.begin[0], x == 0 ? 0 : 4 + 3 * (x - 1));
      EXPECT_EQ(b.size[1], y == 0 ? 4 : 3);
      EXPECT_EQ(b.halo[2], 0);  // a flat dimension has no ghosts
      EXPECT_EQ(b.local_points(), (b.size[0] + 2) * (b.size[1] + 2));
      covered += b.owned_points();
    }
  EXPECT_EQ(covered, 70);
}

TEST(Block, ThinnerThanTheGhostWidthIsAnError) {
  try {
    make_block({4, 4, 1}, {4, 1, 1}, {0, 0, 0}, 2, 2);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("fewer than the ghost width 2"), std::string::npos) << e.what();
  }
}

TEST(Block, CartesianRankIsRowMajor) {
  EXPECT_EQ(cartesian_rank({2, 3, 4}, {1, 2, 3}), 1 * 12 + 2 * 4 + 3);
  EXPECT_EQ(cartesian_rank({2, 3, 4}, {2, 0, 0}), -1);
  EXPECT_EQ(cartesian_rank({2, 3, 4}, {0, -1, 0}), -1);
}

TEST(Block, BothEndsOfEveryMessageListTheSamePoints) {
  for (Stencil stencil : {Stencil::star5, Stencil::box9, Stencil::star7, Stencil::star19, Stencil::box27}) {
    const int dimensions = dimensions_of(stencil);
    const Index3 global{9, 8, dimensions == 3 ? 7 : 1}, dims{3, 2, dimensions == 3 ? 2 : 1};
    for (int rank = 0; rank < dims[0] * dims[1] * dims[2]; ++rank) {
      const Index3 coords{rank / (dims[1] * dims[2]), rank / dims[2] % dims[1], rank % dims[2]};
      ASSERT_EQ(cartesian_rank(dims, coords), rank);
      const Block me = make_block(global, dims, coords, 1, dimensions);
      const auto messages = block_messages(me, stencil);
      const auto sizes = block_message_sizes(me, stencil);
      ASSERT_EQ(messages.size(), sizes.size());
      for (std::size_t i = 0; i < messages.size(); ++i) {
        const BlockMessage& m = messages[i];
        EXPECT_EQ(m.send.size(), sizes[i].send);
        EXPECT_EQ(m.recv.size(), sizes[i].recv);
        const Block other = make_block(global, dims, m.neighbor, 1, dimensions);
        for (const BlockMessage& back : block_messages(other, stencil))
          if (back.neighbor == coords) {
            EXPECT_EQ(globals(me, m.send), globals(other, back.recv)) << name_of(stencil) << " rank " << rank;
            EXPECT_EQ(globals(me, m.recv), globals(other, back.send)) << name_of(stencil) << " rank " << rank;
          }
      }
    }
  }
}

TEST(Stencil, NamesAndPointCounts) {
  EXPECT_EQ(stencil_from_name("star19"), Stencil::star19);
  EXPECT_EQ(stencil_from_name("27"), Stencil::box27);
  EXPECT_EQ(offsets_of(Stencil::star7).size(), 6u);
  EXPECT_EQ(offsets_of(Stencil::box9).size(), 8u);
  try {
    stencil_from_name("star3");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "hympi: unknown stencil 'star3'; valid: star5 (5), box9 (9), star7 (7), star19 (19), box27 (27)");
  }
}
