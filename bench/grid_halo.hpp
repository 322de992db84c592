// SPDX-License-Identifier: BSD-3-Clause
// The ghost update of a structured grid (MASHM's 96^3 19-point pattern by default), or of
// any pattern (the cube mesh: mesh_halo.cpp), with
// flat, aggregated and overlapped-aggregated internode messages, side by side, on
// application data with the floors (ghost_bench.hpp), with the pattern's message
// statistics and the cost model's link measurements in the record.
#pragma once

#include <nlohmann/json.hpp>

#include "app_data.hpp"
#include "ghost_bench.hpp"
#include "method.hpp"
#include "stats.hpp"

namespace hympi::bench {

nlohmann::json bench_halo_grid(Context& ctx, const Method& method, const GridSpec& grid, const DataOptions& data);

/// The contenders of the grid's table: hympi's strategies against MPI's neighbourhood exchange.
extern const Lineup kGridLineup;

/// The same comparison on any pattern (of doubles) between `lineup`'s contenders; `label`
/// heads the table.
nlohmann::json bench_halo_pattern(Context& ctx, const Method& method, const Pattern& pattern, const std::string& label,
                                  const DataOptions& data, const Lineup& lineup = kGridLineup);

}  // namespace hympi::bench
