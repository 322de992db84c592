// SPDX-License-Identifier: BSD-3-Clause
// Ghost update on a ring: every strategy side by side, per message size per neighbour,
// contiguous and index-gathered, against flat MPI (the reference of the ratios), PETSc's
// PetscSF (when built with it) and the floors (floors.hpp), on application data
// (app_data.hpp); then the split-phase overlap, OSU style.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "app_data.hpp"
#include "method.hpp"

namespace hympi::bench {

/// The ring pattern of doubles: `bytes` per neighbour (the ranks left and right, one at 2
/// ranks); contiguous ids, or (gathered) random permutations of them. Collective.
Pattern ring_pattern(Context& ctx, std::size_t bytes, bool gathered);

/// Neighbours: the ranks left and right on a ring (one at 2 ranks). `sizes`: bytes of
/// doubles per neighbour.
nlohmann::json bench_halo(Context& ctx, const Method& method, const std::vector<std::size_t>& sizes,
                          const DataOptions& data);

}  // namespace hympi::bench
