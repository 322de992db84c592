// SPDX-License-Identifier: BSD-3-Clause
#include "local_mesh.hpp"

#include <set>

namespace hympi::mesh {

LocalMesh local_mesh(const Graph& graph, const std::vector<int32_t>& part, int me) {
  LocalMesh local;
  std::set<int64_t> ghosts;
  for (int v = 0; v < graph.vertices(); ++v) {
    if (part[std::size_t(v)] != me) continue;
    local.global.push_back(v);
    local.owner.push_back(me);
    for (int32_t e = graph.offsets[std::size_t(v)]; e < graph.offsets[std::size_t(v) + 1]; ++e)
      if (const int32_t w = graph.neighbors[std::size_t(e)]; part[std::size_t(w)] != me) ghosts.insert(w);
  }
  local.owned = int(local.global.size());
  for (int64_t g : ghosts) {
    local.global.push_back(g);
    local.owner.push_back(part[std::size_t(g)]);
  }
  return local;
}

LocalMesh reordered(const LocalMesh& local, const std::vector<int>& new_id) {
  LocalMesh result = local;
  for (std::size_t i = 0; i < local.global.size(); ++i) {
    result.global[std::size_t(new_id[i])] = local.global[i];
    result.owner[std::size_t(new_id[i])] = local.owner[i];
  }
  return result;
}

}  // namespace hympi::mesh
