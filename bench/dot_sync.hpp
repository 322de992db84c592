// SPDX-License-Identifier: BSD-3-Clause
// Two experiments of Quaranta & Maddegedara (2021) beyond raw latency (their sections
// and figures):
//  - dot (4.5, Fig. 14): FP32 dot product FLOP/s per core versus vector length, with the
//    global sum by hympi, by MPI_Allreduce, and without communication (the ceiling);
//  - sync (4.1, Fig. 10): how well a loop of 100 barriers synchronizes the ranks: the
//    latency of the first MPI_Barrier after 100 MPI_Barrier versus after 100 hympi
//    barriers, and the spread of the ranks' exit times (same host: one clock).
#pragma once

#include <nlohmann/json.hpp>

#include "method.hpp"

namespace hympi::bench {

nlohmann::json bench_dot(Context& ctx, const Method& method);
nlohmann::json bench_sync(Context& ctx, int repetitions);

}  // namespace hympi::bench
