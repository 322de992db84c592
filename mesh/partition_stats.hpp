// SPDX-License-Identifier: BSD-3-Clause
// The columns of Tables 2-3 of Quaranta & Maddegedara (2021) for a mesh cut into parts
// (no ranks needed): points per process, intranode neighbours and data, processes per
// node with internode neighbours, internode neighbours and data (averaged over those
// processes), and the internode messages of one ghost update, flat vs one per node pair.
#pragma once

#include <cstddef>
#include <string>

#include "partition.hpp"

namespace hympi::mesh {

struct PartitionRow {
  int parts = 0, nodes = 0;
  double points = 0;                 // per process
  int points_min = 0, points_max = 0;
  double intra_neighbors = 0, intra_kb = 0;  // per process; kB = 1000 B
  double inter_processes_per_node = 0;       // processes with an internode neighbour
  double inter_neighbors = 0, inter_kb = 0;  // averaged over those processes
  std::size_t flat_messages = 0, node_pair_messages = 0;
};

/// METIS into `parts` (two levels when `levels` is 2: nodes of `ranks_per_node` first;
/// 0: all parts on one node), `chunk` doubles per ghost point.
PartitionRow partition_row(const Graph& graph, int parts, int ranks_per_node, int levels, int chunk);

/// The table's header lines and one row, as printed by hympi-mesh and hympi-bench.
std::string partition_header(int levels, int chunk);
std::string format_row(const PartitionRow& row);

}  // namespace hympi::mesh
