// SPDX-License-Identifier: BSD-3-Clause
// The C API of hympi/mapping.hpp (include/hympi_mapping.h): map_ranks on a live pattern or
// on given traffic, and the reordered communicator. Compiled into hympi_mapping, not
// hympi, so that only programs that map ranks link METIS.
//
// The collective calls check this rank's arguments with check_collectively, so a NULL
// array or a bad count on one rank fails the call on every rank; map_ranks adds an
// agreement on `fields` (the C++ call computes on rank 0 from every rank's traffic).
#include <algorithm>
#include <span>
#include <vector>

#include "c/c_api.hpp"
#include "hympi/mapping.hpp"
#include "hympi_mapping.h"
#include "mpi/support/setup_agreement.hpp"

using hympi::c::ArgumentError;
using hympi::c::guard;
using hympi::c::require;
using hympi::c::require_array;

namespace {

/// Collective over `comm`: the reordered communicator; `out` is the caller's result pointer
/// (only checked for NULL here).
MPI_Comm reorder(const char* function, MPI_Comm comm, int count, const int* new_rank, const void* out) {
  if (comm == MPI_COMM_NULL) throw ArgumentError("argument 'comm' is MPI_COMM_NULL");
  std::size_t n = 0;
  hympi::c::check_collectively(function, comm, "reordered_comm", [&] {
    if (!out) throw ArgumentError("argument 'reordered' is NULL");
    n = std::size_t(hympi::c::checked_range(count, 0, INT32_MAX, "count", "the communicator's size"));
    require_array(new_rank, n, "new_rank");
  });
  return hympi::reordered_comm(comm, std::span(new_rank, n));
}

}  // namespace

extern "C" {

int hympi_map_ranks(hympi_pattern pattern, int fields, int count, int* new_rank) {
  const char* function = __func__;
  return guard(function, [&] {
    const hympi::Pattern& p = require(pattern, "pattern").pattern;
    const hympi::Topology& topology = p.context().topology();
    const MPI_Comm world = topology.world();
    hympi::c::check_collectively(function, world, "map_ranks", [&] {
      const int size = topology.world_size();
      hympi::c::checked_range(count, size, size, "count", "the context's world_size");
      require(new_rank, "new_rank");
      hympi::c::checked_range(fields, 1, INT32_MAX, "fields", "vectors per update");
    });
    hympi::mpi::agree_on_setup(world, "map_ranks", {{"fields", fields}});
    const std::vector<int> result = hympi::map_ranks(p, fields);
    std::copy(result.begin(), result.end(), new_rank);
  });
}

int hympi_map_ranks_traffic(int ranks, const int* node_of, const int* domain_of, size_t messages,
                            const hympi_rank_message* traffic, int* new_rank) {
  return guard(__func__, [&] {
    const auto n = std::size_t(hympi::c::checked_range(ranks, 0, INT32_MAX, "ranks", "processes, >= 0"));
    require_array(node_of, n, "node_of");
    require_array(traffic, messages, "traffic");
    require_array(new_rank, n, "new_rank");
    hympi::ProcessPlacement placement{std::vector<int>(node_of, node_of + n), {}};
    if (domain_of) placement.domain_of.assign(domain_of, domain_of + n);
    std::vector<hympi::RankMessage> copy;
    copy.reserve(messages);
    for (std::size_t m = 0; m < messages; ++m) copy.push_back({traffic[m].from, traffic[m].to, traffic[m].bytes});
    const std::vector<int> result = hympi::map_ranks(copy, placement);
    std::copy(result.begin(), result.end(), new_rank);
  });
}

int hympi_reordered_comm(MPI_Comm comm, int count, const int* new_rank, MPI_Comm* reordered) {
  const char* function = __func__;
  return guard(function, [&] {
    if (reordered) *reordered = MPI_COMM_NULL;
    const MPI_Comm result = reorder(function, comm, count, new_rank, reordered);
    *reordered = result;
  });
}

int hympi_reordered_comm_f(MPI_Fint comm, int count, const int* new_rank, MPI_Fint* reordered) {
  const char* function = __func__;
  return guard(function, [&] {
    if (reordered) *reordered = MPI_Comm_c2f(MPI_COMM_NULL);
    const MPI_Comm result = reorder(function, MPI_Comm_f2c(comm), count, new_rank, reordered);
    *reordered = MPI_Comm_c2f(result);
  });
}

}  // extern "C"
