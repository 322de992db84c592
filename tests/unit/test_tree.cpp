// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include "core/coll/tree.hpp"

using hympi::core::TreeShape;
using hympi::core::Tree;
using hympi::core::TreeSpec;

namespace {

// Every node but the root has a parent; walking up reaches the root; child slots match.
void expect_valid(const Tree& tree) {
  for (int node = 0; node < tree.size(); ++node) {
    if (node == tree.root()) {
      EXPECT_EQ(tree.parent(node), -1);
      continue;
    }
    int parent = tree.parent(node);
    ASSERT_GE(parent, 0);
    EXPECT_EQ(tree.children(parent)[tree.slot(node)], node);
    EXPECT_TRUE(tree.in_subtree(parent, node));
    EXPECT_FALSE(tree.in_subtree(node, parent));
    int steps = 0;
    for (int p = node; p != tree.root(); p = tree.parent(p)) ASSERT_LT(++steps, tree.size());
    EXPECT_TRUE(tree.in_subtree(tree.root(), node));
  }
}

}  // namespace

TEST(Tree, KaryShape) {
  Tree tree = Tree::build(TreeSpec{TreeShape::kary, 2}, 7);
  expect_valid(tree);
  EXPECT_EQ(tree.parent(1), 0);
  EXPECT_EQ(tree.parent(2), 0);
  EXPECT_EQ(tree.parent(5), 2);
  EXPECT_EQ(tree.depth(), 2);
  EXPECT_EQ(tree.max_children(), 2);
  EXPECT_TRUE(tree.in_subtree(2, 6));
  EXPECT_FALSE(tree.in_subtree(1, 6));
}

TEST(Tree, BinomialShape) {
  Tree tree = Tree::build(TreeSpec{TreeShape::binomial, 0}, 8);
  expect_valid(tree);
  EXPECT_EQ(tree.children(0).size(), 3u);  // 4, 2, 1: largest subtree first
  EXPECT_EQ(tree.children(0)[0], 4);
  EXPECT_EQ(tree.parent(6), 4);
  EXPECT_EQ(tree.parent(7), 6);
  EXPECT_EQ(tree.depth(), 3);
}

TEST(Tree, AllSizesAndShapesAreValid) {
  for (int n = 1; n <= 70; ++n)
    for (TreeSpec spec : {TreeSpec{TreeShape::kary, 1}, TreeSpec{TreeShape::kary, 4},
                          TreeSpec{TreeShape::binomial, 0}})
      expect_valid(Tree::build(spec, n));
}

TEST(Tree, GroupsKeepChildrenInTheirParentsGroup) {
  // Two sockets with scattered ranks: even ranks on one, odd on the other.
  std::vector<std::vector<int>> groups{{0, 2, 4, 6, 8, 10}, {1, 3, 5, 7, 9, 11}};
  Tree tree = Tree::build(TreeSpec{TreeShape::kary, 2}, groups);
  expect_valid(tree);
  int crossing = 0;
  for (int node = 1; node < 12; ++node) crossing += (node % 2) != (tree.parent(node) % 2);
  EXPECT_EQ(crossing, 1);  // only the second group's root hangs across
  EXPECT_EQ(tree.parent(1), 0);
}
