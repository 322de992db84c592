// SPDX-License-Identifier: BSD-3-Clause
// What hympi's own components (the ghost update, the PMPI library) need from a Context
// beyond its public API: the wait settings every protocol of the Context uses, the node's
// shared memory its objects take their regions from, the tag ranges their messages travel
// on, and whether its release is local.
#pragma once

#include "core/wait.hpp"
#include "hympi/context.hpp"
#include "mpi/node/shared_arena.hpp"
#include "mpi/support/tag_ranges.hpp"

namespace hympi::detail {

struct ContextAccess {
  static core::WaitConfig wait(const Context& context);
  static mpi::SharedArena& arena(Context& context);
  static mpi::TagRanges& tag_ranges(Context& context);
  /// Whether destroying it makes no MPI call: another Context shares its engine (whose
  /// release is collective: it stays with the other), or MPI_Finalize released it already.
  static bool release_is_local(const Context& context);
  /// Its engine's key: the same on every rank of its group, different for each engine.
  static int64_t engine_key(const Context& context);
};

}  // namespace hympi::detail
