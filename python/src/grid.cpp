// SPDX-License-Identifier: BSD-3-Clause
// hympi.CartesianGrid: a structured 2-D or 3-D grid split in blocks over a Cartesian
// process grid, its Block (the padded local box) and the ghost-update pattern of its
// stencil.
#include <nanobind/stl/vector.h>

#include <vector>

#include "bindings.hpp"
#include "pattern.hpp"

namespace hympy {

using namespace nb::literals;

namespace {

class CartesianGrid : public Child {
 public:
  CartesianGrid(Context& ctx, const std::vector<int>& global, const StencilArg& stencil, int width, bool reorder,
                int chunk, nb::handle dtype)
      : Child(ctx) {
    const hympi_datatype type = to_datatype(dtype);
    const int n = static_cast<int>(global.size());
    // A name goes to the C API as it is: an unknown one on some ranks is an error on every rank.
    if (const auto* name = std::get_if<std::string>(&stencil))
      blocking([&] {
        return hympi_grid_create_named(ctx.handle(), n, global.data(), name->c_str(), width, reorder ? 1 : 0, chunk,
                                       type, &handle_);
      });
    else
      blocking([&] {
        return hympi_grid_create(ctx.handle(), n, global.data(), std::get<hympi_stencil>(stencil), width,
                                 reorder ? 1 : 0, chunk, type, &handle_);
      });
    stencil_ = to_stencil(stencil);  // valid now
  }
  ~CartesianGrid() override { free_quietly("CartesianGrid"); }

  hympi_grid handle() const {
    if (!handle_) throw Error("hympi: this CartesianGrid is closed (close() or its Context's close())");
    check_not_finalized("CartesianGrid");
    return handle_;
  }
  bool closed() const { return handle_ == nullptr; }
  hympi_stencil stencil() const { return stencil_; }
  void close() { close_handle(); }

  hympi_block block() const {
    hympi_block block;
    check(hympi_grid_block(handle(), &block));
    return block;
  }

  /// The same Pattern object on every call (its own handle: it outlives a closed grid).
  nb::object pattern() {
    if (!pattern_.is_valid()) {
      hympi_pattern pattern = nullptr;
      check(hympi_grid_pattern(handle(), &pattern));
      pattern_ = nb::cast(new Pattern(context(), pattern), nb::rv_policy::take_ownership);
    }
    return pattern_;
  }

  nb::object cart() const {
    MPI_Fint cart;
    check(hympi_grid_cart_f(handle(), &cart));
    return mpi4py_comm(cart, "cart");
  }

 private:
  void free_handle() override {
    blocking([&] { return hympi_grid_free(&handle_); });
  }

  hympi_stencil stencil_{};
  hympi_grid handle_ = nullptr;
  nb::object pattern_;
};

using Triple = nb::typed<nb::tuple, int, int, int>;

Triple triple(int x, int y, int z) { return Triple(nb::make_tuple(x, y, z)); }
Triple triple(const int (&values)[3]) { return triple(values[0], values[1], values[2]); }

int index(const hympi_block& b, int i, int j, int k) {
  const int ijk[3] = {i, j, k};
  for (int d = 0; d < 3; ++d)
    if (ijk[d] < -b.halo[d] || ijk[d] >= b.size[d] + b.halo[d])
      throw nb::index_error(("hympi: Block.index: " + std::string(1, "ijk"[d]) + " = " + std::to_string(ijk[d]) +
                             " is outside " + std::to_string(-b.halo[d]) + " .. " +
                             std::to_string(b.size[d] + b.halo[d] - 1))
                                .c_str());
  const auto extent = [&](int d) { return b.size[d] + 2 * b.halo[d]; };
  return (i + b.halo[0]) + extent(0) * ((j + b.halo[1]) + extent(1) * (k + b.halo[2]));
}

}  // namespace

void bind_grid(nb::module_& m) {
  nb::class_<hympi_block>(m, "Block",
                          "This rank's block, per dimension x, y, z (flat dimensions: 1 and no ghosts): owned points "
                          "(i, j, k) 0 .. size-1, ghosts -halo .. -1 and size .. size+halo-1. A local array of "
                          "local_points elements reshaped to local_shape (z, y, x) is indexed [k, j, i] + halo.")
      .def_prop_ro("global_", [](const hympi_block& b) { return triple(b.global); }, "Points of the whole grid.")
      .def_prop_ro("dims", [](const hympi_block& b) { return triple(b.dims); }, "The process grid.")
      .def_prop_ro("coords", [](const hympi_block& b) { return triple(b.coords); }, "My place in it.")
      .def_prop_ro("begin", [](const hympi_block& b) { return triple(b.begin); }, "My first owned point's global index.")
      .def_prop_ro("size", [](const hympi_block& b) { return triple(b.size); }, "Owned points.")
      .def_prop_ro("halo", [](const hympi_block& b) { return triple(b.halo); }, "Ghost layers.")
      .def_ro("local_points", &hympi_block::local_points, "Owned and ghost points.")
      .def_ro("owned_points", &hympi_block::owned_points)
      .def("index", &index, "i"_a, "j"_a, "k"_a = 0, "The local id of point (i, j, k).")
      .def_prop_ro(
          "local_shape",
          [](const hympi_block& b) {
            return triple(b.size[2] + 2 * b.halo[2], b.size[1] + 2 * b.halo[1], b.size[0] + 2 * b.halo[0]);
          },
          "(z, y, x) extents of the local array with its ghosts.")
      .def_prop_ro(
          "owned",
          [](const hympi_block& b) {
            const auto owned = [&](int d) { return nb::slice(b.halo[d], b.halo[d] + b.size[d]); };
            return nb::typed<nb::tuple, nb::slice, nb::slice, nb::slice>(nb::make_tuple(owned(2), owned(1), owned(0)));
          },
          "Slices of the owned points in an array of shape local_shape: u.reshape(block.local_shape)[block.owned].");

  nb::class_<CartesianGrid>(m, "CartesianGrid",
                            "A structured grid over the Context's ranks: the process grid from MPI_Dims_create, "
                            "blocks with `width` ghost layers, and the ghost-update pattern of a stencil.")
      .def(nb::init<Context&, const std::vector<int>&, const StencilArg&, int, bool, int, nb::handle>(), "context"_a,
           "global_"_a, "stencil"_a, "width"_a = 1, "reorder"_a = false, "chunk"_a = 1, "dtype"_a = HYMPI_FLOAT64,
           nb::sig("def __init__(self, context: Context, global_: collections.abc.Sequence[int], "
                   "stencil: Stencil | str, width: int = 1, reorder: bool = False, chunk: int = 1, "
                   "dtype: Datatype | numpy.typing.DTypeLike = ...) -> None"),
           "Collective. `global_`: points per dimension (2 values for star5 and box9, 3 for star7, star19, "
           "box27). `reorder`: let MPI_Cart_create place blocks (ranks in the pattern are the Context's).")
      .def_prop_ro("block", &CartesianGrid::block)
      .def_prop_ro("stencil", &CartesianGrid::stencil)
      .def_prop_ro("pattern", &CartesianGrid::pattern, nb::sig("def pattern(self) -> Pattern"),
                   "The ghost update's Pattern, for Halo(grid.pattern, ...).")
      .def_prop_ro("cart", &CartesianGrid::cart, nb::sig("def cart(self) -> mpi4py.MPI.Cartcomm"),
                   "The Cartesian communicator (owned by the grid; ranks in it may differ from the Context's).")
      .def("close", &CartesianGrid::close,
           "Collective (frees the Cartesian communicator). A second close() does nothing; anything else on a "
           "closed grid raises hympi.Error. Its Pattern stays usable.")
      .def_prop_ro("closed", &CartesianGrid::closed)
      .def("__enter__", [](nb::handle self) { return nb::borrow(self); }, nb::sig("def __enter__(self) -> CartesianGrid"))
      .def("__exit__", [](CartesianGrid& g, nb::handle type, nb::handle, nb::handle) {
             if (type.is_none()) g.close();
           },
           "exc_type"_a.none(), "exc"_a.none(), "traceback"_a.none(), kExitDoc);
}

}  // namespace hympy
