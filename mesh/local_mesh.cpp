// SPDX-License-Identifier: BSD-3-Clause
#include "local_mesh.hpp"

#include <algorithm>
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

std::vector<int> rank_of_parts(const std::vector<int>& node_of, int node_size, bool two_level) {
  std::vector<int> rank_of_part(node_of.size());
  std::vector<int> placed(node_of.size(), 0);  // ranks placed per node so far
  for (std::size_t r = 0; r < node_of.size(); ++r) {
    const int node = node_of[r];
    rank_of_part[two_level ? std::size_t(node * node_size + placed[std::size_t(node)]++) : r] = int(r);
  }
  return rank_of_part;
}

LocalMesh owners_as_ranks(LocalMesh local, const std::vector<int>& rank_of_part) {
  for (int& owner : local.owner) owner = rank_of_part[std::size_t(owner)];
  return local;
}

int part_of_rank(const std::vector<int>& rank_of_part, int rank) {
  return int(std::find(rank_of_part.begin(), rank_of_part.end(), rank) - rank_of_part.begin());
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
