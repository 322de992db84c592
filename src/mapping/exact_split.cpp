// SPDX-License-Identifier: BSD-3-Clause
#include "mapping/exact_split.hpp"

#include <metis.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>

namespace hympi::mapping {
namespace {

/// The graph induced by the listed vertices, renumbered 0 .. n-1 in list order.
struct SubGraph {
  std::vector<int> offsets{0}, neighbors;
  std::vector<std::uint64_t> weights;
  int size() const { return int(offsets.size()) - 1; }
  std::uint64_t weight_sum() const { return std::accumulate(weights.begin(), weights.end(), std::uint64_t{0}); }
};

SubGraph induced(const RankGraph& g, std::span<const int> vertices) {
  std::vector<int> local(std::size_t(g.vertices()), -1);
  for (std::size_t i = 0; i < vertices.size(); ++i) local[std::size_t(vertices[i])] = int(i);
  SubGraph s;
  for (int v : vertices) {
    for (int e = g.offsets[std::size_t(v)]; e < g.offsets[std::size_t(v) + 1]; ++e)
      if (const int w = local[std::size_t(g.neighbors[std::size_t(e)])]; w >= 0) {
        s.neighbors.push_back(w);
        s.weights.push_back(g.weights[std::size_t(e)]);
      }
    s.offsets.push_back(int(s.neighbors.size()));
  }
  return s;
}

std::uint64_t cut_of(const SubGraph& s, const std::vector<int>& part) {
  std::uint64_t cut = 0;
  for (int v = 0; v < s.size(); ++v)
    for (int e = s.offsets[std::size_t(v)]; e < s.offsets[std::size_t(v) + 1]; ++e)
      if (part[std::size_t(v)] != part[std::size_t(s.neighbors[std::size_t(e)])]) cut += s.weights[std::size_t(e)];
  return cut / 2;  // every edge is listed at both ends
}

/// METIS's cut into parts of target weights `sizes`, or empty when METIS refuses.
std::vector<int> metis_cut(const SubGraph& s, std::span<const int> sizes, bool recursive) {
  idx_t n = s.size(), constraints = 1, parts = idx_t(sizes.size()), cut = 0;
  // Edge weights in idx_t (32 bits here): scaled so that the sum of all of them fits,
  // every edge keeping at least 1.
  const double limit = double(std::numeric_limits<idx_t>::max() / 4);
  const double scale = std::min(1.0, limit / std::max(1.0, double(s.weight_sum())));
  std::vector<idx_t> offsets(s.offsets.begin(), s.offsets.end()), neighbors(s.neighbors.begin(), s.neighbors.end()),
      weights, result(std::size_t(n), 0);
  for (std::uint64_t w : s.weights) weights.push_back(std::max<idx_t>(1, idx_t(double(w) * scale)));
  std::vector<real_t> targets;
  real_t assigned = 0;
  for (std::size_t p = 0; p + 1 < sizes.size(); ++p) {
    targets.push_back(real_t(sizes[p]) / real_t(n));
    assigned += targets.back();
  }
  targets.push_back(real_t(1) - assigned);  // METIS wants a sum of exactly 1
  real_t tolerance = real_t(1.01);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;  // the same cut on every rank and run
  // Rank graphs are small: several cuts from different starts, METIS keeps the best.
  options[METIS_OPTION_NCUTS] = n <= 20000 ? 8 : 2;
  const auto call = recursive ? METIS_PartGraphRecursive : METIS_PartGraphKway;
  const int status = call(&n, &constraints, offsets.data(), neighbors.data(), nullptr, nullptr, weights.data(), &parts,
                          targets.data(), &tolerance, options, &cut, result.data());
  if (status != METIS_OK) return {};
  std::vector<int> part(result.begin(), result.end());
  if (std::any_of(part.begin(), part.end(), [&](int p) { return p < 0 || p >= parts; })) return {};
  return part;
}

/// The vertices in list order cut into consecutive runs of the sizes.
std::vector<int> order_cut(int n, std::span<const int> sizes) {
  std::vector<int> part;
  part.reserve(std::size_t(n));
  for (std::size_t p = 0; p < sizes.size(); ++p) part.insert(part.end(), std::size_t(sizes[p]), int(p));
  return part;
}

/// A cut being adjusted: part of each vertex, members of each part, and the bytes from one
/// vertex to every part (for the vertex last asked about).
class Cut {
 public:
  Cut(const SubGraph& s, std::vector<int> part, std::size_t parts)
      : s_(s), part_(std::move(part)), members_(parts), to_part_(parts, 0) {
    for (int v = 0; v < s.size(); ++v) members_[std::size_t(part_[std::size_t(v)])].push_back(v);
  }

  const std::vector<int>& part() const { return part_; }
  const std::vector<int>& members(int p) const { return members_[std::size_t(p)]; }
  int part_of(int v) const { return part_[std::size_t(v)]; }

  /// Bytes from v to each part: to(p) afterwards, touched() the parts with any. Returns the
  /// edges scanned.
  std::size_t connect(int v) {
    for (int p : touched_) to_part_[std::size_t(p)] = 0;
    touched_.clear();
    const int begin = s_.offsets[std::size_t(v)], end = s_.offsets[std::size_t(v) + 1];
    for (int e = begin; e < end; ++e) {
      const int p = part_[std::size_t(s_.neighbors[std::size_t(e)])];
      if (to_part_[std::size_t(p)] == 0) touched_.push_back(p);
      to_part_[std::size_t(p)] += s_.weights[std::size_t(e)];
    }
    return std::size_t(end - begin) + 1;
  }
  std::int64_t to(int p) const { return std::int64_t(to_part_[std::size_t(p)]); }
  const std::vector<int>& touched() const { return touched_; }

  /// Bytes on the edge u-v (0 without one).
  std::int64_t edge(int u, int v) const {
    const auto begin = s_.neighbors.begin() + s_.offsets[std::size_t(u)], end = s_.neighbors.begin() + s_.offsets[std::size_t(u) + 1];
    const auto at = std::find(begin, end, v);
    return at == end ? 0 : std::int64_t(s_.weights[std::size_t(at - s_.neighbors.begin())]);
  }

  void move(int v, int to) {
    auto& from = members_[std::size_t(part_[std::size_t(v)])];
    from.erase(std::find(from.begin(), from.end(), v));
    members_[std::size_t(to)].insert(std::lower_bound(members_[std::size_t(to)].begin(), members_[std::size_t(to)].end(), v), v);
    part_[std::size_t(v)] = to;
  }

 private:
  const SubGraph& s_;
  std::vector<int> part_;
  std::vector<std::vector<int>> members_;  // ascending
  std::vector<std::uint64_t> to_part_;
  std::vector<int> touched_;
};

/// Moves vertices out of overfull parts until every part has its size: each move the vertex
/// of the first overfull part and the underfull target that lose the fewest cut bytes.
void fix_sizes(Cut& cut, std::span<const int> sizes) {
  const int parts = int(sizes.size());
  auto excess = [&](int p) { return int(cut.members(p).size()) - sizes[std::size_t(p)]; };
  for (;;) {
    int over = 0;
    while (over < parts && excess(over) <= 0) ++over;
    if (over == parts) return;
    std::vector<int> under;
    for (int p = 0; p < parts; ++p)
      if (excess(p) < 0) under.push_back(p);
    int best_v = -1, best_q = -1;
    std::int64_t best_gain = std::numeric_limits<std::int64_t>::min();
    for (int v : cut.members(over)) {
      cut.connect(v);
      for (int q : under)
        if (const std::int64_t gain = cut.to(q) - cut.to(over); gain > best_gain) best_gain = gain, best_v = v, best_q = q;
    }
    cut.move(best_v, best_q);
  }
}

/// Swaps of two vertices between parts while one lowers the cut (Kernighan & Lin's gain),
/// within a budget of scanned edges. A swap of u (part A) and v (part B) gains
/// to_u(B) - to_u(A) + to_v(A) - to_v(B) - 2 w(u,v), positive only if u or v alone gains
/// by moving: so only vertices with more bytes to another part than to their own start one.
void refine_by_swaps(Cut& cut, std::size_t budget) {
  const int n = int(cut.part().size());
  std::size_t spent = 0;
  for (bool improved = true; improved && spent < budget;) {
    improved = false;
    for (int u = 0; u < n && spent < budget; ++u) {
      spent += cut.connect(u);
      const int a = cut.part_of(u);
      std::vector<std::pair<int, std::int64_t>> gains;  // part, what u gains moving there
      for (int b : cut.touched())
        if (b != a && cut.to(b) > cut.to(a)) gains.emplace_back(b, cut.to(b) - cut.to(a));
      for (auto [b, gain_u] : gains) {
        int best_v = -1;
        std::int64_t best = 0;
        for (int v : cut.members(b)) {
          spent += cut.connect(v);
          const std::int64_t gain = gain_u + cut.to(a) - cut.to(b) - 2 * cut.edge(u, v);
          if (gain > best) best = gain, best_v = v;
        }
        if (best_v >= 0) {
          cut.move(u, b);
          cut.move(best_v, a);
          improved = true;
          break;
        }
      }
    }
  }
}

}  // namespace

std::vector<int> split_exact(const RankGraph& graph, std::span<const int> vertices, std::span<const int> sizes) {
  const int n = int(vertices.size());
  if (sizes.size() <= 1) return std::vector<int>(std::size_t(n), 0);
  const SubGraph s = induced(graph, vertices);
  if (s.neighbors.empty()) return order_cut(n, sizes);  // no traffic: any cut is as good
  // Refinement may scan every edge a few dozen times over.
  const std::size_t budget = 32 * (s.neighbors.size() + std::size_t(n));
  std::vector<int> best;
  std::uint64_t best_cut = 0;
  for (int candidate = 0; candidate < 3; ++candidate) {
    std::vector<int> part = candidate < 2 ? metis_cut(s, sizes, candidate == 1) : order_cut(n, sizes);
    if (part.empty()) continue;  // METIS refused this graph
    Cut cut(s, std::move(part), sizes.size());
    fix_sizes(cut, sizes);
    refine_by_swaps(cut, budget);
    const std::uint64_t bytes = cut_of(s, cut.part());
    if (best.empty() || bytes < best_cut) best = cut.part(), best_cut = bytes;
  }
  return best;
}

}  // namespace hympi::mapping
