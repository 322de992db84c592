// SPDX-License-Identifier: BSD-3-Clause
#include "hympi/statistics.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <utility>

#include "halo/pattern_data.hpp"
#include "mpi/support/rank_lists.hpp"

namespace hympi {
namespace {

Spread spread_of(const std::vector<double>& values) {
  if (values.empty()) return {};
  Spread s{values.front(), 0, values.front()};
  for (double v : values) {
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
    s.average += v;
  }
  s.average /= double(values.size());
  return s;
}

}  // namespace

double MessageStatistics::intranode_to_internode() const {
  return internode_bytes ? double(intranode_bytes) / double(internode_bytes) : std::numeric_limits<double>::infinity();
}

MessageStatistics message_statistics(std::span<const RankMessage> messages, std::span<const int> node_of) {
  MessageStatistics st;
  st.ranks = int(node_of.size());
  st.nodes = node_of.empty() ? 0 : *std::max_element(node_of.begin(), node_of.end()) + 1;
  const std::size_t ranks = node_of.size();
  std::vector<double> inter_neighbors(ranks), inter_bytes(ranks), intra_neighbors(ranks), intra_bytes(ranks),
      node_pairs_per_node(std::size_t(st.nodes));
  std::set<std::pair<int, int>> node_pairs;
  for (const RankMessage& m : messages) {
    if (m.bytes == 0) continue;
    const int a = node_of[std::size_t(m.from)], b = node_of[std::size_t(m.to)];
    const std::size_t from = std::size_t(m.from);
    if (a == b) {
      st.intranode_messages += 1;
      st.intranode_bytes += m.bytes;
      intra_neighbors[from] += 1;
      intra_bytes[from] += double(m.bytes);
      continue;
    }
    st.internode_messages += 1;
    st.internode_bytes += m.bytes;
    inter_neighbors[from] += 1;
    inter_bytes[from] += double(m.bytes);
    if (node_pairs.insert({a, b}).second) node_pairs_per_node[std::size_t(a)] += 1;
  }
  st.node_pair_messages = node_pairs.size();
  st.ranks_with_internode = int(std::count_if(inter_neighbors.begin(), inter_neighbors.end(), [](double n) { return n > 0; }));
  st.internode_neighbors = spread_of(inter_neighbors);
  st.internode_bytes_per_rank = spread_of(inter_bytes);
  st.intranode_neighbors = spread_of(intra_neighbors);
  st.intranode_bytes_per_rank = spread_of(intra_bytes);
  st.node_pair_messages_per_node = spread_of(node_pairs_per_node);
  return st;
}

std::vector<RankMessage> pattern_messages(const Pattern& pattern, int fields) {
  const Pattern::Data& d = pattern.data();
  struct Sent {
    unsigned long long to, bytes;
  };
  std::vector<Sent> mine;
  for (const NeighborLists& n : d.neighbors)
    if (!n.send.empty()) mine.push_back({(unsigned long long)n.rank, n.send.size() * d.point_bytes * std::size_t(fields)});
  const mpi::RankLists<Sent> all = mpi::allgather_lists<Sent>(d.context->topology().world(), mine, "statistics");
  std::vector<RankMessage> messages;
  for (int r = 0; r < d.context->topology().world_size(); ++r)
    for (const Sent& m : all.of(r)) messages.push_back({r, int(m.to), std::size_t(m.bytes)});
  return messages;
}

std::vector<RankMessage> grid_messages(Index3 global, Index3 dims, Stencil stencil, int width, std::size_t point_bytes) {
  std::vector<RankMessage> messages;
  const int dimensions = dimensions_of(stencil);
  for (int x = 0; x < dims[0]; ++x)
    for (int y = 0; y < dims[1]; ++y)
      for (int z = 0; z < dims[2]; ++z) {
        const Index3 coords{x, y, z};
        const Block block = make_block(global, dims, coords, width, dimensions);
        const int rank = cartesian_rank(dims, coords);
        for (const BlockMessageSize& m : block_message_sizes(block, stencil))
          messages.push_back({rank, cartesian_rank(dims, m.neighbor), m.send * point_bytes});
      }
  return messages;
}

std::vector<int> consecutive_nodes(int ranks, int ranks_per_node) {
  std::vector<int> node_of(std::size_t(std::max(ranks, 0)));
  for (int r = 0; r < ranks; ++r) node_of[std::size_t(r)] = r / std::max(ranks_per_node, 1);
  return node_of;
}

}  // namespace hympi
