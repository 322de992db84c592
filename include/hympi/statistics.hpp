// SPDX-License-Identifier: BSD-3-Clause
// Message statistics of a ghost update: how many messages of which size cross node
// boundaries with one MPI message per rank pair ("flat", MASHM's "Original") and with one
// per node pair (aggregated), and what stays inside nodes; per-rank spreads in the
// columns of Tables 2-3 of Quaranta & Maddegedara (2021). Computed from a list of
// messages, so any process count can be evaluated without running it (grid_messages), or
// gathered from a live pattern (pattern_messages); deterministic either way.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "hympi/grid.hpp"
#include "hympi/halo.hpp"

namespace hympi {

/// One message of an update: `bytes` from rank `from` to rank `to`.
struct RankMessage {
  int from = -1, to = -1;
  std::size_t bytes = 0;
};

/// Minimum, average and maximum of a per-rank (or per-node) quantity.
struct Spread {
  double min = 0, average = 0, max = 0;
};

struct MessageStatistics {
  int ranks = 0, nodes = 0;
  // Flat: one message per communicating rank pair and direction.
  std::size_t internode_messages = 0, internode_bytes = 0;
  std::size_t intranode_messages = 0, intranode_bytes = 0;
  // Aggregated: one message per communicating node pair and direction.
  std::size_t node_pair_messages = 0;
  int ranks_with_internode = 0;        // ranks that send to another node
  Spread internode_neighbors;          // per rank: other-node ranks it sends to
  Spread internode_bytes_per_rank;     // per rank: bytes it sends to other nodes
  Spread intranode_neighbors;          // per rank: same-node ranks it sends to
  Spread intranode_bytes_per_rank;
  Spread node_pair_messages_per_node;  // per node: node-pair messages it sends

  double average_internode_message() const {
    return internode_messages ? double(internode_bytes) / double(internode_messages) : 0;
  }
  double average_node_pair_message() const {
    return node_pair_messages ? double(internode_bytes) / double(node_pair_messages) : 0;
  }
  /// Intranode bytes per internode byte, the same as the ratio of the per-process averages:
  /// the hybrid update pays when it is about 2 or more (Quaranta & Maddegedara (2021),
  /// Section 7.2: internode messages cost the same in both, so the gain is the intranode
  /// share). Infinity without internode data.
  double intranode_to_internode() const;
};

/// `node_of[r]`: the node of rank r. Messages of zero bytes are ignored.
MessageStatistics message_statistics(std::span<const RankMessage> messages, std::span<const int> node_of);

/// Collective: every message of `pattern` with `fields` vectors per update, on every rank
/// (ordered by sender, then receiver).
std::vector<RankMessage> pattern_messages(const Pattern& pattern, int fields = 1);

/// Every message of a structured grid's update on `dims` processes (ranks row-major as
/// cartesian_rank), `point_bytes` per point; no MPI involved.
std::vector<RankMessage> grid_messages(Index3 global, Index3 dims, Stencil stencil, int width,
                                       std::size_t point_bytes);

/// Ranks 0..ranks-1 placed on nodes of `ranks_per_node` consecutive ranks.
std::vector<int> consecutive_nodes(int ranks, int ranks_per_node);

}  // namespace hympi
