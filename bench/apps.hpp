// SPDX-License-Identifier: BSD-3-Clause
// The applications per strategy in one launch: for each app, rounds of whole solves with
// the strategies interleaved (shm, flat_mpi, shm_direct, aggregated, shm, ...), each with a
// barrier before every ghost update and reduction timed apart (their times are then the
// exchanges alone); per iteration, the maximum over ranks of compute, ghost update and
// reductions, and the communication share. Medians with the lowest and highest round.
#pragma once

#include <nlohmann/json.hpp>

#include "hympi/context.hpp"

namespace hympi::bench {

/// `quick`: small problems, one round (a smoke run). The record's "results" has the layout
/// of bench/scripts/apps_split.py's JSON: {app: {strategy: [one entry per round]}}.
nlohmann::json bench_apps(Context& ctx, int rounds, bool quick);

}  // namespace hympi::bench
