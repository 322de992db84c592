// SPDX-License-Identifier: BSD-3-Clause
#include "mapping/rank_graph.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "hympi/types.hpp"

namespace hympi::mapping {

RankGraph rank_graph(std::span<const RankMessage> traffic, int ranks) {
  struct Edge {
    int a, b;
    std::uint64_t bytes;
  };
  std::vector<Edge> edges;  // both directions of every message
  edges.reserve(2 * traffic.size());
  for (const RankMessage& m : traffic) {
    if (m.from < 0 || m.from >= ranks || m.to < 0 || m.to >= ranks)
      throw Error("hympi: map_ranks: a message from rank " + std::to_string(m.from) + " to rank " +
                  std::to_string(m.to) + " names a rank outside the placement's " + std::to_string(ranks) +
                  " processes; pass a placement with a node for every rank");
    if (m.from == m.to || m.bytes == 0) continue;
    edges.push_back({m.from, m.to, m.bytes});
    edges.push_back({m.to, m.from, m.bytes});
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return std::pair(x.a, x.b) < std::pair(y.a, y.b); });
  RankGraph g;
  g.offsets.assign(std::size_t(ranks) + 1, 0);
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (i > 0 && edges[i].a == edges[i - 1].a && edges[i].b == edges[i - 1].b) {
      g.weights.back() += edges[i].bytes;  // the same pair again: one edge
      continue;
    }
    g.neighbors.push_back(edges[i].b);
    g.weights.push_back(edges[i].bytes);
    ++g.offsets[std::size_t(edges[i].a) + 1];
  }
  for (std::size_t v = 0; v < std::size_t(ranks); ++v) g.offsets[v + 1] += g.offsets[v];
  return g;
}

std::uint64_t cut_bytes(const RankGraph& graph, std::span<const int> key) {
  std::uint64_t cut = 0;
  for (int v = 0; v < graph.vertices(); ++v)
    for (int e = graph.offsets[std::size_t(v)]; e < graph.offsets[std::size_t(v) + 1]; ++e) {
      const int w = graph.neighbors[std::size_t(e)];
      if (v < w && key[std::size_t(v)] != key[std::size_t(w)]) cut += graph.weights[std::size_t(e)];
    }
  return cut;
}

}  // namespace hympi::mapping
