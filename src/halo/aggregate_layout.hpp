// SPDX-License-Identifier: BSD-3-Clause
// The layout of the aggregated exchange's shared regions (halo/aggregated_exchange.hpp),
// MPI-free: computed from the node's internode traffic, identically on every rank of the
// node, and by the other node from its own traffic, so that both ends of a node pair agree
// on every offset without exchanging a plan.
//
// Messages between this node and node D are sorted by (source rank, destination rank) and
// laid out one after the other, each padded to a cache line, in one region per direction
// (a group). The message to node D is sent by node rank D mod (my node size), the message
// from node A received by node rank A mod (my node size): the owners. Every rank's region
// holds [counters of the groups it owns][notices of the groups it writes or reads]
// [the groups it owns].
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace hympi::halo {

/// One rank's internode neighbour: bytes per update to it and from it.
struct Traffic {
  long long peer, out, in;  // world rank, bytes
};

/// Where this node is.
struct NodeView {
  int node_index = 0, node_size = 1, node_count = 1;
  std::span<const int> node_of;       // node of every world rank
  std::span<const int> node_members;  // world rank of each node rank
};

struct Message {
  int src, dst;  // world ranks
  int local;     // the node rank on this node that writes (send) or reads (receive) it
  std::size_t bytes, offset = 0;
};

/// All messages between this node and one other node, in one direction.
struct Group {
  int node = -1;             // the other node
  int owner = -1;            // node rank here that sends / receives the MPI message
  int remote_owner = -1;     // world rank of the other end's owner
  std::vector<Message> messages;
  std::vector<int> locals;   // distinct node ranks that write / read parts of it
  std::size_t bytes = 0;     // padded total
  // Offsets: the counter and the message in the owner's region, the notices in the locals'.
  std::size_t counter_at = 0, region_at = 0;
  std::vector<std::size_t> notice_at;  // per node rank (only for locals)
};

struct AggregateLayout {
  std::vector<Group> send, recv;          // by the other node
  std::vector<std::size_t> region_bytes;  // per node rank: the size of its region
};

/// `traffic[q]`: node rank q's internode neighbours. `channel_bytes`: a counter or notice.
AggregateLayout aggregate_layout(const std::vector<std::vector<Traffic>>& traffic, const NodeView& node,
                                 std::size_t channel_bytes);

}  // namespace hympi::halo
