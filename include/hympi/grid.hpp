// Structured grids: a global 2D or 3D grid of points split in blocks over a Cartesian
// process grid, each rank's block stored with `width` ghost layers around it (the layout
// of a flat MPI stencil code), and the ghost-update pattern of a stencil on it.
//
//   hympi::CartesianGrid grid(ctx, {96, 96, 96}, hympi::Stencil::star19);  // collective
//   std::vector<double> u(grid.block().local_points());
//   u[grid.block().index(i, j, k)] = ...;          // i, j, k owned: 0 .. size-1
//   hympi::Halo halo(grid.pattern(), hympi::Strategy::shm);
//   halo.update(u.data());                         // fills the ghost layers the stencil reads
//
// A Block is pure arithmetic (no MPI), so statistics for any process count can be
// computed without running that many ranks (see hympi/statistics.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "hympi/detail/finalize_guard.hpp"
#include "hympi/context.hpp"
#include "hympi/halo.hpp"

namespace hympi {

/// The neighbours a stencil reads: star5 / box9 in 2D (the anisotropic 2D Laplace is
/// box9), star7 / star19 / box27 in 3D (star19: faces and edges, MASHM's anisotropic
/// Laplace).
enum class Stencil : uint8_t { star5, box9, star7, star19, box27 };

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

/// A structured grid distributed over a Context's ranks: the process grid from
/// MPI_Dims_create (its most divided dimension is the slowest-varying one, z in 3D, so the
/// largest faces are contiguous in memory) and the topology from MPI_Cart_create (with `reorder`, MPI may place
/// blocks to suit the machine; ranks in the pattern are the Context's ranks either way).
class CartesianGrid {
 public:
  /// Collective. `global`: points per dimension (2 or 3 values, as the stencil needs).
  CartesianGrid(Context& context, std::span<const int> global, Stencil stencil, int width = 1,
                bool reorder = false, int chunk = 1, Datatype type = Datatype::float64);
  /// Collective (it frees the Cartesian communicator). One alive at MPI_Finalize is freed there.
  ~CartesianGrid();
  CartesianGrid(const CartesianGrid&) = delete;
  CartesianGrid& operator=(const CartesianGrid&) = delete;

  const Block& block() const { return block_; }
  Stencil stencil() const { return stencil_; }
  const Pattern& pattern() const { return pattern_; }
  /// The Cartesian communicator (MPI_Cart_create's); ranks in it may differ from the Context's.
  MPI_Comm cart() const { return cart_; }

 private:
  CartesianGrid(Context& context, std::span<const int> global, Stencil stencil, int width, int chunk,
                Datatype type, MPI_Comm cart);
  Pattern make_pattern(Context& context, std::span<const int> global, Stencil stencil, int width, int chunk,
                       Datatype type);
  void free_cart();
  MPI_Comm cart_;
  Stencil stencil_;
  Block block_;
  Pattern pattern_;
  detail::FinalizeGuard guard_{[this] { free_cart(); }};  // last: destroyed first
};

}  // namespace hympi
