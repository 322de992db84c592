// SPDX-License-Identifier: BSD-3-Clause
// A partitioned mesh over a Context's ranks: the partition placed on the ranks (one or two
// levels), one rank's LocalMesh and its hympi Pattern, and the ghost-update messages of every
// part, for statistics without running the ranks.
#pragma once

#include <cstdint>
#include <vector>

#include "hympi/halo.hpp"
#include "hympi/statistics.hpp"
#include "local_mesh.hpp"

namespace hympi::mesh {

/// Every part's ghost-update messages (`point_bytes` per vertex): from the owner of each
/// ghost to the part that needs it.
std::vector<RankMessage> partition_messages(const Graph& graph, const std::vector<int32_t>& part, int parts,
                                            std::size_t point_bytes);

/// The partition of `graph` over a Context's ranks: two levels (nodes, then ranks) when
/// `levels` is 2 and there are several nodes of equal size, else one; part p runs on the
/// p-th rank in node order.
struct RankPartition {
  std::vector<int32_t> part;     // per vertex
  std::vector<int> rank_of_part;
  bool two_level = false;
};
RankPartition partition_over(const Graph& graph, const Topology& topology, int levels = 2);

/// This rank's LocalMesh, owners given as ranks.
LocalMesh rank_local_mesh(const Graph& graph, const RankPartition& partition, int rank);

/// Collective: the pattern of `local` (from_owners), `chunk` doubles per vertex.
Pattern mesh_pattern(Context& ctx, const LocalMesh& local, int chunk = 1);

}  // namespace hympi::mesh
