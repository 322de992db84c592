// SPDX-License-Identifier: BSD-3-Clause
#include "halo/aggregate_layout.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "halo/cache_line.hpp"

namespace hympi::halo {
namespace {

/// The world ranks of every node, by node index (ordered by world rank, as node comms).
std::vector<std::vector<int>> members_by_node(const NodeView& node) {
  std::vector<std::vector<int>> members(std::size_t(node.node_count));
  for (std::size_t r = 0; r < node.node_of.size(); ++r) members[std::size_t(node.node_of[r])].push_back(int(r));
  return members;
}

/// Groups messages by the other node, sorted; pads offsets; assigns owners.
std::vector<Group> make_groups(std::vector<Message> messages, bool outgoing, const NodeView& node,
                               const std::vector<std::vector<int>>& members) {
  std::map<int, Group> by_node;
  for (Message& m : messages) by_node[node.node_of[std::size_t(outgoing ? m.dst : m.src)]].messages.push_back(m);
  std::vector<Group> groups;
  for (auto& [other, g] : by_node) {
    g.node = other;
    std::sort(g.messages.begin(), g.messages.end(),
              [](const Message& a, const Message& b) { return std::pair(a.src, a.dst) < std::pair(b.src, b.dst); });
    for (Message& m : g.messages) {
      m.offset = g.bytes;
      g.bytes += line_up(m.bytes);
      if (std::find(g.locals.begin(), g.locals.end(), m.local) == g.locals.end()) g.locals.push_back(m.local);
    }
    g.owner = other % node.node_size;
    const std::vector<int>& there = members[std::size_t(other)];
    g.remote_owner = there[std::size_t(node.node_index) % there.size()];
    groups.push_back(std::move(g));
  }
  return groups;
}

}  // namespace

AggregateLayout aggregate_layout(const std::vector<std::vector<Traffic>>& traffic, const NodeView& node,
                                 std::size_t channel_bytes) {
  std::vector<Message> out, in;
  for (std::size_t q = 0; q < traffic.size(); ++q)
    for (const Traffic& t : traffic[q]) {
      const int peer = int(t.peer), me = node.node_members[q];
      if (t.out > 0) out.push_back({me, peer, int(q), std::size_t(t.out)});
      if (t.in > 0) in.push_back({peer, me, int(q), std::size_t(t.in)});
    }
  const auto members = members_by_node(node);
  AggregateLayout layout{make_groups(std::move(out), true, node, members),
                         make_groups(std::move(in), false, node, members),
                         std::vector<std::size_t>(std::size_t(node.node_size), 0)};
  auto take = [&](int q, std::size_t bytes) {
    const std::size_t at = layout.region_bytes[std::size_t(q)];
    layout.region_bytes[std::size_t(q)] += line_up(bytes);
    return at;
  };
  for (std::vector<Group>* groups : {&layout.send, &layout.recv})
    for (Group& g : *groups) {
      g.counter_at = take(g.owner, channel_bytes);
      g.notice_at.assign(std::size_t(node.node_size), 0);
      for (int q : g.locals) g.notice_at[std::size_t(q)] = take(q, channel_bytes);
    }
  for (std::vector<Group>* groups : {&layout.send, &layout.recv})
    for (Group& g : *groups) g.region_at = take(g.owner, g.bytes);
  return layout;
}

}  // namespace hympi::halo
