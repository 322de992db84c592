// SPDX-License-Identifier: BSD-3-Clause
#include "halo/exchange.hpp"

#include "hympi/types.hpp"

namespace hympi::halo {

bool Exchange::arrived() {  // Halo::test_buffers() refuses the other strategies first
  throw Error("hympi: internal: Exchange::arrived() called on a part without it");
}

void PeerPlan::pack_fields(std::span<const void* const> send, std::byte* buffer) const {
  for (const void* v : send) {
    pack.run(static_cast<const std::byte*>(v), buffer);
    buffer += pack.bytes();
  }
}

void PeerPlan::unpack_fields(const std::byte* buffer, std::span<void* const> recv) const {
  for (void* v : recv) {
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

HaloStats peer_stats(std::span<const PeerPlan> peers, int fields) {
  HaloStats stats;
  for (const PeerPlan& peer : peers) {
    const std::size_t bytes = peer.send_bytes(fields);
    if (bytes == 0) continue;
    const bool intranode = peer.node_rank >= 0;
    (intranode ? stats.intranode_messages : stats.internode_messages) += 1;
    (intranode ? stats.intranode_bytes : stats.internode_bytes) += bytes;
  }
  return stats;
}

void add_stats(HaloStats& total, const HaloStats& part) {
  total.internode_messages += part.internode_messages;
  total.internode_bytes += part.internode_bytes;
  total.intranode_messages += part.intranode_messages;
  total.intranode_bytes += part.intranode_bytes;
  total.single_copy_messages += part.single_copy_messages;
}

}  // namespace hympi::halo
