// SPDX-License-Identifier: BSD-3-Clause
#include "partition.hpp"

#include <metis.h>

#include <algorithm>
#include <string>

#include "hympi/types.hpp"

namespace hympi::mesh {
namespace {

/// METIS k-way on `graph`; all zeros for one part (METIS wants at least two).
std::vector<int32_t> kway(const Graph& graph, int parts) {
  std::vector<int32_t> part(std::size_t(graph.vertices()), 0);
  if (parts <= 1 || graph.vertices() == 0) return part;
  idx_t n = graph.vertices(), constraints = 1, k = parts, cut = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;  // the same partition on every rank and run
  std::vector<idx_t> offsets(graph.offsets.begin(), graph.offsets.end()),
      neighbors(graph.neighbors.begin(), graph.neighbors.end()), result(static_cast<std::size_t>(n));
  const int status = METIS_PartGraphKway(&n, &constraints, offsets.data(), neighbors.data(), nullptr, nullptr, nullptr,
                                         &k, nullptr, nullptr, options, &cut, result.data());
  if (status != METIS_OK) throw Error("hympi-mesh: METIS_PartGraphKway failed (status " + std::to_string(status) + ")");
  std::copy(result.begin(), result.end(), part.begin());
  return part;
}

}  // namespace

Graph vertex_graph(const TetMeshView& mesh) {
  std::vector<std::vector<int32_t>> adjacent(std::size_t(mesh.vertices()));
  for (std::size_t t = 0; t < mesh.tets.size(); t += 4)
    for (std::size_t a = 0; a < 4; ++a)
      for (std::size_t b = 0; b < 4; ++b)
        if (a != b) adjacent[std::size_t(mesh.tets[t + a])].push_back(mesh.tets[t + b]);
  Graph g;
  g.offsets.push_back(0);
  for (auto& list : adjacent) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    g.neighbors.insert(g.neighbors.end(), list.begin(), list.end());
    g.offsets.push_back(int32_t(g.neighbors.size()));
  }
  return g;
}

std::vector<int32_t> partition(const Graph& graph, int parts, int ranks_per_node) {
  if (parts < 1 || parts > graph.vertices())
    throw Error("hympi-mesh: cannot cut " + std::to_string(graph.vertices()) + " points into " +
                std::to_string(parts) + " parts; use between 1 and " + std::to_string(graph.vertices()) +
                " parts (a finer mesh or fewer ranks)");
  if (ranks_per_node <= 0 || ranks_per_node >= parts) return kway(graph, parts);
  if (parts % ranks_per_node != 0)
    throw Error("hympi-mesh: two-level partition: " + std::to_string(parts) + " parts are not whole nodes of " +
                std::to_string(ranks_per_node) + " ranks");
  const int nodes = parts / ranks_per_node;
  const std::vector<int32_t> node_of = kway(graph, nodes);
  std::vector<int32_t> part(node_of.size());
  for (int node = 0; node < nodes; ++node) {
    // The node's subgraph: its vertices, renumbered, edges inside it only.
    std::vector<int32_t> local(node_of.size(), -1), global;
    for (std::size_t v = 0; v < node_of.size(); ++v)
      if (node_of[v] == node) local[v] = int32_t(global.size()), global.push_back(int32_t(v));
    Graph sub;
    sub.offsets.push_back(0);
    for (int32_t v : global) {
      for (int32_t e = graph.offsets[std::size_t(v)]; e < graph.offsets[std::size_t(v) + 1]; ++e)
        if (const int32_t w = graph.neighbors[std::size_t(e)]; local[std::size_t(w)] >= 0) sub.neighbors.push_back(local[std::size_t(w)]);
      sub.offsets.push_back(int32_t(sub.neighbors.size()));
    }
    if (sub.vertices() < ranks_per_node)
      throw Error("hympi-mesh: node " + std::to_string(node) + " got " + std::to_string(sub.vertices()) +
                  " points for " + std::to_string(ranks_per_node) + " ranks; use a finer mesh");
    const std::vector<int32_t> inner = kway(sub, ranks_per_node);
    for (std::size_t i = 0; i < global.size(); ++i)
      part[std::size_t(global[i])] = node * ranks_per_node + inner[i];
  }
  return part;
}

}  // namespace hympi::mesh
