// SPDX-License-Identifier: BSD-3-Clause
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
// Blocks and stencils are pure arithmetic (hympi/block.hpp, no MPI), so statistics for any
// process count can be computed without running that many ranks (see hympi/statistics.hpp).
#pragma once

#include <span>

#include "hympi/block.hpp"
#include "hympi/context.hpp"
#include "hympi/detail/finalize_guard.hpp"
#include "hympi/halo.hpp"

namespace hympi {

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
