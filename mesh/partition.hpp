// SPDX-License-Identifier: BSD-3-Clause
// Vertex partitions of a tetrahedral mesh with METIS 5.1 (the version Quaranta &
// Maddegedara (2021) used): one level (k parts) or two levels (nodes first, then the ranks
// inside each node, their Section 6.4, so a node's part is one piece and its ranks' parts
// are cut inside it).
#pragma once

#include <cstdint>
#include <vector>

#include "cube_mesh.hpp"

namespace hympi::mesh {

/// The vertex graph (vertices sharing a tetrahedron edge), CSR.
struct Graph {
  std::vector<int32_t> offsets, neighbors;  // neighbors of v: [offsets[v], offsets[v+1])
  int vertices() const { return int(offsets.size()) - 1; }
};
Graph vertex_graph(const TetMeshView& mesh);

/// Part of every vertex, 0 .. parts-1. `ranks_per_node` > 0: two levels, parts = nodes x
/// ranks_per_node with part = node * ranks_per_node + rank in node. Deterministic.
/// Throws hympi::Error when parts exceed the vertices or do not divide into nodes.
std::vector<int32_t> partition(const Graph& graph, int parts, int ranks_per_node = 0);

}  // namespace hympi::mesh
