// SPDX-License-Identifier: BSD-3-Clause
// map_ranks through find_package(hympi COMPONENTS mapping): two pairs of ranks that talk,
// placed across two nodes of two, come back paired on a node (0 2 | 1 3, or 3 1 | 2 0).
#include <hympi/mapping.hpp>

#include <cstdio>

int main() {
  const std::vector<hympi::RankMessage> traffic{{0, 2, 1000}, {2, 0, 1000}, {1, 3, 1000}, {3, 1, 1000}};
  const std::vector<int> new_rank = hympi::map_ranks(traffic, hympi::ProcessPlacement::consecutive(4, 2));
  std::printf(", map_ranks %d %d %d %d", new_rank[0], new_rank[1], new_rank[2], new_rank[3]);
}
