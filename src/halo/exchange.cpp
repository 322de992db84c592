#include "halo/exchange.hpp"

namespace hympi::halo {

void PeerPlan::pack_fields(Vectors vectors, std::byte* buffer) const {
  for (void* v : vectors) {
    pack.run(static_cast<const std::byte*>(v), buffer);
    buffer += pack.bytes();
  }
}

void PeerPlan::unpack_fields(const std::byte* buffer, Vectors vectors) const {
  for (void* v : vectors) {
    unpack.run(buffer, static_cast<std::byte*>(v));
    buffer += unpack.bytes();
  }
}

std::vector<PeerPlan> peer_plans(const Pattern::Data& pattern, Where where) {
  std::vector<PeerPlan> plans;
  for (std::size_t i = 0; i < pattern.neighbors.size(); ++i) {
    const bool intra = pattern.intranode(i);
    if ((where == Where::intranode && !intra) || (where == Where::internode && intra)) continue;
    const NeighborLists& n = pattern.neighbors[i];
    plans.push_back({n.rank, pattern.node_rank[i], i,
                     CopyPlan(n.send, {}, n.send.size(), pattern.point_bytes),
                     CopyPlan({}, n.recv, n.recv.size(), pattern.point_bytes)});
  }
  return plans;
}

}  // namespace hympi::halo
