// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/coll/core_config.hpp"

#include <mpi.h>

#include "mpi/support/requests.hpp"

namespace hympi::mpi {

// The public enumerations and the core's own list the same values in the same order.
static_assert(int(core::WaitPolicy::adaptive) == int(WaitPolicy::adaptive) &&
              int(core::WaitPolicy::spin) == int(WaitPolicy::spin) &&
              int(core::WaitPolicy::yield) == int(WaitPolicy::yield) &&
              int(core::WaitPolicy::sleep) == int(WaitPolicy::sleep));
static_assert(int(core::TreeShape::kary) == int(TreeShape::kary) &&
              int(core::TreeShape::binomial) == int(TreeShape::binomial));

core::WaitConfig wait_config(const Options& options, const Topology& topology) {
  core::WaitConfig config{core::WaitPolicy(options.wait), topology.oversubscribed(), options.timeout_s};
  config.mpi_call = true;
  // MPI_COMM_WORLD exists in the world model (MPI_Init) only; a program of sessions only
  // gets no progress from hympi's waits.
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) config.progress = &drive_progress;
  return config;
}

core::TreeSpec tree_spec(const Options& options) {
  return core::TreeSpec{core::TreeShape(options.tree), options.tree_arity};
}

}  // namespace hympi::mpi
