// SPDX-License-Identifier: BSD-3-Clause
// The local numbering of Figs. 8 and 17 of Quaranta & Maddegedara (2021), MPI-free:
// inner | boundary | ghost, so that most messages are contiguous (one memcpy, see
// halo/copy_plan.hpp). Neighbours are laid out intranode first, then in list order; a
// point sent to one neighbour goes in that neighbour's boundary range (in send-list
// order), points sent to several come last in the boundary part, and each neighbour's
// ghosts are one range (in receive-list order).
#pragma once

#include <span>
#include <vector>

namespace hympi::halo {

/// One neighbour's lists, in local ids.
struct NeighborIds {
  std::span<const int> send, recv;
  bool intranode = false;
};

struct PointNumbering {
  std::vector<int> new_id;  // new_id[old local id]
  int inner = 0, boundary = 0, ghosts = 0;
};

/// The lists are valid (ids in 0 .. local_points-1, no ghost received twice or sent on).
PointNumbering number_points(int local_points, std::span<const NeighborIds> neighbors);

}  // namespace hympi::halo
