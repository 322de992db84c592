// SPDX-License-Identifier: BSD-3-Clause
// Message statistics without running the ranks (MASHM's table): a structured grid's ghost
// update on `nodes` x `ranks_per_node` processes, flat (one message per rank pair) vs
// aggregated (one per node pair).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hympi/statistics.hpp"

namespace hympi::bench {

struct GridSpec {
  std::vector<int> global{96, 96, 96};
  std::string stencil = "star19";
  int width = 1;
  int point_bytes = 8;
};

/// A grid's ghost-update messages on `ranks` processes: the process grid MPI_Dims_create
/// gives ("4x2x2"), ranks row-major (cartesian_rank). Throws hympi::Error when the extents
/// do not match the stencil's dimensions.
struct GridTraffic {
  Index3 shape{1, 1, 1};
  std::string label;
  std::vector<RankMessage> messages;
};
GridTraffic grid_traffic(const GridSpec& grid, int ranks);

/// The statistics as a JSON record (per-rank averages included: the cost model's inputs).
nlohmann::json statistics_json(const MessageStatistics& st);

/// Rank 0 prints the table; returns its JSON record (on every rank).
nlohmann::json bench_stats(const GridSpec& grid, int ranks_per_node, const std::vector<int>& nodes);

}  // namespace hympi::bench
