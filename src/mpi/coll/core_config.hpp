// SPDX-License-Identifier: BSD-3-Clause
// The core protocols' settings from a Context's Options: src/core has its own small
// config structs (WaitConfig, TreeSpec) and knows nothing of hympi::Options.
#pragma once

#include "core/coll/tree.hpp"
#include "core/wait.hpp"
#include "hympi/options.hpp"
#include "hympi/topology.hpp"

namespace hympi::mpi {

/// The wait settings of every protocol of a Context.
core::WaitConfig wait_config(const Options& options, const Topology& topology);

/// The shape of the intranode tree.
core::TreeSpec tree_spec(const Options& options);

}  // namespace hympi::mpi
