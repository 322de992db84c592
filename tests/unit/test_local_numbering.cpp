// SPDX-License-Identifier: BSD-3-Clause
// The local numbering (src/halo/local_numbering.hpp), MPI-free: inner | boundary | ghost,
// intranode neighbours first, each neighbour's points and ghosts one range.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "halo/local_numbering.hpp"

using hympi::halo::NeighborIds;
using hympi::halo::number_points;

namespace {

/// The new ids of `ids`, in order.
std::vector<int> renumbered(const std::vector<int>& new_id, const std::vector<int>& ids) {
  std::vector<int> out;
  for (int id : ids) out.push_back(new_id[std::size_t(id)]);
  return out;
}

std::vector<int> range(int first, int count) {
  std::vector<int> r;
  for (int i = 0; i < count; ++i) r.push_back(first + i);
  return r;
}

}  // namespace

TEST(LocalNumbering, InnerBoundaryGhostIntranodeFirst) {
  // 12 points. Neighbour 0 (another node) gets 1, 4 and the shared point 7; neighbour 1
  // (this node) gets 9, 2 and 7. Ghosts: 11, 0 from neighbour 0; 5 from neighbour 1.
  const std::vector<int> send0{1, 4, 7}, recv0{11, 0}, send1{9, 2, 7}, recv1{5};
  const std::vector<NeighborIds> lists{{send0, recv0, false}, {send1, recv1, true}};
  const auto numbering = number_points(12, lists);

  EXPECT_EQ(numbering.inner, 4);  // 3, 6, 8, 10, in id order
  EXPECT_EQ(numbering.boundary, 5);
  EXPECT_EQ(numbering.ghosts, 3);
  EXPECT_EQ(renumbered(numbering.new_id, {3, 6, 8, 10}), range(0, 4));
  EXPECT_EQ(renumbered(numbering.new_id, {9, 2}), range(4, 2));   // the intranode neighbour's own points first
  EXPECT_EQ(renumbered(numbering.new_id, {1, 4}), range(6, 2));
  EXPECT_EQ(renumbered(numbering.new_id, {7}), range(8, 1));      // sent to both: last of the boundary
  EXPECT_EQ(renumbered(numbering.new_id, {5}), range(9, 1));      // intranode ghosts first
  EXPECT_EQ(renumbered(numbering.new_id, {11, 0}), range(10, 2)); // in receive-list order

  std::vector<int> sorted = numbering.new_id;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, range(0, 12));  // a permutation
}

TEST(LocalNumbering, NoNeighboursKeepsTheNumbering) {
  const auto numbering = number_points(5, {});
  EXPECT_EQ(numbering.new_id, range(0, 5));
  EXPECT_EQ(numbering.inner, 5);
  EXPECT_EQ(numbering.boundary + numbering.ghosts, 0);
}
