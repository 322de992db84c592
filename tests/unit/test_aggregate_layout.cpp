// SPDX-License-Identifier: BSD-3-Clause
// The aggregate-buffer layout (src/halo/aggregate_layout.hpp), MPI-free: both ends of a
// node pair lay out the same messages at the same offsets, owners name each other, and no
// rank's region has overlapping parts.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "halo/aggregate_layout.hpp"

using namespace hympi::halo;

namespace {

constexpr std::size_t kChannel = 128;

/// Two nodes of two ranks: world ranks 0, 1 on node 0 and 2, 3 on node 1. Bytes per update:
/// 0 -> 2: 100, 2 -> 0: 50, 1 -> 2: 10, 2 -> 1: 20, 1 -> 3: 70 (nothing back).
struct TwoNodes {
  std::vector<int> node_of{0, 0, 1, 1};
  std::vector<int> members0{0, 1}, members1{2, 3};
  std::vector<std::vector<Traffic>> traffic0{{{2, 100, 50}}, {{2, 10, 20}, {3, 70, 0}}};
  std::vector<std::vector<Traffic>> traffic1{{{0, 50, 100}, {1, 20, 10}}, {{1, 0, 70}}};

  AggregateLayout node(int index) const {
    const NodeView view{index, 2, 2, node_of, index == 0 ? members0 : members1};
    return aggregate_layout(index == 0 ? traffic0 : traffic1, view, kChannel);
  }
};

std::vector<std::pair<int, int>> ends(const Group& g) {
  std::vector<std::pair<int, int>> e;
  for (const Message& m : g.messages) e.emplace_back(m.src, m.dst);
  return e;
}

}  // namespace

TEST(AggregateLayout, MessagesSortedAndPaddedToCacheLines) {
  const AggregateLayout layout = TwoNodes{}.node(0);
  ASSERT_EQ(layout.send.size(), 1u);
  const Group& g = layout.send[0];
  EXPECT_EQ(g.node, 1);
  EXPECT_EQ(ends(g), (std::vector<std::pair<int, int>>{{0, 2}, {1, 2}, {1, 3}}));
  EXPECT_EQ(g.messages[0].offset, 0u);
  EXPECT_EQ(g.messages[1].offset, 128u);  // 100 bytes padded
  EXPECT_EQ(g.messages[2].offset, 192u);  // 10 bytes padded
  EXPECT_EQ(g.bytes, 320u);
  EXPECT_EQ(g.owner, 1);                  // node 1 mod 2 ranks
  EXPECT_EQ(g.locals, (std::vector<int>{0, 1}));
}

TEST(AggregateLayout, BothEndsAgreeWithoutExchangingAPlan) {
  const TwoNodes nodes;
  const AggregateLayout a = nodes.node(0), b = nodes.node(1);
  for (const auto& [from, to, from_members, to_members] :
       {std::tuple(&a, &b, &nodes.members0, &nodes.members1), std::tuple(&b, &a, &nodes.members1, &nodes.members0)}) {
    ASSERT_EQ(from->send.size(), 1u);
    ASSERT_EQ(to->recv.size(), 1u);
    const Group &out = from->send[0], &in = to->recv[0];
    EXPECT_EQ(ends(out), ends(in));
    EXPECT_EQ(out.bytes, in.bytes);
    for (std::size_t i = 0; i < out.messages.size(); ++i) {
      EXPECT_EQ(out.messages[i].offset, in.messages[i].offset);
      EXPECT_EQ(out.messages[i].bytes, in.messages[i].bytes);
    }
    EXPECT_EQ(out.remote_owner, (*to_members)[std::size_t(in.owner)]);   // the sender names the receiver
    EXPECT_EQ(in.remote_owner, (*from_members)[std::size_t(out.owner)]);  // and the receiver the sender
  }
}

TEST(AggregateLayout, RegionsHoldEveryPartOnceWithoutOverlap) {
  for (int index : {0, 1}) {
    const AggregateLayout layout = TwoNodes{}.node(index);
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> parts(2);  // per node rank: [begin, end)
    for (const std::vector<Group>* groups : {&layout.send, &layout.recv})
      for (const Group& g : *groups) {
        parts[std::size_t(g.owner)].emplace_back(g.counter_at, g.counter_at + kChannel);
        parts[std::size_t(g.owner)].emplace_back(g.region_at, g.region_at + g.bytes);
        for (int q : g.locals) parts[std::size_t(q)].emplace_back(g.notice_at[std::size_t(q)], g.notice_at[std::size_t(q)] + kChannel);
      }
    for (std::size_t q = 0; q < parts.size(); ++q) {
      std::sort(parts[q].begin(), parts[q].end());
      for (std::size_t i = 0; i < parts[q].size(); ++i) {
        EXPECT_LE(parts[q][i].second, layout.region_bytes[q]) << "node " << index << " rank " << q;
        if (i > 0) {
          EXPECT_LE(parts[q][i - 1].second, parts[q][i].first) << "node " << index << " rank " << q;
        }
      }
    }
  }
}
