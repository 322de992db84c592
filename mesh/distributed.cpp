// SPDX-License-Identifier: BSD-3-Clause
#include "distributed.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace hympi::mesh {

std::vector<RankMessage> partition_messages(const Graph& graph, const std::vector<int32_t>& part, int parts,
                                            std::size_t point_bytes) {
  // ghosts[(owner, needer)] = distinct vertices
  std::map<std::pair<int, int>, std::set<int32_t>> ghosts;
  for (int v = 0; v < graph.vertices(); ++v)
    for (int32_t e = graph.offsets[std::size_t(v)]; e < graph.offsets[std::size_t(v) + 1]; ++e) {
      const int32_t w = graph.neighbors[std::size_t(e)];
      if (part[std::size_t(w)] != part[std::size_t(v)]) ghosts[{part[std::size_t(w)], part[std::size_t(v)]}].insert(w);
    }
  std::vector<RankMessage> messages;
  for (const auto& [pair, vertices] : ghosts)
    if (pair.first < parts && pair.second < parts) messages.push_back({pair.first, pair.second, vertices.size() * point_bytes});
  return messages;
}

RankPartition partition_over(const Graph& graph, const Topology& topo, int levels) {
  RankPartition rp;
  rp.two_level = levels == 2 && topo.node_count() > 1 && topo.node_count() * topo.node_size() == topo.world_size();
  rp.part = partition(graph, topo.world_size(), rp.two_level ? topo.node_size() : 0);
  rp.rank_of_part = rank_of_parts(topo.node_of(), topo.node_size(), rp.two_level);
  return rp;
}

LocalMesh rank_local_mesh(const Graph& graph, const RankPartition& rp, int rank) {
  return owners_as_ranks(local_mesh(graph, rp.part, part_of_rank(rp.rank_of_part, rank)), rp.rank_of_part);
}

Pattern mesh_pattern(Context& ctx, const LocalMesh& local, int chunk) {
  return Pattern::from_owners(ctx, local.global, local.owner, chunk, Datatype::float64);
}

}  // namespace hympi::mesh
