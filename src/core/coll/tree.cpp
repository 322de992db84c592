// SPDX-License-Identifier: BSD-3-Clause
#include "core/coll/tree.hpp"

#include <algorithm>
#include <stdexcept>

namespace hympi::core {
namespace {

// Edges (parent position, child position) of a tree of `n` positions rooted at 0.
std::vector<std::pair<int, int>> shape_edges(TreeSpec spec, int n) {
  std::vector<std::pair<int, int>> edges;
  if (spec.shape == TreeShape::kary) {
    if (spec.arity < 1) throw std::invalid_argument("tree arity must be at least 1");
    for (int child = 1; child < n; ++child) edges.emplace_back((child - 1) / spec.arity, child);
  } else {
    for (int child = 1; child < n; ++child) edges.emplace_back(child & (child - 1), child);
    // child & (child-1) clears the lowest set bit: the binomial parent. Order each
    // parent's children largest subtree first, so the deepest branch starts earliest.
    using Edge = std::pair<int, int>;
    std::stable_sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
      if (a.first != b.first) return a.first < b.first;
      return (a.second - a.first) > (b.second - b.first);
    });
  }
  return edges;
}

}  // namespace

Tree Tree::build(TreeSpec spec, int n) {
  std::vector<int> all(n);
  for (int i = 0; i < n; ++i) all[i] = i;
  return build(spec, std::vector<std::vector<int>>{all});
}

Tree Tree::build(TreeSpec spec, const std::vector<std::vector<int>>& groups) {
  int n = 0;
  for (const auto& g : groups) n += static_cast<int>(g.size());
  Tree tree;
  tree.parent_.assign(n, -1);
  tree.children_.assign(n, {});
  tree.slot_.assign(n, -1);

  std::vector<int> group_roots;
  for (const auto& g : groups) {
    if (g.empty()) continue;
    group_roots.push_back(g.front());
    for (auto [p, c] : shape_edges(spec, static_cast<int>(g.size()))) tree.link(g[p], g[c]);
  }
  if (group_roots.empty()) return tree;
  tree.root_ = group_roots.front();
  for (auto [p, c] : shape_edges(spec, static_cast<int>(group_roots.size())))
    tree.link(group_roots[p], group_roots[c]);
  tree.number_subtrees();
  return tree;
}

void Tree::link(int parent, int child) {
  parent_[child] = parent;
  slot_[child] = static_cast<int>(children_[parent].size());
  children_[parent].push_back(child);
}

void Tree::number_subtrees() {
  const int n = size();
  enter_.assign(n, 0);
  leave_.assign(n, 0);
  int clock = 0;
  // Iterative pre-order walk: enter on push, leave when all children are done.
  std::vector<std::pair<int, std::size_t>> stack{{root_, 0}};
  enter_[root_] = clock++;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < children_[node].size()) {
      int child = children_[node][next++];
      enter_[child] = clock++;
      stack.emplace_back(child, 0);
    } else {
      leave_[node] = clock;
      stack.pop_back();
    }
  }
}

int Tree::max_children() const {
  std::size_t most = 0;
  for (const auto& c : children_) most = std::max(most, c.size());
  return static_cast<int>(most);
}

int Tree::depth() const {
  int deepest = 0;
  for (int node = 0; node < size(); ++node) {
    int d = 0;
    for (int p = node; parent_[p] >= 0; p = parent_[p]) ++d;
    deepest = std::max(deepest, d);
  }
  return deepest;
}

}  // namespace hympi::core
