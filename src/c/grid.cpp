// SPDX-License-Identifier: BSD-3-Clause
// The C API of hympi::CartesianGrid: a structured grid's blocks, its ghost-update pattern
// and its Cartesian communicator.
#include <algorithm>
#include <span>

#include "c/c_api.hpp"

using hympi::c::guard;
using hympi::c::require;

namespace {

const hympi::CartesianGrid& grid_of(hympi_grid grid) { return require(grid, "grid").grid; }

/// Collective: a new grid with the stencil `stencil()` gives (it may throw an
/// ArgumentError). Without a context there is no communicator: that error is this rank's
/// alone; the others reach every rank of the context (check_collectively).
template <class StencilOf>
int create(const char* function, hympi_context context, int ndims, const int* global, StencilOf stencil, int width,
           int reorder, int chunk, const hympi_datatype& type, hympi_grid* grid) {
  return guard(function, [&] {
    if (grid) *grid = nullptr;
    hympi::Context& ctx = require(context, "context").context;
    std::size_t n = 0;
    hympi::Stencil s{};
    hympi::Datatype t{};
    hympi::c::check_collectively(function, ctx.topology().world(), "CartesianGrid", [&] {
      require(grid, "grid");
      // The extents' count is checked against the stencil by the C++ API, on every rank.
      n = std::size_t(hympi::c::checked_range(ndims, 1, 3, "ndims", "2 or 3, as the stencil needs"));
      hympi::c::require_array(global, n, "global");
      s = stencil();
      t = hympi::c::to_datatype(type);
    });
    *grid = new hympi_grid_s{hympi::CartesianGrid(ctx, std::span(global, n), s, width, reorder != 0, chunk, t)};
  });
}

}  // namespace

extern "C" {

int hympi_grid_create(hympi_context context, int ndims, const int* global, hympi_stencil stencil, int width,
                      int reorder, int chunk, hympi_datatype type, hympi_grid* grid) {
  return create(__func__, context, ndims, global, [&] { return hympi::c::to_stencil(stencil); }, width, reorder,
                chunk, type, grid);
}

int hympi_grid_create_named(hympi_context context, int ndims, const int* global, const char* stencil, int width,
                            int reorder, int chunk, hympi_datatype type, hympi_grid* grid) {
  return create(__func__, context, ndims, global, [&] {
    return hympi::c::from_name(hympi::stencil_from_name, stencil, "stencil");
  }, width, reorder, chunk, type, grid);
}

int hympi_grid_free(hympi_grid* grid) {
  return guard(__func__, [&] { hympi::c::free_handle(grid, "grid"); });
}

int hympi_grid_block(hympi_grid grid, hympi_block* block) {
  return guard(__func__, [&] {
    const hympi::Block& b = grid_of(grid).block();
    hympi_block& out = require(block, "block");
    auto put = [](const hympi::Index3& from, int* to) { std::copy(from.begin(), from.end(), to); };
    put(b.global, out.global);
    put(b.dims, out.dims);
    put(b.coords, out.coords);
    put(b.begin, out.begin);
    put(b.size, out.size);
    put(b.halo, out.halo);
    out.local_points = b.local_points();
    out.owned_points = b.owned_points();
  });
}

int hympi_grid_pattern(hympi_grid grid, hympi_pattern* pattern) {
  return guard(__func__, [&] {
    const hympi::Pattern& p = grid_of(grid).pattern();
    hympi_pattern& out = require(pattern, "pattern");
    out = new hympi_pattern_s{p};
  });
}

int hympi_grid_cart(hympi_grid grid, MPI_Comm* cart) {
  return guard(__func__, [&] {
    MPI_Comm c = grid_of(grid).cart();
    require(cart, "cart") = c;
  });
}

int hympi_grid_cart_f(hympi_grid grid, MPI_Fint* cart) {
  return guard(__func__, [&] {
    MPI_Comm c = grid_of(grid).cart();
    require(cart, "cart") = MPI_Comm_c2f(c);
  });
}

}  // extern "C"
