// SPDX-License-Identifier: BSD-3-Clause
#include "partition_stats.hpp"

#include <fmt/core.h>

#include <algorithm>

#include "distributed.hpp"

namespace hympi::mesh {

PartitionRow partition_row(const Graph& graph, int parts, int ranks_per_node, int levels, int chunk) {
  const int per_node = ranks_per_node > 0 ? ranks_per_node : parts;
  const std::vector<int32_t> part = partition(graph, parts, levels == 2 ? per_node : 0);
  std::vector<int> points(std::size_t(parts), 0);
  for (int32_t p : part) ++points[std::size_t(p)];
  const auto messages = partition_messages(graph, part, parts, std::size_t(chunk) * 8);
  const MessageStatistics st = message_statistics(messages, consecutive_nodes(parts, per_node));
  const double with_inter = std::max(st.ranks_with_internode, 1);
  const auto [low, high] = std::minmax_element(points.begin(), points.end());
  return {parts,
          st.nodes,
          double(graph.vertices()) / parts,
          *low,
          *high,
          st.intranode_neighbors.average,
          st.intranode_bytes_per_rank.average / 1e3,
          double(st.ranks_with_internode) / st.nodes,
          st.internode_neighbors.average * parts / with_inter,
          st.internode_bytes_per_rank.average * parts / with_inter / 1e3,
          st.internode_messages,
          st.node_pair_messages};
}

std::string partition_header(int levels, int chunk) {
  return fmt::format(
      "# METIS 5.1, {} level(s); kB = 1000 B of {} x 8 B per ghost point; internode columns averaged over\n"
      "# the processes that have internode neighbours; messages per update: flat vs one per node pair\n"
      "#{:>8}{:>7}{:>10}{:>8}{:>8}{:>10}{:>12}{:>12}{:>10}{:>12}{:>10}{:>10}\n",
      levels, chunk, "Procs", "Nodes", "Points", "Min", "Max", "IntraNb", "IntraKB", "InterProc", "InterNb", "InterKB",
      "FlatMsg", "AggMsg");
}

std::string format_row(const PartitionRow& r) {
  return fmt::format("{:>9}{:>7}{:>10.0f}{:>8}{:>8}{:>10.1f}{:>12.1f}{:>12.1f}{:>10.1f}{:>12.1f}{:>10}{:>10}\n", r.parts,
                     r.nodes, r.points, r.points_min, r.points_max, r.intra_neighbors, r.intra_kb,
                     r.inter_processes_per_node, r.inter_neighbors, r.inter_kb, r.flat_messages, r.node_pair_messages);
}

}  // namespace hympi::mesh
