// SPDX-License-Identifier: BSD-3-Clause
// One ghost-update comparison on a pattern, the core of `halo`, `halo-grid` and
// `halo-mesh`: hympi's strategies, the MPI-based peers, PETSc's PetscSF (when built with
// it), the floors (floors.hpp) and flat_mpi (the reference, last), all on the same
// application data (app_data.hpp), checked in the warm-up and measured interleaved. It
// prints the table, the ratios of hympi's strategies to every peer and floor, and each
// contender's communication part (its median minus write_read's) against flat_mpi's and
// the floors'. Off-cache (data.off_cache) every contender's vector rotates through the
// region (off_cache.hpp); shm_direct, whose vector is its Halo's shared field, and the
// one_copy floor, whose vectors are its own shared slots, cannot rotate and are left out.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app_data.hpp"
#include "method.hpp"

namespace hympi::bench {

struct Lineup {
  std::vector<Strategy> hympi;  // hympi's strategies: the ratios are theirs
  std::vector<Strategy> peers;  // MPI-based strategies, timed before PETSc and the floors
};

/// Collective (the checksum). The fields every ghost-update record has: "data", "cache"
/// (off_cache.hpp), "wrong": {rank, index} for each contender found wrong in the warm-up,
/// and "checksum" (of every ghost read, hex; printed on rank 0 with fresh data).
void annotate_ghost_record(nlohmann::json& record, const AppData& app, const DataOptions& data,
                           const std::vector<Wrong>& wrong);

/// Collective. Returns the record `benchmark` of `bytes` with "data" (fresh or cached),
/// "cache" (in-cache or off-cache),
/// per contender "valid" (and "wrong": {rank, index} when not), the ratios, "comm_us" and
/// comm_ratio_to_<reference>, and "checksum" (of every ghost read, hex).
nlohmann::json compare_ghost_updates(Context& ctx, const Method& method, const Pattern& pattern, const Lineup& lineup,
                                     const DataOptions& data, const std::string& benchmark, std::size_t bytes);

}  // namespace hympi::bench
