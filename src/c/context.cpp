// SPDX-License-Identifier: BSD-3-Clause
// The C API of hympi::Context: creation, topology, communicators and collectives.
#include "c/c_api.hpp"

using hympi::c::guard;
using hympi::c::require;
using hympi::c::require_array;

namespace {

/// The context's object, or an argument error when the handle is NULL.
hympi::Context& context_of(hympi_context context) { return require(context, "context").context; }

/// Collective: a new context over `comm` (options NULL: from the environment).
/// Its errors: a null communicator on this rank alone; the options (and the HYMPI_*
/// variables they come from) on every rank of `comm` (check_collectively).
void create(const char* function, MPI_Comm comm, const hympi_options* options, hympi_context* context) {
  if (context) *context = nullptr;
  if (comm == MPI_COMM_NULL) throw hympi::c::ArgumentError("argument 'comm' is MPI_COMM_NULL");
  hympi::Options o;
  hympi::c::check_collectively(function, comm, "Context", [&] {
    require(context, "context");
    o = options ? hympi::c::to_options(*options) : hympi::Options::from_env();
  });
  *context = new hympi_context_s{hympi::Context(comm, o)};
}

/// One of the context's communicators.
MPI_Comm comm_of(hympi_context context, const hympi_comm_kind& kind) {
  const hympi::Topology& t = context_of(context).topology();
  switch (hympi::c::checked_range(hympi::c::raw(kind), HYMPI_COMM_WORLD, HYMPI_COMM_LEADERS, "kind",
                                  "HYMPI_COMM_WORLD .. HYMPI_COMM_LEADERS")) {
    case HYMPI_COMM_WORLD: return t.world();
    case HYMPI_COMM_NODE: return t.node();
    default: return t.leaders();
  }
}

}  // namespace

extern "C" {

int hympi_context_create(MPI_Comm comm, const hympi_options* options, hympi_context* context) {
  const char* function = __func__;
  return guard(function, [&] { create(function, comm, options, context); });
}

int hympi_context_create_f(MPI_Fint comm, const hympi_options* options, hympi_context* context) {
  const char* function = __func__;
  return guard(function, [&] { create(function, MPI_Comm_f2c(comm), options, context); });
}

int hympi_context_free(hympi_context* context) {
  return guard(__func__, [&] { hympi::c::free_handle(context, "context"); });
}

int hympi_context_options(hympi_context context, hympi_options* options) {
  return guard(__func__, [&] {
    const hympi::Options& o = context_of(context).options();
    require(options, "options") = hympi::c::from_options(o);
  });
}

int hympi_context_topology(hympi_context context, hympi_topology_info* info) {
  return guard(__func__, [&] {
    const hympi::Topology& t = context_of(context).topology();
    require(info, "info") = {t.world_rank(), t.world_size(), t.node_index(), t.node_count(), t.node_rank(),
                             t.node_size(), t.domain_size(), t.emulated(), t.oversubscribed()};
  });
}

int hympi_context_comm(hympi_context context, hympi_comm_kind kind, MPI_Comm* comm) {
  return guard(__func__, [&] {
    MPI_Comm c = comm_of(context, kind);
    require(comm, "comm") = c;
  });
}

int hympi_context_comm_f(hympi_context context, hympi_comm_kind kind, MPI_Fint* comm) {
  return guard(__func__, [&] {
    MPI_Comm c = comm_of(context, kind);
    require(comm, "comm") = MPI_Comm_c2f(c);
  });
}

int hympi_barrier(hympi_context context) {
  return guard(__func__, [&] { context_of(context).barrier(); });
}

int hympi_allreduce(hympi_context context, const void* in, void* out, size_t count, hympi_datatype type,
                    hympi_op op) {
  return guard(__func__, [&] {
    context_of(context).allreduce(in, out, count, hympi::c::as_datatype(type), hympi::c::as_op(op));
  });
}

int hympi_reduce(hympi_context context, const void* in, void* out, size_t count, hympi_datatype type, hympi_op op,
                 int root) {
  return guard(__func__, [&] {
    context_of(context).reduce(in, out, count, hympi::c::as_datatype(type), hympi::c::as_op(op), root);
  });
}

int hympi_bcast(hympi_context context, void* data, size_t count, hympi_datatype type, int root) {
  return guard(__func__, [&] {
    context_of(context).bcast(data, count, hympi::c::as_datatype(type), root);
  });
}

}  // extern "C"
