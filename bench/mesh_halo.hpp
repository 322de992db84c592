// SPDX-License-Identifier: BSD-3-Clause
// The ghost update on the cube mesh of Quaranta & Maddegedara (2021), Section 4.6: Gmsh
// mesh, METIS partition over the launch's ranks (two levels on several nodes), scalar or
// 3-vector values per point.
#pragma once

#include <nlohmann/json.hpp>

#include "app_data.hpp"
#include "method.hpp"

namespace hympi::bench {

/// Collective: the cube mesh of element size `size` (made once by rank 0 in HYMPI_MESH_DIR),
/// partitioned over the launch's ranks, as a ghost-update pattern of `chunk` doubles per
/// point with its local ids ordered (order_local_ids); `points` gets the mesh's vertices.
Pattern cube_mesh_pattern(Context& ctx, double size, int chunk, int& points);

nlohmann::json bench_halo_mesh(Context& ctx, const Method& method, double size, int chunk, const DataOptions& data);

}  // namespace hympi::bench
