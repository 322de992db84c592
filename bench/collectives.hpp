// SPDX-License-Identifier: BSD-3-Clause
// Barrier and allreduce: hympi's variants against the MPI library's own, interleaved.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "app_data.hpp"
#include "method.hpp"
#include "off_cache.hpp"

namespace hympi::bench {

nlohmann::json bench_barrier(Context& ctx, const Method& method);
/// Allreduce of `sizes` bytes of doubles (sum). Fresh data: before every call of every
/// contender the input is rewritten with new values, after it the result is read (a
/// checksum), as a solver does; cached: the same input every call (best case, labelled).
/// Off-cache (fresh data only): every call's input and output at the next place of the
/// region (off_cache.hpp).
nlohmann::json bench_allreduce(Context& ctx, const Method& method, const std::vector<std::size_t>& sizes,
                               DataMode mode, const OffCache& off_cache);

/// Quaranta & Maddegedara (2021), Section 4.4 / Fig. 13: the 8-byte allreduce with the
/// tree ordered by the hardware (sockets, L3; hwloc) and in rank order. Launch it once per
/// placement (e.g. Open MPI --map-by core vs --map-by socket: compact vs scatter) to
/// compare placements.
nlohmann::json bench_affinity(Context& ctx, const Method& method);

}  // namespace hympi::bench
