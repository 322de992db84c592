// SPDX-License-Identifier: BSD-3-Clause
// Set-up cost, measured like the updates: creating and freeing a hympi object against the
// MPI library's nearest operation on the same communicator, interleaved in one launch with
// the method of method.hpp (a call creates one object and frees it; both are collective).
//   context   a Context          vs MPI_Comm_dup + MPI_Comm_split_type(SHARED) + frees
//   halo      a Halo per strategy on a ring of 8 doubles per neighbour (the Pattern made
//             once), and the Pattern itself, vs MPI_Dist_graph_create_adjacent + free
#pragma once

#include <nlohmann/json.hpp>

#include "method.hpp"

namespace hympi::bench {

/// Samples: at most 20 outer x 5 inner calls (set-ups take milliseconds, not microseconds).
nlohmann::json bench_setup(Context& ctx, const Method& method);

}  // namespace hympi::bench
