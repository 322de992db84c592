// SPDX-License-Identifier: BSD-3-Clause
// Set-up helper of the benchmark's ghost-update peers: each rank sends every neighbour of
// a pattern a list of ints and receives theirs (e.g. the ids they send it).
#pragma once

#include <vector>

#include "hympi/halo.hpp"

namespace hympi::bench {

/// Collective over the pattern's neighbours: out[n] goes to neighbour n (index in
/// pattern.neighbors()); returns in[n], what neighbour n sent, of in_sizes[n] ints.
std::vector<std::vector<int>> swap_with_neighbors(const Pattern& pattern, const std::vector<std::vector<int>>& out,
                                                  const std::vector<std::size_t>& in_sizes);

/// What each neighbour sends this rank: its local ids, in the order this rank's recv list
/// receives them (ghost recv[j] of neighbour n is its point result[n][j]).
std::vector<std::vector<int>> neighbor_send_lists(const Pattern& pattern);

}  // namespace hympi::bench
