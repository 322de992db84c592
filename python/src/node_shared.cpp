// SPDX-License-Identifier: BSD-3-Clause
// hympi.NodeShared: one read-only array per node (hympi_node_shared_*), seen as a
// read-only numpy view, and its refreshes: refresh(write, writers) calls write(part,
// first) on the writers, `with table.write(writers) as (part, first):` lets the block
// write; both between the C API's begin_write and end_write.
//
// Invariants: a Python exception in a writer (the function or the with-block) on any rank
// becomes end_write's error, so every rank raises the same hympi.Error (naming the
// exception) instead of waiting; the part a writer got is made read-only when its write
// ends. Every numpy view holds a reference to the table and is counted (Child::view):
// close() refuses, on every rank, while any rank holds one.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include <cstring>
#include <string>
#include <utility>

#include "bindings.hpp"
#include "context.hpp"

namespace hympy {

using namespace nb::literals;

namespace {

using WritersArg = std::variant<hympi_writers, std::string>;

/// The C value of `writers`; an unknown name gives a value outside the enumeration (the C
/// API then fails the refresh on every rank) and sets `unknown`.
hympi_writers to_writers(const WritersArg& writers, bool& unknown) {
  unknown = false;
  if (const auto* value = std::get_if<hympi_writers>(&writers)) return *value;
  const std::string& name = std::get<std::string>(writers);
  for (const Member& member : {HYMPI_WRITERS(HYMPY_MEMBER)})
    if (name == member.name) return static_cast<hympi_writers>(member.value);
  unknown = true;
  hympi_writers none;
  const int bad = -1;
  static_assert(sizeof none == sizeof bad);
  std::memcpy(&none, &bad, sizeof none);
  return none;
}

/// "ValueError: message" of the exception being handled, for the other ranks to see.
std::string describe(nb::handle type, nb::handle value) {
  const std::string name = nb::cast<std::string>(type.attr("__name__"));
  const std::string text = nb::str(value).c_str();
  return text.empty() ? name : name + ": " + text;
}

class NodeShared : public Child {
 public:
  NodeShared(Context& ctx, std::size_t count, nb::handle dtype) : Child(ctx), type_(to_datatype(dtype)) {
    blocking([&] { return hympi_node_shared_create(ctx.handle(), count, type_, &handle_); });
    check(hympi_node_shared_data(handle_, &data_, &count_, nullptr));
  }
  ~NodeShared() override { free_quietly("NodeShared"); }

  hympi_node_shared handle() const {
    if (!handle_) throw Error("hympi: this NodeShared is closed (close() or its Context's close()); create a new one");
    check_not_finalized("NodeShared");
    return handle_;
  }
  bool closed() const { return handle_ == nullptr; }
  std::size_t size() const { return count_; }
  hympi_datatype type() const { return type_; }

  /// Collective.
  void close() {
    if (!handle_) return;
    context().check_no_views(live_views(), "NodeShared.close");
    close_handle();
  }

  nb::object array() {
    handle();
    return view(const_cast<void*>(data_), count_, type_, true);
  }

  /// Collective: the part this rank writes (a writable view; empty on a rank that writes
  /// nothing) and its first element's index.
  std::pair<nb::object, std::size_t> begin_write(const WritersArg& writers) {
    const hympi_node_shared h = handle();
    bool unknown = false;
    const hympi_writers w = to_writers(writers, unknown);
    void* part = nullptr;
    std::size_t first = 0, count = 0;
    const int code = without_gil([&] { return hympi_node_shared_begin_write(h, w, &part, &first, &count); });
    if (code != HYMPI_SUCCESS && unknown)
      throw Error("hympi: NodeShared: unknown writers '" + std::get<std::string>(writers) + "' (valid: leader, slices)");
    check(code);
    return {view(part, count, type_, false), first};
  }

  /// Collective: ends the write begun with `part`; `error` (may be NULL) is this rank's.
  void end_write(nb::handle part, const std::string* error) {
    part.attr("flags").attr("writeable") = false;
    blocking([&] { return hympi_node_shared_end_write(handle(), error ? error->c_str() : nullptr); });
  }

  void refresh(nb::handle write, const WritersArg& writers) {
    auto [part, first] = begin_write(writers);
    std::string error;
    bool failed = false;
    try {
      write(part, first);
    } catch (nb::python_error& e) {
      failed = true;
      error = describe(e.type(), e.value());
    }
    end_write(part, failed ? &error : nullptr);
  }

 private:
  void free_handle() override {
    blocking([&] { return hympi_node_shared_free(&handle_); });
  }

  hympi_datatype type_;
  hympi_node_shared handle_ = nullptr;
  const void* data_ = nullptr;
  std::size_t count_ = 0;
};

/// What `with table.write(writers) as (part, first):` enters and exits.
class Writing {
 public:
  Writing(NodeShared& table, WritersArg writers) : table_(table), owner_(nb::find(&table)), writers_(std::move(writers)) {}

  nb::tuple enter() {
    if (part_.is_valid()) throw Error("hympi: NodeShared.write: this write has begun already");
    auto [part, first] = table_.begin_write(writers_);
    part_ = part;
    return nb::make_tuple(part, first);
  }

  bool exit(nb::handle type, nb::handle value) {
    nb::object part = std::move(part_);
    if (type.is_none()) {
      table_.end_write(part, nullptr);
    } else {
      const std::string error = describe(type, value);
      table_.end_write(part, &error);
    }
    return false;
  }

 private:
  NodeShared& table_;
  nb::object owner_;  // keeps the table alive
  WritersArg writers_;
  nb::object part_;
};

}  // namespace

void bind_node_shared(nb::module_& m) {
  bind_enum<hympi_writers>(m, "Writers",
                           "Who writes in a NodeShared refresh: the node's leader all of it, or each rank of the node "
                           "a slice (also by name: 'leader', 'slices').",
                           {HYMPI_WRITERS(HYMPY_MEMBER)});

  nb::class_<Writing>(m, "NodeSharedWrite", "A refresh in progress: NodeShared.write(...)'s context manager.")
      .def("__enter__", &Writing::enter,
           nb::sig("def __enter__(self) -> tuple[numpy.ndarray, int]"))
      .def("__exit__", [](Writing& w, nb::handle type, nb::handle value, nb::handle) { return w.exit(type, value); },
           "exc_type"_a.none(), "exc"_a.none(), "traceback"_a.none(),
           "Ends the refresh on every rank; an exception that leaves the block becomes hympi.Error on every rank.");

  nb::class_<NodeShared>(m, "NodeShared",
                         "One read-only array per node in shared memory (a table, coordinates, material data): the "
                         "ranks of a node keep one copy instead of one each. Collective to create, refresh and close.")
      .def(
          "__init__",
          [](NodeShared* self, Context& ctx, std::size_t count, nb::handle dtype, nb::handle write,
             const WritersArg& writers) {
            new (self) NodeShared(ctx, count, dtype);
            if (!write.is_none()) self->refresh(write, writers);
          },
          "context"_a, "count"_a, "dtype"_a = HYMPI_FLOAT64, "write"_a = nb::none(), "writers"_a = HYMPI_WRITERS_LEADER,
          nb::sig("def __init__(self, context: Context, count: int, dtype: Datatype | numpy.typing.DTypeLike = ..., "
                  "write: collections.abc.Callable[[numpy.ndarray, int], object] | None = None, "
                  "writers: Writers | str = ...) -> None"),
          "Collective: `count` zeroed elements of `dtype` (float64, float32, int32 or int64) per node, the same "
          "count and dtype on every rank; with `write`, then refresh(write, writers).")
      .def_prop_ro("array", &NodeShared::array, nb::sig("def array(self) -> numpy.ndarray"),
                   "The node's array as a read-only numpy view (read it outside a refresh; it keeps the table open).")
      .def_prop_ro("dtype", &NodeShared::type)
      .def("__len__", &NodeShared::size)
      .def("refresh", &NodeShared::refresh, "write"_a, "writers"_a = HYMPI_WRITERS_LEADER,
           nb::sig("def refresh(self, write: collections.abc.Callable[[numpy.ndarray, int], object], "
                   "writers: Writers | str = ...) -> None"),
           "Collective: write(part, first) fills this rank's part, a writable view of elements first .. "
           "first+len(part)-1 ('leader': the node's leader all of it, the others nothing; 'slices': each rank a "
           "slice); afterwards every rank of the node reads the new values. An exception in `write` on any rank "
           "raises hympi.Error on every rank.")
      .def(
          "write", [](NodeShared& t, WritersArg writers) { return new Writing(t, std::move(writers)); },
          "writers"_a = HYMPI_WRITERS_LEADER, nb::sig("def write(self, writers: Writers | str = ...) -> NodeSharedWrite"),
          "Collective, as refresh: `with table.write('slices') as (part, first): part[:] = ...`. An exception "
          "leaving the block raises hympi.Error on every rank (chained to it on the rank where it happened).")
      .def("close", &NodeShared::close,
           "Collective: frees the shared memory. Views of it must be gone (hympi.Error on every rank otherwise). "
           "A second close() does nothing; anything else on a closed table raises hympi.Error.")
      .def_prop_ro("closed", &NodeShared::closed)
      .def("__enter__", [](nb::handle self) { return nb::borrow(self); }, nb::sig("def __enter__(self) -> NodeShared"))
      .def("__exit__", [](NodeShared& t, nb::handle type, nb::handle, nb::handle) {
             if (type.is_none()) t.close();
           },
           "exc_type"_a.none(), "exc"_a.none(), "traceback"_a.none(), kExitDoc);
}

}  // namespace hympy
