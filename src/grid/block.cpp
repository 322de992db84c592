// SPDX-License-Identifier: BSD-3-Clause
// Blocks of a structured grid and the messages of a stencil's ghost update on them.
// Invariants: a message's send region on one end and recv region on the other cover the
// same global points and are both walked x fastest, so the lists agree element by element;
// non-periodic grids have no message across the border.
#include <algorithm>
#include <string>

#include "hympi/block.hpp"

namespace hympi {
namespace {

struct Region {
  Index3 lo, hi;  // local coordinates, hi exclusive
  std::size_t points() const {
    return std::size_t(hi[0] - lo[0]) * std::size_t(hi[1] - lo[1]) * std::size_t(hi[2] - lo[2]);
  }
};

struct MessageRegions {
  Index3 neighbor;
  Region send, recv;
};

/// Per stencil direction with a neighbour: my owned points next to it and my ghosts it fills.
std::vector<MessageRegions> message_regions(const Block& b, Stencil stencil) {
  std::vector<MessageRegions> result;
  for (const Index3& o : offsets_of(stencil)) {
    MessageRegions m;
    bool inside = true;
    for (int d = 0; d < 3; ++d) {
      const std::size_t e = std::size_t(d);
      m.neighbor[e] = b.coords[e] + o[e];
      inside = inside && m.neighbor[e] >= 0 && m.neighbor[e] < b.dims[e];
      const int w = b.halo[e], n = b.size[e];
      if (o[e] < 0) m.send.lo[e] = 0, m.send.hi[e] = w, m.recv.lo[e] = -w, m.recv.hi[e] = 0;
      else if (o[e] > 0) m.send.lo[e] = n - w, m.send.hi[e] = n, m.recv.lo[e] = n, m.recv.hi[e] = n + w;
      else m.send.lo[e] = m.recv.lo[e] = 0, m.send.hi[e] = m.recv.hi[e] = n;
    }
    if (inside) result.push_back(m);
  }
  return result;
}

std::vector<int> ids_of(const Block& b, const Region& r) {
  std::vector<int> ids;
  ids.reserve(r.points());
  for (int k = r.lo[2]; k < r.hi[2]; ++k)
    for (int j = r.lo[1]; j < r.hi[1]; ++j)
      for (int i = r.lo[0]; i < r.hi[0]; ++i) ids.push_back(b.index(i, j, k));
  return ids;
}

}  // namespace

int Block::local_points() const {
  return (size[0] + 2 * halo[0]) * (size[1] + 2 * halo[1]) * (size[2] + 2 * halo[2]);
}

Block make_block(Index3 global, Index3 dims, Index3 coords, int width, int dimensions) {
  if (width < 1) throw Error("hympi: grid: the ghost width must be >= 1, got " + std::to_string(width));
  Block b;
  for (int d = 0; d < dimensions; ++d) {
    const std::size_t e = std::size_t(d);
    if (dims[e] < 1 || coords[e] < 0 || coords[e] >= dims[e])
      throw Error("hympi: grid: process grid position " + std::to_string(coords[e]) + " outside 0.." +
                  std::to_string(dims[e] - 1) + " in dimension " + std::to_string(d));
    const int base = global[e] / dims[e], extra = global[e] % dims[e];
    if (base < width)
      throw Error("hympi: grid: " + std::to_string(global[e]) + " points over " + std::to_string(dims[e]) +
                  " processes in dimension " + std::to_string(d) + " leave blocks of " + std::to_string(base) +
                  " points, fewer than the ghost width " + std::to_string(width) +
                  "; use a larger grid or fewer ranks");
    b.global[e] = global[e];
    b.dims[e] = dims[e];
    b.coords[e] = coords[e];
    b.size[e] = base + (coords[e] < extra ? 1 : 0);
    b.begin[e] = coords[e] * base + std::min(coords[e], extra);
    b.halo[e] = width;
  }
  return b;
}

int cartesian_rank(Index3 dims, Index3 coords) {
  int rank = 0;
  for (std::size_t e = 0; e < 3; ++e) {
    if (coords[e] < 0 || coords[e] >= dims[e]) return -1;
    rank = rank * dims[e] + coords[e];
  }
  return rank;
}

std::vector<BlockMessage> block_messages(const Block& block, Stencil stencil) {
  std::vector<BlockMessage> messages;
  for (const MessageRegions& m : message_regions(block, stencil))
    messages.push_back({m.neighbor, ids_of(block, m.send), ids_of(block, m.recv)});
  return messages;
}

std::vector<BlockMessageSize> block_message_sizes(const Block& block, Stencil stencil) {
  std::vector<BlockMessageSize> sizes;
  for (const MessageRegions& m : message_regions(block, stencil))
    sizes.push_back({m.neighbor, m.send.points(), m.recv.points()});
  return sizes;
}

}  // namespace hympi
