// SPDX-License-Identifier: BSD-3-Clause
// The rank graph of map_ranks: ranks as vertices, an undirected edge per communicating
// pair weighted by the bytes of both directions, in CSR form (each edge listed at both
// ends, neighbours ascending). MPI-free.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "hympi/statistics.hpp"

namespace hympi::mapping {

struct RankGraph {
  std::vector<int> offsets{0}, neighbors;  // neighbours of v: [offsets[v], offsets[v+1])
  std::vector<std::uint64_t> weights;      // bytes of each listed edge, both directions together
  int vertices() const { return int(offsets.size()) - 1; }
};

/// Throws hympi::Error for a message naming a rank outside 0 .. ranks-1. Self-messages and
/// zero-byte messages add no edge.
RankGraph rank_graph(std::span<const RankMessage> traffic, int ranks);

/// Bytes on the edges whose ends have different `key` values (key per vertex).
std::uint64_t cut_bytes(const RankGraph& graph, std::span<const int> key);

}  // namespace hympi::mapping
