#include "distributed.hpp"

#include <algorithm>
#include <map>
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

Pattern mesh_pattern(Context& ctx, const LocalMesh& local, int chunk) {
  return Pattern::from_owners(ctx, local.global, local.owner, chunk, Datatype::float64);
}

}  // namespace hympi::mesh
