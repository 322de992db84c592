// SPDX-License-Identifier: BSD-3-Clause
// hympi.Context: creation from an mpi4py communicator, topology, the collectives on numpy
// arrays and Python scalars, and the lifetimes of the objects made from it (context.hpp).
#include "context.hpp"

#include <nanobind/stl/optional.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <tuple>
#include <utility>

#include "bindings.hpp"

namespace hympy {

using namespace nb::literals;

// --- Child -------------------------------------------------------------------------------

Child::Child(Context& context) : context_(&context), context_object_(nb::find(&context)) { context.add(this); }

Child::~Child() {
  if (registered_) context_->remove(this);
}

void Child::close_handle() {
  free_handle();
  if (registered_) context_->remove(this);
  registered_ = false;
}

void Child::free_quietly(const char* what) noexcept {
  try {
    free_handle();
  } catch (const std::exception& e) {
    hympi_emit_message((std::string("hympi: freeing a ") + what + " when Python dropped it: " + e.what()).c_str());
  }
}

nb::object Child::view(void* data, std::size_t count, hympi_datatype type, bool readonly) {
  if (count == 0) return numpy_view(data, 0, type, nb::handle(), readonly);
  struct Owner {
    PyObject* child;
    int* views;
  };
  auto* owner = new Owner{nb::find(this).release().ptr(), &views_};
  ++views_;
  nb::capsule capsule(owner, [](void* p) noexcept {
    auto* o = static_cast<Owner*>(p);
    --*o->views;
    Py_DECREF(o->child);
    delete o;
  });
  return numpy_view(data, count, type, capsule, readonly);
}

// --- Context -----------------------------------------------------------------------------

bool python_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

bool mpi_finalized() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  return finalized != 0;
}

void check_not_finalized(const char* what) {
  if (mpi_finalized())
    throw Error(std::string("hympi: MPI is finalized, and this ") + what +
                " was released with it (MPI_Finalize releases hympi's objects); only close() remains");
}

nb::object mpi4py_comm(MPI_Fint handle, const char* kind) {
  return nb::module_::import_("hympi._mpi").attr("comm_from_fortran")(handle, kind);
}

Context::Context(nb::handle comm, const hympi_options* options) {
  const auto fortran = nb::cast<MPI_Fint>(nb::module_::import_("hympi._mpi").attr("fortran_handle")(comm));
  blocking([&] { return hympi_context_create_f(fortran, options, &handle_); });
  hympi_topology_info info;
  check(hympi_context_topology(handle_, &info));
  rank_ = info.world_rank;
}

Context::~Context() {
  if (handle_ && without_gil([&] { return hympi_context_free(&handle_); }) != HYMPI_SUCCESS)
    hympi_emit_message((std::string("hympi: freeing a Context when Python dropped it: ") + hympi_last_error_message()).c_str());
}

hympi_context Context::handle() const {
  if (!handle_) throw Error("hympi: this Context is closed; create a new one");
  check_not_finalized("Context");
  return handle_;
}

void Context::remove(Child* child) { children_.erase(std::remove(children_.begin(), children_.end(), child), children_.end()); }

void Context::check_no_views(int views, const std::string& what) {
  if (mpi_finalized()) return;
  int64_t local = views, total = 0;
  blocking([&] { return hympi_allreduce(handle(), &local, &total, 1, HYMPI_INT64, HYMPI_SUM); });
  if (total > 0)
    throw Error("hympi: " + what + ": " + std::to_string(total) +
                " numpy view(s) of the memory it would free (send_buffer, recv_buffer, shared_field, NodeShared.array) are "
                "still alive, all ranks together; delete them first (del v)");
}

void Context::close() {
  if (!handle_) return;
  int views = 0;
  for (Child* child : children_) views += child->live_views();
  check_no_views(views, "Context.close");
  while (!children_.empty()) children_.back()->close_handle();
  blocking([&] { return hympi_context_free(&handle_); });
}

// --- collectives -------------------------------------------------------------------------
namespace {

nb::module_ numpy() { return nb::module_::import_("numpy"); }

/// A Python float (float64) or int (int64) as 8 bytes the C API can reduce.
struct Scalar {
  hympi_datatype type;
  union {
    double f;
    int64_t i;
  };

  static bool is(nb::handle x) { return PyFloat_Check(x.ptr()) || PyLong_Check(x.ptr()); }
  explicit Scalar(nb::handle x, const char* call) {
    if (PyFloat_Check(x.ptr())) {
      type = HYMPI_FLOAT64;
      f = PyFloat_AsDouble(x.ptr());
      return;
    }
    type = HYMPI_INT64;
    int overflow = 0;
    i = PyLong_AsLongLongAndOverflow(x.ptr(), &overflow);
    if (overflow) {
      PyErr_Format(PyExc_OverflowError, "hympi: %s: %S does not fit int64; pass a float or a numpy array", call,
                   x.ptr());
      throw nb::python_error();
    }
  }
  nb::object python() const { return type == HYMPI_FLOAT64 ? nb::object(nb::float_(f)) : nb::object(nb::int_(i)); }
};

bool is_numpy_scalar(nb::handle x) { return nb::isinstance(x, numpy().attr("generic")); }

/// A numpy scalar from a 0-d result array, the array itself otherwise.
nb::object unwrap(nb::object result, bool scalar) { return scalar ? result.attr("__getitem__")(nb::tuple()) : result; }

/// The array that receives a result: `out`, or a new one like `data`; checked against `in`.
std::pair<nb::object, ArrayRef> output(nb::handle data, nb::handle out, const ArrayRef& in, const char* call) {
  nb::object result = out.is_none() ? numpy().attr("empty_like")(data) : nb::borrow(out);
  ArrayRef ref(result, std::string(call) + ": out", true);
  ref.expect_type(in.type(), "data's");
  ref.expect_count(in.count(), "as many as data");
  const auto* a = static_cast<const char*>(in.data());
  const auto* b = static_cast<const char*>(ref.data());
  const std::size_t bytes = in.count() * size_of(in.type());
  if (a != b && a < b + bytes && b < a + bytes)
    throw Error(std::string("hympi: ") + call + ": out overlaps data in part; pass out=data (in place) or a separate array");
  return {std::move(result), std::move(ref)};
}

// A rank whose own arguments fail a check here still joins the collective, passing the C
// API the mark of that argument (a type or op outside its enumeration, a null buffer), so
// that every rank fails at once naming this one; this rank then raises its own, more
// precise reason. Raising here alone would leave the other ranks waiting in the call.
enum class Refused { type, op, in, out };

template <class E>
E invalid_enum() {  // a value outside the C enumeration, as a C caller could pass one
  E value;
  const int bad = -1;
  static_assert(sizeof value == sizeof bad);
  std::memcpy(&value, &bad, sizeof value);
  return value;
}

/// Runs `prepare(stage)` (the checks; it sets `stage` to what it checks next); when it
/// throws, joins the collective `call` with the mark of `stage` and rethrows.
template <class Prepare, class Call>
auto prepared(Context& ctx, Prepare&& prepare, Call&& call) {
  Refused stage = Refused::in;
  try {
    return prepare(stage);
  } catch (...) {
    const hympi_datatype type = stage == Refused::type ? invalid_enum<hympi_datatype>() : HYMPI_FLOAT64;
    const hympi_op op = stage == Refused::op ? invalid_enum<hympi_op>() : HYMPI_SUM;
    double in = 0, out = 0;
    if (!ctx.closed() && !mpi_finalized())  // fails on every rank, this one included
      without_gil([&] {
        return call(stage == Refused::in ? nullptr : &in, stage == Refused::out ? nullptr : &out, type, op);
      });
    throw;
  }
}

/// The checks of a reduction of a Python scalar: the op, no `out`, a value that fits.
std::pair<hympi_op, Scalar> scalar_arguments(Refused& stage, nb::handle data, const OpArg& op_arg, nb::handle out,
                                             const char* call) {
  stage = Refused::op;
  const hympi_op op = to_op(op_arg);
  stage = Refused::out;
  if (!out.is_none())
    throw nb::type_error(
        ("hympi: " + std::string(call) + ": out is for arrays; a scalar's result is returned").c_str());
  stage = Refused::type;
  return {op, Scalar(data, call)};
}

nb::object allreduce(Context& ctx, nb::handle data, const OpArg& op_arg, nb::handle out) {
  auto refuse = [&](const void* in, void* res, hympi_datatype type, hympi_op op) {
    return hympi_allreduce(ctx.handle(), in, res, 1, type, op);
  };
  if (Scalar::is(data)) {
    auto scalar = [&](Refused& stage) { return scalar_arguments(stage, data, op_arg, out, "allreduce"); };
    auto [op, value] = prepared(ctx, scalar, refuse);
    Scalar result = value;
    blocking([&] { return hympi_allreduce(ctx.handle(), &value.f, &result.f, 1, value.type, op); });
    return result.python();
  }
  auto [op, in, result, ref] = prepared(ctx, [&](Refused& stage) {
    stage = Refused::op;
    const hympi_op checked = to_op(op_arg);
    stage = Refused::in;
    ArrayRef input(data, "allreduce: data", false);
    stage = Refused::out;
    auto received = output(data, out, input, "allreduce");
    return std::tuple(checked, std::move(input), std::move(received.first), std::move(received.second));
  }, refuse);
  blocking([&] { return hympi_allreduce(ctx.handle(), in.data(), ref.data(), in.count(), in.type(), op); });
  return unwrap(result, out.is_none() && is_numpy_scalar(data));
}

nb::object reduce(Context& ctx, nb::handle data, const OpArg& op_arg, int root, nb::handle out) {
  auto refuse = [&](const void* in, void* res, hympi_datatype type, hympi_op op) {
    return hympi_reduce(ctx.handle(), in, res, 1, type, op, root);
  };
  const bool is_root = ctx.rank() == root;
  if (Scalar::is(data)) {
    auto scalar = [&](Refused& stage) { return scalar_arguments(stage, data, op_arg, out, "reduce"); };
    auto [op, value] = prepared(ctx, scalar, refuse);
    Scalar result = value;
    blocking([&] { return hympi_reduce(ctx.handle(), &value.f, &result.f, 1, value.type, op, root); });
    return is_root ? result.python() : nb::none();
  }
  auto [op, in, received] = prepared(ctx, [&](Refused& stage) {
    stage = Refused::op;
    const hympi_op checked = to_op(op_arg);
    stage = Refused::in;
    ArrayRef input(data, "reduce: data", false);
    stage = Refused::out;
    std::optional<std::pair<nb::object, ArrayRef>> root_out;  // the root's result; the others pass none
    if (is_root) root_out.emplace(output(data, out, input, "reduce"));
    return std::tuple(checked, std::move(input), std::move(root_out));
  }, refuse);
  void* res = received ? received->second.data() : nullptr;
  blocking([&] { return hympi_reduce(ctx.handle(), in.data(), res, in.count(), in.type(), op, root); });
  return is_root ? unwrap(received->first, out.is_none() && is_numpy_scalar(data)) : nb::none();
}

nb::object bcast(Context& ctx, nb::handle data, int root) {
  auto refuse = [&](const void* in, void*, hympi_datatype type, hympi_op) {
    return hympi_bcast(ctx.handle(), const_cast<void*>(in), 1, type, root);
  };
  if (Scalar::is(data)) {
    Scalar value = prepared(ctx, [&](Refused& stage) {
      stage = Refused::type;
      return Scalar(data, "bcast");
    }, refuse);
    blocking([&] { return hympi_bcast(ctx.handle(), &value.f, 1, value.type, root); });
    return value.python();
  }
  const bool scalar = is_numpy_scalar(data);
  nb::object array = scalar ? numpy().attr("array")(data) : nb::borrow(data);  // numpy scalars are immutable
  ArrayRef ref = prepared(ctx, [&](Refused& stage) {
    stage = Refused::in;
    return ArrayRef(array, "bcast: data", ctx.rank() != root);
  }, refuse);
  blocking([&] { return hympi_bcast(ctx.handle(), ref.data(), ref.count(), ref.type(), root); });
  return unwrap(array, scalar);
}

hympi_comm_kind comm_kind(const std::string& kind) {
  if (kind == "world") return HYMPI_COMM_WORLD;
  if (kind == "node") return HYMPI_COMM_NODE;
  if (kind == "leaders") return HYMPI_COMM_LEADERS;
  throw Error("hympi: Context.comm: unknown kind '" + kind + "' (valid: world, node, leaders)");
}

hympi_topology_info topology(const Context& ctx) {
  hympi_topology_info info;
  check(hympi_context_topology(ctx.handle(), &info));
  return info;
}

#define HYMPY_DATA "numpy.ndarray | float | int"

}  // namespace

void bind_context(nb::module_& m) {
  nb::class_<hympi_topology_info>(m, "Topology",
                                  "Where this rank is: its node (real or emulated with HYMPI_NODE_SIZE) and its "
                                  "place on it. Nodes are numbered by their leader's rank; node_rank 0 leads.")
      .def_ro("world_rank", &hympi_topology_info::world_rank, "Rank in the Context's communicator.")
      .def_ro("world_size", &hympi_topology_info::world_size)
      .def_ro("node_index", &hympi_topology_info::node_index)
      .def_ro("node_count", &hympi_topology_info::node_count)
      .def_ro("node_rank", &hympi_topology_info::node_rank)
      .def_ro("node_size", &hympi_topology_info::node_size)
      .def_ro("domain_size", &hympi_topology_info::domain_size, "Ranks on this physical shared-memory domain.")
      .def_prop_ro("emulated", [](const hympi_topology_info& t) { return t.emulated != 0; },
                   "Nodes emulated with HYMPI_NODE_SIZE.")
      .def_prop_ro("oversubscribed", [](const hympi_topology_info& t) { return t.oversubscribed != 0; },
                   "More ranks than CPUs share this domain.")
      .def("__repr__", [](const hympi_topology_info& t) {
        return "Topology(rank " + std::to_string(t.world_rank) + " of " + std::to_string(t.world_size) + ", node " +
               std::to_string(t.node_index) + " of " + std::to_string(t.node_count) + ", node rank " +
               std::to_string(t.node_rank) + " of " + std::to_string(t.node_size) + ")";
      });

  nb::class_<Context>(m, "Context",
                      "hympi's entry point over one communicator: topology and collectives (intranode over shared "
                      "memory, internode between node leaders). Creation, close() and every collective are "
                      "collective: all ranks call them in the same order with the same arguments (checked: a "
                      "mismatch raises hympi.Error on every rank). Use it in a with-block or call close().")
      .def(
          "__init__",
          [](Context* self, nb::handle comm, std::optional<hympi_options> options) {
            new (self) Context(comm, options ? &*options : nullptr);
          },
          "comm"_a = nb::none(), "options"_a = nb::none(),
          nb::sig("def __init__(self, comm: mpi4py.MPI.Intracomm | None = None, options: Options | None = None) -> None"),
          "Collective over `comm` (an mpi4py communicator; None: MPI.COMM_WORLD). `options`: None reads "
          "the HYMPI_* environment variables (Options.from_env()).")
      .def_prop_ro("topology", &topology)
      .def_prop_ro("rank", [](const Context& c) { return topology(c).world_rank; }, "This rank in the communicator.")
      .def_prop_ro("size", [](const Context& c) { return topology(c).world_size; }, "Ranks in the communicator.")
      .def_prop_ro(
          "options",
          [](const Context& c) {
            hympi_options options;
            check(hympi_context_options(c.handle(), &options));
            return options;
          },
          "The options it runs with.")
      .def(
          "comm",
          [](const Context& c, const std::string& kind) {
            MPI_Fint handle;
            check(hympi_context_comm_f(c.handle(), comm_kind(kind), &handle));
            return mpi4py_comm(handle, "intra");
          },
          "kind"_a = "world", nb::sig("def comm(self, kind: str = 'world') -> mpi4py.MPI.Intracomm"),
          "The Context's communicators as mpi4py objects (owned by the Context: do not free them): 'world' "
          "(a duplicate of the one given), 'node' (my node's ranks), 'leaders' (one rank per node; "
          "MPI.COMM_NULL on ranks that lead no node).")
      .def("barrier", [](Context& c) { blocking([&] { return hympi_barrier(c.handle()); }); })
      .def("allreduce", &allreduce, "data"_a, "op"_a = HYMPI_SUM, "out"_a = nb::none(),
           nb::sig("def allreduce(self, data: " HYMPY_DATA ", op: Op | str = ..., "
                   "out: numpy.ndarray | None = None) -> " HYMPY_DATA),
           "Reduces `data` over all ranks and returns the result on every rank: a float or int for a Python "
           "float or int, else an array like `data` (numpy float64, float32, int32 or int64, C-contiguous), "
           "or `out` when given (out=data: in place). `op`: Op or 'sum', 'prod', 'min', 'max'. An argument "
           "only this rank got wrong raises its reason here and hympi.Error naming this rank on the others.")
      .def("reduce", &reduce, "data"_a, "op"_a = HYMPI_SUM, "root"_a = 0, "out"_a = nb::none(),
           nb::sig("def reduce(self, data: " HYMPY_DATA ", op: Op | str = ..., root: int = 0, "
                   "out: numpy.ndarray | None = None) -> " HYMPY_DATA " | None"),
           "As allreduce, but only `root` gets the result; None on the other ranks.")
      .def("bcast", &bcast, "data"_a, "root"_a = 0,
           nb::sig("def bcast(self, data: " HYMPY_DATA ", root: int = 0) -> " HYMPY_DATA),
           "`root`'s data on every rank: an array is overwritten in place (writable on ranks other than root) "
           "and returned; a scalar's value is returned (every rank passes one of the same type).")
      .def("close", &Context::close,
           "Collective: closes the Halos, grids and Patterns made from it (newest first), then the "
           "Context. Numpy views of their memory must be gone (hympi.Error on every rank otherwise). A "
           "second close() does nothing; anything else on a closed Context raises hympi.Error.")
      .def_prop_ro("closed", &Context::closed)
      .def("__enter__", [](nb::handle self) { return nb::borrow(self); }, nb::sig("def __enter__(self) -> Context"))
      .def("__exit__", [](Context& c, nb::handle type, nb::handle, nb::handle) {
             if (type.is_none()) c.close();
           },
           "exc_type"_a.none(), "exc"_a.none(), "traceback"_a.none(), kExitDoc)
      .def("__repr__", [](const Context& c) {
        if (c.closed()) return std::string("Context(closed)");
        if (mpi_finalized()) return std::string("Context(released by MPI_Finalize)");
        const hympi_topology_info t = topology(c);
        return "Context(rank " + std::to_string(t.world_rank) + " of " + std::to_string(t.world_size) + " on " +
               std::to_string(t.node_count) + " node(s))";
      });
}

}  // namespace hympy
