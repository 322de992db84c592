// SPDX-License-Identifier: BSD-3-Clause
// The cost model's inputs (MASHM's "OSU data"), measured in the same launch: MPI ping-pong
// latency and bandwidth between two nodes and inside a node, and memcpy bandwidth.
#pragma once

#include <nlohmann/json.hpp>

#include "hympi/context.hpp"

namespace hympi::bench {

/// Collective. {"inter": {latency_us, bandwidth_Bps} (absent on one node), "intra": {...}
/// (absent with one rank per node), "memcpy_Bps"}; valid on rank 0.
nlohmann::json measure_links(Context& ctx);

}  // namespace hympi::bench
