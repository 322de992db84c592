// SPDX-License-Identifier: BSD-3-Clause
// The C API of hympi::NodeShared: one read-only array per node, created with an element
// type, read through its address, and refreshed by begin_write / end_write around the C
// caller's own writes (the untyped core, hympi::detail::NodeSharedMemory, whose
// synchronizations the C++ refresh runs around its writer).
//
// Invariant: `writing` is true exactly between a begin_write that returned HYMPI_SUCCESS
// and the next end_write. A rank whose own begin_write arguments are wrong still takes
// part in the refresh (begin, then end with its reason), so the other ranks' end_write
// fails with that reason instead of waiting.
#include <string>
#include <typeinfo>

#include "c/c_api.hpp"

using hympi::c::guard;
using hympi::c::require;

namespace {

hympi_node_shared_s& table_of(hympi_node_shared table) { return require(table, "table"); }

constexpr const char* kWriters[] = {HYMPI_WRITERS(HYMPI_C_CONSTANT)};

hympi::Writers to_writers(const hympi_writers& writers) {
  return hympi::c::checked_enum<hympi::Writers>(hympi::c::raw(writers), kWriters, "writers");
}

}  // namespace

extern "C" {

int hympi_node_shared_create(hympi_context context, size_t count, hympi_datatype type, hympi_node_shared* table) {
  const char* function = __func__;
  return guard(function, [&] {
    if (table) *table = nullptr;
    const hympi::Context& ctx = require(context, "context").context;
    hympi::Datatype t{};
    hympi::c::check_collectively(function, ctx.topology().world(), "NodeShared", [&] {
      require(table, "table");
      t = hympi::c::to_datatype(type);
    });
    // The C++ NodeShared<T>'s arguments, so that C and C++ tables of one type agree.
    hympi::c::visit_type(t, [&]<class T>(T*) {
      *table = new hympi_node_shared_s{hympi::detail::NodeSharedMemory(ctx, count, sizeof(T), alignof(T),
                                                                       typeid(T).name()),
                                       t};
    });
  });
}

int hympi_node_shared_free(hympi_node_shared* table) {
  return guard(__func__, [&] { hympi::c::free_handle(table, "table"); });
}

int hympi_node_shared_data(hympi_node_shared table, const void** data, size_t* count, hympi_datatype* type) {
  return guard(__func__, [&] {
    const hympi_node_shared_s& t = table_of(table);
    if (data) *data = t.memory.data();
    if (count) *count = t.memory.count();
    if (type) *type = hympi_datatype(t.type);
  });
}

int hympi_node_shared_begin_write(hympi_node_shared table, hympi_writers writers, void** part, size_t* first,
                                  size_t* count) {
  const char* function = __func__;
  return guard(function, [&] {
    hympi_node_shared_s& t = table_of(table);
    if (t.writing)
      throw hympi::Error("hympi: NodeShared: begin_write out of order: a write is in progress (end it with "
                         "hympi_node_shared_end_write)");
    hympi::Writers w{};
    try {
      w = to_writers(writers);
      require(part, "part") = nullptr;
      require(first, "first") = 0;
      require(count, "count") = 0;
    } catch (const hympi::c::ArgumentError& e) {
      // Join the refresh and fail it: every other rank's end_write returns this reason
      // (or, when they named slices, their begin_write the mismatch); this rank its own.
      try {
        t.memory.begin_write(hympi::Writers::leader);
        t.memory.end_write(std::string(function) + ": " + e.what());
      } catch (const hympi::Error&) {
      }
      throw;
    }
    t.memory.begin_write(w);
    t.writing = true;
    const auto [at, n] = t.memory.written_by_me(w);
    *first = at;
    *count = n;
    if (n > 0) *part = t.memory.data() + at * hympi::size_of(t.type);
  });
}

int hympi_node_shared_end_write(hympi_node_shared table, const char* error) {
  return guard(__func__, [&] {
    hympi_node_shared_s& t = table_of(table);
    if (!t.writing)
      throw hympi::Error("hympi: NodeShared: end_write out of order: no write is in progress (begin it with "
                         "hympi_node_shared_begin_write)");
    t.writing = false;
    t.memory.end_write(error && *error ? std::string("hympi: NodeShared: a writer failed: ") + error : std::string());
  });
}

}  // extern "C"
