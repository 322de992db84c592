// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/coll/core_config.hpp"

namespace hympi::mpi {

// The public enumerations and the core's own list the same values in the same order.
static_assert(int(core::WaitPolicy::adaptive) == int(WaitPolicy::adaptive) &&
              int(core::WaitPolicy::spin) == int(WaitPolicy::spin) &&
              int(core::WaitPolicy::yield) == int(WaitPolicy::yield) &&
              int(core::WaitPolicy::sleep) == int(WaitPolicy::sleep));
static_assert(int(core::TreeShape::kary) == int(TreeShape::kary) &&
              int(core::TreeShape::binomial) == int(TreeShape::binomial));

core::WaitConfig wait_config(const Options& options, const Topology& topology) {
  return core::WaitConfig{core::WaitPolicy(options.wait), topology.oversubscribed(), options.timeout_s};
}

core::TreeSpec tree_spec(const Options& options) {
  return core::TreeSpec{core::TreeShape(options.tree), options.tree_arity};
}

}  // namespace hympi::mpi
