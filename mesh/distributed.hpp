// One rank's view of a partitioned mesh, in the layout of a flat MPI FEM code: owned
// vertices first (ascending global id), then ghosts (the vertices its owned vertices share
// an edge with, owned elsewhere; ascending global id), and the ghost-update messages of
// every part, for statistics without running the ranks.
#pragma once

#include <cstdint>
#include <vector>

#include "hympi/halo.hpp"
#include "hympi/statistics.hpp"
#include "partition.hpp"

namespace hympi::mesh {

struct LocalMesh {
  std::vector<int64_t> global;  // global vertex id of each local vertex
  std::vector<int> owner;       // its part
  int owned = 0;
};

LocalMesh local_mesh(const Graph& graph, const std::vector<int32_t>& part, int me);

/// Every part's ghost-update messages (`point_bytes` per vertex): from the owner of each
/// ghost to the part that needs it.
std::vector<RankMessage> partition_messages(const Graph& graph, const std::vector<int32_t>& part, int parts,
                                            std::size_t point_bytes);

/// Collective: the pattern of `local` (from_owners), `chunk` doubles per vertex.
Pattern mesh_pattern(Context& ctx, const LocalMesh& local, int chunk = 1);

}  // namespace hympi::mesh
