// SPDX-License-Identifier: BSD-3-Clause
// hympi-bench stats, the mapping of ranks by traffic (hympi/mapping.hpp), dry run: the
// internode bytes and messages of one ghost update with the ranks in random order, in the
// partitioner's own order (the grid's row-major order, METIS's part numbers) and in
// map_ranks's order computed from the random one, on nodes of consecutive ranks (two
// domains each). And a live probe of the MPI library's own reordering:
// MPI_Dist_graph_create(reorder = 1) on the running job with a random order.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hympi/context.hpp"
#include "hympi/statistics.hpp"
#include "stats.hpp"

namespace hympi::bench {

/// The table's header and one row: `traffic` of `ranks` ranks in their own order on nodes
/// of `ranks_per_node` consecutive ranks (two domains each); the row's JSON, printed when
/// called on rank 0 (the dry runs call it there only). `label` names the row (a process
/// grid, a part count).
std::string mapping_header(const std::string& title);
nlohmann::json mapping_row(const std::vector<RankMessage>& traffic, int ranks, int ranks_per_node,
                           const std::string& label);

/// The grid of `grid` on nodes x ranks_per_node ranks (process grid from MPI_Dims_create):
/// the record "mapping-grid", its rows computed and printed on rank 0 (empty elsewhere).
nlohmann::json bench_mapping_grid(const GridSpec& grid, int ranks_per_node, const std::vector<int>& nodes);

/// Collective over the whole job: the grid of `grid` on the job's ranks in random order,
/// MPI_Dist_graph_create(reorder = 1) with the bytes as weights; which ranks the MPI library
/// moved and the internode bytes (nodes as ctx sees them: real or emulated) before, after
/// the MPI library's reorder and after map_ranks. Rank 0 prints.
nlohmann::json bench_reorder_probe(Context& ctx, const GridSpec& grid);

}  // namespace hympi::bench
