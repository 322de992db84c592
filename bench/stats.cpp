// SPDX-License-Identifier: BSD-3-Clause
#include "stats.hpp"

#include <fmt/core.h>
#include <mpi.h>

namespace hympi::bench {

nlohmann::json statistics_json(const MessageStatistics& st) {
  auto spread = [](const Spread& s) { return nlohmann::json{{"min", s.min}, {"avg", s.average}, {"max", s.max}}; };
  const double ranks = st.ranks ? double(st.ranks) : 1.0;
  return {{"ranks", st.ranks},
          {"nodes", st.nodes},
          {"internode_messages", st.internode_messages},
          {"internode_bytes", st.internode_bytes},
          {"intranode_messages", st.intranode_messages},
          {"intranode_bytes", st.intranode_bytes},
          {"node_pair_messages", st.node_pair_messages},
          {"avg_internode_message", st.average_internode_message()},
          {"avg_node_pair_message", st.average_node_pair_message()},
          {"avg_intranode_message", st.intranode_messages ? double(st.intranode_bytes) / double(st.intranode_messages) : 0.0},
          {"per_rank",
           {{"internode_messages", double(st.internode_messages) / ranks},
            {"intranode_messages", double(st.intranode_messages) / ranks},
            {"node_pair_messages", double(st.node_pair_messages) / ranks}}},
          {"ranks_with_internode", st.ranks_with_internode},
          {"internode_neighbors", spread(st.internode_neighbors)},
          {"internode_bytes_per_rank", spread(st.internode_bytes_per_rank)},
          {"intranode_neighbors", spread(st.intranode_neighbors)},
          {"intranode_bytes_per_rank", spread(st.intranode_bytes_per_rank)},
          {"node_pair_messages_per_node", spread(st.node_pair_messages_per_node)},
          // null without internode data (JSON has no infinity)
          {"intranode_to_internode_bytes",
           st.internode_bytes ? nlohmann::json(st.intranode_to_internode()) : nlohmann::json(nullptr)}};
}

GridTraffic grid_traffic(const GridSpec& grid, int ranks) {
  const Stencil stencil = stencil_from_name(grid.stencil);
  const int dimensions = dimensions_of(stencil);
  if (int(grid.global.size()) != dimensions)
    throw Error("hympi-bench stats: the stencil " + grid.stencil + " needs " + std::to_string(dimensions) +
                " grid extents, got " + std::to_string(grid.global.size()));
  Index3 global{1, 1, 1};
  for (std::size_t d = 0; d < grid.global.size(); ++d) global[d] = grid.global[d];
  int dims[3] = {0, 0, 0};
  MPI_Dims_create(ranks, dimensions, dims);
  GridTraffic t;
  t.shape = {dims[0], dimensions > 1 ? dims[1] : 1, dimensions > 2 ? dims[2] : 1};
  t.label = std::to_string(t.shape[0]) + "x" + std::to_string(t.shape[1]);
  if (dimensions == 3) t.label += "x" + std::to_string(t.shape[2]);
  t.messages = grid_messages(global, t.shape, stencil, grid.width, std::size_t(grid.point_bytes));
  return t;
}

nlohmann::json bench_stats(const GridSpec& grid, int ranks_per_node, const std::vector<int>& nodes) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::string extents;
  for (int n : grid.global) extents += (extents.empty() ? "" : "x") + std::to_string(n);
  nlohmann::json record{{"benchmark", "stats"}, {"grid", grid.global}, {"stencil", grid.stencil},
                        {"width", grid.width}, {"point_bytes", grid.point_bytes},
                        {"ranks_per_node", ranks_per_node}, {"results", nlohmann::json::array()}};
  if (rank == 0)
    fmt::print("# stats: ghost-update messages per update (dry run, no timing): {} grid, {} stencil, {} B per point,\n"
               "# {} ranks per node (consecutive ranks), process grid from MPI_Dims_create; flat = one message per\n"
               "# rank pair and direction (MASHM's \"Original\"), aggregated = one per node pair and direction;\n"
               "# Intra/Inter = intranode bytes per internode byte (the hybrid pays from about 2: Quaranta &\n"
               "# Maddegedara (2021), Section 7.2)\n"
               "# {:>6}{:>8}{:>12}{:>14}{:>14}{:>14}{:>14}{:>14}{:>14}{:>13}\n",
               extents, grid.stencil, grid.point_bytes, ranks_per_node, "Nodes", "Ranks", "ProcGrid", "FlatInter",
               "FlatAvg(B)", "AggInter", "AggAvg(B)", "Intra", "IntraAvg(B)", "Intra/Inter");
  for (int n : nodes) {
    const int ranks = n * ranks_per_node;
    const GridTraffic t = grid_traffic(grid, ranks);
    const MessageStatistics st = message_statistics(t.messages, consecutive_nodes(ranks, ranks_per_node));
    nlohmann::json row = statistics_json(st);
    row["process_grid"] = {t.shape[0], t.shape[1], t.shape[2]};
    record["results"].push_back(row);
    if (rank == 0)
      fmt::print("{:>8}{:>8}{:>12}{:>14}{:>14.1f}{:>14}{:>14.1f}{:>14}{:>14.1f}{:>13.2f}\n", n, ranks, t.label,
                 st.internode_messages, st.average_internode_message(), st.node_pair_messages,
                 st.average_node_pair_message(), st.intranode_messages, row["avg_intranode_message"].get<double>(),
                 st.intranode_to_internode());
  }
  if (rank == 0) fmt::print("\n");
  return record;
}

}  // namespace hympi::bench
