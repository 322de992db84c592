// SPDX-License-Identifier: BSD-3-Clause
// A structured grid over a Context's ranks: MPI_Dims_create picks the process grid,
// MPI_Cart_create the placement; the pattern names neighbours by their Context rank.
#include <algorithm>
#include <string>

#include "core/name_table.hpp"
#include "hympi/grid.hpp"
#include "mpi/support/collective_error.hpp"
#include "mpi/support/mpi_check.hpp"
#include "mpi/support/setup_agreement.hpp"

namespace hympi {
namespace {

/// Collective: every rank passed the same grid description, else an error on every rank.
void check_same_everywhere(MPI_Comm world, std::span<const int> global, Stencil stencil, int width, bool reorder,
                           int chunk, Datatype type) {
  auto extent = [&](std::size_t d) { return int64_t(d < global.size() ? global[d] : 0); };
  mpi::agree_on_setup(world, "CartesianGrid",
                      {{"number of grid extents", int64_t(global.size())},
                       {"x extent", extent(0)},
                       {"y extent", extent(1)},
                       {"z extent", extent(2)},
                       {"stencil", int64_t(stencil), &core::show_name<Stencil>},
                       {"ghost width", width},
                       {"reorder", reorder},
                       {"chunk", chunk},
                       {"element type", int64_t(type), &core::show_name<Datatype>}});
  const int dimensions = dimensions_of(stencil);
  std::string error;
  if (int(global.size()) != dimensions)
    error = std::string("hympi: CartesianGrid: the stencil ") + name_of(stencil) + " needs " +
            std::to_string(dimensions) + " grid extents, got " + std::to_string(global.size());
  for (int n : global)
    if (error.empty() && n < 1) error = "hympi: CartesianGrid: grid extents must be >= 1, got " + std::to_string(n);
  mpi::throw_if_any(world, error);
}

MPI_Comm make_cart(Context& context, std::span<const int> global, Stencil stencil, int width, bool reorder,
                   int chunk, Datatype type) {
  const MPI_Comm world = context.topology().world();
  check_same_everywhere(world, global, stencil, width, reorder, chunk, type);
  const int dimensions = dimensions_of(stencil);
  int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
  mpi::check(MPI_Dims_create(context.topology().world_size(), dimensions, dims), "MPI_Dims_create");
  // MPI_Dims_create lists the most divided dimension first; x varies fastest in a block,
  // so give the most cuts to the slowest dimension: the largest faces are then contiguous.
  std::reverse(dims, dims + dimensions);
  MPI_Comm cart = MPI_COMM_NULL;
  mpi::check(MPI_Cart_create(world, dimensions, dims, periods, reorder ? 1 : 0, &cart), "MPI_Cart_create");
  return cart;
}

}  // namespace

CartesianGrid::CartesianGrid(Context& context, std::span<const int> global, Stencil stencil, int width,
                             bool reorder, int chunk, Datatype type)
    : CartesianGrid(context, global, stencil, width, chunk, type,
                    make_cart(context, global, stencil, width, reorder, chunk, type)) {}

CartesianGrid::CartesianGrid(Context& context, std::span<const int> global, Stencil stencil, int width, int chunk,
                             Datatype type, MPI_Comm cart)
    : cart_(cart), stencil_(stencil), pattern_([&] {
        try {
          return make_pattern(context, global, stencil, width, chunk, type);
        } catch (...) {
          MPI_Comm_free(&cart_);
          throw;
        }
      }()) {}

Pattern CartesianGrid::make_pattern(Context& context, std::span<const int> global, Stencil stencil, int width,
                                    int chunk, Datatype type) {
  const int dimensions = dimensions_of(stencil);
  int dims[3] = {1, 1, 1}, periods[3], coords[3] = {0, 0, 0};
  mpi::check(MPI_Cart_get(cart_, dimensions, dims, periods, coords), "MPI_Cart_get");
  // Context rank of every Cartesian rank (they differ when MPI reordered).
  std::vector<int> context_rank(std::size_t(context.topology().world_size()));
  int me = context.topology().world_rank();
  mpi::check(MPI_Allgather(&me, 1, MPI_INT, context_rank.data(), 1, MPI_INT, cart_), "MPI_Allgather (CartesianGrid)");
  Index3 extent{1, 1, 1}, shape{1, 1, 1}, place{0, 0, 0};
  for (std::size_t d = 0; d < std::size_t(dimensions); ++d) {
    extent[d] = global[d];
    shape[d] = dims[d];
    place[d] = coords[d];
  }
  std::string error;
  try {
    block_ = make_block(extent, shape, place, width, dimensions);
  } catch (const Error& e) {
    error = e.what();
  }
  mpi::throw_if_any(cart_, error);
  std::vector<NeighborLists> lists;
  for (BlockMessage& m : block_messages(block_, stencil))
    lists.push_back({context_rank[std::size_t(cartesian_rank(shape, m.neighbor))], std::move(m.send), std::move(m.recv)});
  return Pattern::from_lists(context, block_.local_points(), std::move(lists), chunk, type);
}

CartesianGrid::~CartesianGrid() { free_cart(); }

void CartesianGrid::free_cart() {
  if (cart_ != MPI_COMM_NULL) MPI_Comm_free(&cart_);
}

}  // namespace hympi
