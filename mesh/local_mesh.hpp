// SPDX-License-Identifier: BSD-3-Clause
// One part's view of a partitioned mesh, in the layout of a flat MPI FEM code: owned
// vertices first (ascending global id), then ghosts (the vertices its owned vertices share
// an edge with, owned elsewhere; ascending global id). No MPI and no hympi library: the flat
// MPI applications (apps/flat/) use it too.
#pragma once

#include <cstdint>
#include <vector>

#include "partition.hpp"

namespace hympi::mesh {

struct LocalMesh {
  std::vector<int64_t> global;  // global vertex id of each local vertex
  std::vector<int> owner;       // its part
  int owned = 0;
};

LocalMesh local_mesh(const Graph& graph, const std::vector<int32_t>& part, int me);

/// The rank of each part, given each rank's node (`node_of`): part p on rank p (one level),
/// or, two levels, the parts n * node_size .. (n + 1) * node_size - 1 on node n's ranks in
/// rank order.
std::vector<int> rank_of_parts(const std::vector<int>& node_of, int node_size, bool two_level);

/// `local` (owners as parts) with owners as ranks, and the part that `rank` runs.
LocalMesh owners_as_ranks(LocalMesh local, const std::vector<int>& rank_of_part);
int part_of_rank(const std::vector<int>& rank_of_part, int rank);

/// `local` renumbered: vertex i moves to new_id[i] (e.g. order_local_ids(pattern).new_id,
/// which keeps owned vertices first).
LocalMesh reordered(const LocalMesh& local, const std::vector<int>& new_id);

}  // namespace hympi::mesh
