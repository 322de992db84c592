// SPDX-License-Identifier: BSD-3-Clause
// A cut of some vertices of a rank graph into parts of exact sizes with as few bytes
// between parts as it finds (the step map_ranks takes per level: nodes, then domains).
//
// Candidates: METIS k-way and METIS recursive bisection (target part weights = the sizes;
// METIS 5.1 balances only approximately) and the vertices' own order cut into consecutive
// runs. Each candidate is brought to the exact sizes, moving one vertex at a time out of the
// most overfull part into the underfull part it has the most traffic to, least cut bytes
// lost first; then improved by swaps of two vertices between parts while a swap lowers the
// cut (sizes stay exact). The candidate with the fewest cut bytes wins (ties: the earlier
// one). Deterministic (METIS with a fixed seed). MPI-free.
#pragma once

#include <span>
#include <vector>

#include "mapping/rank_graph.hpp"

namespace hympi::mapping {

/// Part (0 .. sizes.size()-1) of each of `vertices` (distinct vertices of `graph`); part i
/// gets exactly sizes[i] of them. The sizes are positive and add up to vertices.size().
std::vector<int> split_exact(const RankGraph& graph, std::span<const int> vertices, std::span<const int> sizes);

}  // namespace hympi::mapping
