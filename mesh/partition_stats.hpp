// SPDX-License-Identifier: BSD-3-Clause
// The columns of Tables 2-3 of Quaranta & Maddegedara (2021) for a mesh cut into parts
// (no ranks needed): points per process, intranode neighbours and data, processes per
// node with internode neighbours, internode neighbours and data (averaged over those
// processes), the internode messages of one ghost update, flat vs one per node pair, and
// intranode bytes per internode byte (Section 7.2: the hybrid pays from about 2).
#pragma once

#include <cstddef>
#include <string>

#include "partition.hpp"

namespace hympi::mesh {

/// Which counts the columns show. `hympi`: owned points, `chunk` x 8 B per ghost point
/// sent, internode data sent. `paper`: what the paper's numbers imply (its text says
/// "number of ghost points x 8 bytes", but only this reproduces its Tables 2 and 3 at every
/// mesh size and both process counts, within 1-4 %): points owned plus ghosts, 3 x 8 B per
/// ghost point, internode data sent plus received.
enum class Definition { hympi, paper };

struct PartitionRow {
  int parts = 0, nodes = 0;
  double points = 0;                 // per process, owned
  double points_with_ghosts = 0;     // per process, owned plus distinct ghosts
  int points_min = 0, points_max = 0;
  double intra_neighbors = 0, intra_kb = 0;  // per process; kB = 1000 B
  double inter_processes_per_node = 0;       // processes with an internode neighbour
  double inter_neighbors = 0, inter_kb = 0;  // averaged over those processes; data sent
  double inter_kb_both = 0;                  // the same, sent plus received
  std::size_t flat_messages = 0, node_pair_messages = 0;
  double intra_to_inter = 0;  // intranode bytes per internode byte (Section 7.2's ratio)
};

/// METIS into `parts` (two levels when `levels` is 2: nodes of `ranks_per_node` first;
/// 0: all parts on one node), `chunk` doubles per ghost point.
PartitionRow partition_row(const Graph& graph, int parts, int ranks_per_node, int levels, int chunk);

/// The values per point a definition counts: `chunk`, or 3 for the paper's.
int values_per_point(Definition definition, int chunk);

/// The table's header lines and one row, as printed by hympi-mesh and hympi-bench.
std::string partition_header(int levels, int chunk, Definition definition = Definition::hympi);
std::string format_row(const PartitionRow& row, Definition definition = Definition::hympi);

}  // namespace hympi::mesh
