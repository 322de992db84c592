// SPDX-License-Identifier: BSD-3-Clause
// What the numbers were measured on: CPU, cores, MPI library, ranks, nodes, and the CPUs
// each rank was actually bound to.
#pragma once

#include <nlohmann/json.hpp>

#include "hympi/context.hpp"

namespace hympi::bench {

/// Collective; the full record on rank 0.
nlohmann::json describe_machine(const Context& ctx);

}  // namespace hympi::bench
