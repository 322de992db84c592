// SPDX-License-Identifier: BSD-3-Clause
// What a validated Pattern holds: the lists, and where each neighbour is (same node or not).
// One array (from_lists, from_owners): send_points == recv_points and `apart` is false;
// separate arrays (from_lists_apart): send ids index send_points, recv ids recv_points.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hympi/halo.hpp"

namespace hympi {

struct Pattern::Data {
  Context* context = nullptr;
  int send_points = 0, recv_points = 0;
  bool apart = false;
  int chunk = 1;
  Datatype type = Datatype::float64;
  std::size_t point_bytes = 0;               // chunk * size_of(type)
  std::vector<NeighborLists> neighbors;      // sorted by rank, none empty
  std::vector<int> node_rank;                // per neighbour: its node rank, -1 if on another node
  uint64_t fingerprint = 0;                  // the same on every rank, differs between patterns

  bool intranode(std::size_t i) const { return node_rank[i] >= 0; }
};

}  // namespace hympi
