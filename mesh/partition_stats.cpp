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
  // Each ghost point comes from its one owner: every point of every message is a distinct
  // ghost of its receiver.
  const double ghosts = double(st.intranode_bytes + st.internode_bytes) / (double(chunk) * 8);
  return {parts,
          st.nodes,
          double(graph.vertices()) / parts,
          (double(graph.vertices()) + ghosts) / parts,
          *low,
          *high,
          st.intranode_neighbors.average,
          st.intranode_bytes_per_rank.average / 1e3,
          double(st.ranks_with_internode) / st.nodes,
          st.internode_neighbors.average * parts / with_inter,
          st.internode_bytes_per_rank.average * parts / with_inter / 1e3,
          2 * st.internode_bytes_per_rank.average * parts / with_inter / 1e3,  // each byte sent is received once
          st.internode_messages,
          st.node_pair_messages,
          st.intranode_to_internode()};
}

int values_per_point(Definition definition, int chunk) { return definition == Definition::paper ? 3 : chunk; }

std::string partition_header(int levels, int chunk, Definition definition) {
  const bool paper = definition == Definition::paper;
  return fmt::format(
      "# METIS 5.1, {} level(s); kB = 1000 B of {} x 8 B per ghost point; internode columns averaged over\n"
      "# the processes that have internode neighbours; messages per update: flat vs one per node pair;\n"
      "{}"
      "# Intra/Inter: intranode bytes per internode byte, all processes (the hybrid pays from about 2)\n"
      "#{:>8}{:>7}{:>10}{:>8}{:>8}{:>10}{:>12}{:>12}{:>10}{:>12}{:>10}{:>10}{:>12}\n",
      levels, values_per_point(definition, chunk),
      paper ? "# the paper's counts (--paper): Points = owned plus ghosts (Min, Max: owned), InterKB = sent plus\n"
              "# received; inferred from its Tables 2-3, whose text says 8 B per ghost point\n"
            : "# Points = owned, data sent\n",
      "Procs", "Nodes", "Points", "Min", "Max", "IntraNb", "IntraKB", "InterProc", "InterNb", "InterKB", "FlatMsg",
      "AggMsg", "Intra/Inter");
}

std::string format_row(const PartitionRow& r, Definition definition) {
  const bool paper = definition == Definition::paper;
  return fmt::format("{:>9}{:>7}{:>10.0f}{:>8}{:>8}{:>10.1f}{:>12.1f}{:>12.1f}{:>10.1f}{:>12.1f}{:>10}{:>10}{:>12.2f}\n",
                     r.parts, r.nodes, paper ? r.points_with_ghosts : r.points, r.points_min, r.points_max,
                     r.intra_neighbors, r.intra_kb, r.inter_processes_per_node, r.inter_neighbors,
                     paper ? r.inter_kb_both : r.inter_kb, r.flat_messages, r.node_pair_messages,
                     r.intra_to_inter);
}

}  // namespace hympi::mesh
