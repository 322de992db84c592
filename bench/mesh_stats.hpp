// SPDX-License-Identifier: BSD-3-Clause
// Tables 2-3 of Quaranta & Maddegedara (2021) without running the ranks: the cube mesh
// cut by METIS into each part count, on nodes of `ranks_per_node` (two levels: nodes
// first).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

namespace hympi::bench {

/// Rank 0 meshes (cached), partitions and prints; returns the record on every rank. With
/// hympi::mapping, also the mapping table (mapping_stats.hpp) of the one-level cuts into
/// the same part counts: the record's "mapping" (kind "mapping-mesh").
nlohmann::json bench_mesh_stats(double size, const std::vector<int>& parts, int ranks_per_node, int chunk);

}  // namespace hympi::bench
