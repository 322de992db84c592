// SPDX-License-Identifier: BSD-3-Clause
// The arithmetic of structured grids, without MPI: stencils, one rank's block of a
// global grid split over a Cartesian process grid (its points stored with `width` ghost
// layers around it, the layout of a flat MPI stencil code), and the messages of a
// stencil's ghost update on it. hympi/grid.hpp distributes blocks over a Context's ranks.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "hympi/names.h"
#include "hympi/types.hpp"

namespace hympi {

/// The neighbours a stencil reads: star5 / box9 in 2D (the anisotropic 2D Laplace is
/// box9), star7 / star19 / box27 in 3D (star19: faces and edges, MASHM's anisotropic
/// Laplace).
enum class Stencil : uint8_t { HYMPI_STENCILS(HYMPI_CXX_ENUMERATOR) };

const char* name_of(Stencil stencil);
/// "star5", "box9", "star7", "star19", "box27", or the point counts "5", "9", "7", "19",
/// "27"; throws hympi::Error listing them.
Stencil stencil_from_name(std::string_view name);
/// 2 or 3.
int dimensions_of(Stencil stencil);
/// The stencil's offsets without the centre (2D: z offset 0).
std::vector<std::array<int, 3>> offsets_of(Stencil stencil);

using Index3 = std::array<int, 3>;

/// One rank's block. Dimensions beyond the stencil's are of extent 1 with no ghosts.
struct Block {
  Index3 global{1, 1, 1};  // grid points per dimension
  Index3 dims{1, 1, 1};    // processes per dimension
  Index3 coords{0, 0, 0};  // this block's place in the process grid
  Index3 begin{0, 0, 0};   // global index of its first owned point
  Index3 size{1, 1, 1};    // owned points per dimension (blocks differ by at most 1)
  Index3 halo{0, 0, 0};    // ghost layers per dimension (width, or 0 for a flat dimension)

  /// Owned and ghost points: the padded box (size + 2 halo per dimension).
  int local_points() const;
  int owned_points() const { return size[0] * size[1] * size[2]; }
  /// Local id of the point (i, j, k), each from -halo to size + halo - 1; x fastest.
  int index(int i, int j, int k = 0) const {
    return (i + halo[0]) + (size[0] + 2 * halo[0]) * ((j + halo[1]) + (size[1] + 2 * halo[1]) * (k + halo[2]));
  }
};

/// The block at `coords` of `global` points over `dims` processes, with `width` ghost
/// layers in the first `dimensions` dimensions. Throws hympi::Error when a block would be
/// thinner than `width` (its neighbours' neighbours would be needed).
Block make_block(Index3 global, Index3 dims, Index3 coords, int width, int dimensions);

/// Row-major rank of a process-grid position (last dimension fastest, as MPI_Cart_create
/// without reordering); -1 outside the (non-periodic) grid.
int cartesian_rank(Index3 dims, Index3 coords);

/// One message of a block's ghost update: the neighbour's grid position and the points
/// sent (my owned points it reads) and received (my ghost points), ordered alike on both
/// ends (lexicographic in global index).
struct BlockMessage {
  Index3 neighbor;
  std::vector<int> send, recv;
};

/// Every message of `block` for `stencil` (non-periodic: no message across the border).
std::vector<BlockMessage> block_messages(const Block& block, Stencil stencil);

/// The point counts of block_messages() without the lists: (neighbour, send, recv).
struct BlockMessageSize {
  Index3 neighbor;
  std::size_t send = 0, recv = 0;
};
std::vector<BlockMessageSize> block_message_sizes(const Block& block, Stencil stencil);

}  // namespace hympi
