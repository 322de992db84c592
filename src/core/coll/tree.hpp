// SPDX-License-Identifier: BSD-3-Clause
// Communication trees over the ranks of one node (Quaranta & Maddegedara (2021),
// Section 3.1, Fig. 3).
//
// A tree is built over groups of participants (one group per socket or L3 domain, as
// hwloc reports them): each group gets its own subtree, and the group roots are joined
// by a tree of the same shape under the overall root, so only (groups - 1) edges cross a
// group boundary. groups[0][0] is the root (the node leader).
//
// Shapes: k-ary (children of position p are p*k+1 .. p*k+k) and binomial (children of p
// are p + 2^j for 2^j below p's lowest set bit; the root's are 1, 2, 4, ...).
#pragma once

#include <span>
#include <vector>

namespace hympi::core {

enum class TreeShape { kary, binomial };

struct TreeSpec {
  TreeShape shape = TreeShape::kary;
  int arity = 4;  // k-ary only
};

class Tree {
 public:
  /// One group holding participants 0..n-1.
  static Tree build(TreeSpec spec, int n);
  static Tree build(TreeSpec spec, const std::vector<std::vector<int>>& groups);

  int size() const { return static_cast<int>(parent_.size()); }
  int root() const { return root_; }
  int parent(int node) const { return parent_[node]; }
  std::span<const int> children(int node) const { return children_[node]; }
  /// Position of `node` among its parent's children (its channel slot in the parent).
  int slot(int node) const { return slot_[node]; }
  /// True when `member` is `node` or one of its descendants.
  bool in_subtree(int node, int member) const {
    return enter_[node] <= enter_[member] && enter_[member] < leave_[node];
  }
  int max_children() const;
  int depth() const;

 private:
  void link(int parent, int child);
  void number_subtrees();

  int root_ = 0;
  std::vector<int> parent_;
  std::vector<std::vector<int>> children_;
  std::vector<int> slot_, enter_, leave_;
};

}  // namespace hympi::core
