// SPDX-License-Identifier: BSD-3-Clause
// The ghost update on the cube mesh of Quaranta & Maddegedara (2021), Section 4.6, between
// the contenders of their Fig. 16 (flat MPI, hympi's strategies, MPI's neighbourhood
// exchange and the RMA baselines of Algorithms 6-8), scalar or 3-vector values per point.
// The mesh comes from Gmsh, partitioned with METIS over the launch's ranks (two levels on
// several nodes: mesh_halo.cpp, where Gmsh is), or from a partition that `hympi-mesh
// partition` saved (saved_mesh_halo.cpp: no Gmsh or METIS needed, for a lent node).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "app_data.hpp"
#include "hympi/types.hpp"
#include "method.hpp"

namespace hympi::bench {

/// Thrown on every rank at once (a failure the ranks agreed on): hympi-bench prints it
/// once and exits 2 on every rank.
struct EveryRankError : Error {
  using Error::Error;
};

/// Collective: the cube mesh of element size `size` (made once by rank 0 in HYMPI_MESH_DIR),
/// partitioned over the launch's ranks, as a ghost-update pattern of `chunk` doubles per
/// point with its local ids ordered (order_local_ids); `points` gets the mesh's vertices.
/// Built with Gmsh only.
Pattern cube_mesh_pattern(Context& ctx, double size, int chunk, int& points);

/// Collective: Fig. 16's comparison on the cube mesh of `size` (built with Gmsh only).
nlohmann::json bench_halo_mesh(Context& ctx, const Method& method, double size, int chunk, const DataOptions& data);

/// Collective: the same pattern from a file of `hympi-mesh partition` (`description` gets
/// its description line). Throws EveryRankError on every rank, with the first failing rank's
/// message, when any rank cannot read its part or the file was cut for other ranks or nodes.
Pattern saved_mesh_pattern(Context& ctx, const std::string& path, int chunk, std::string& description);

/// Collective: Fig. 16's comparison on a saved partition.
nlohmann::json bench_halo_saved_mesh(Context& ctx, const Method& method, const std::string& path, int chunk,
                                     const DataOptions& data);

/// Collective: Fig. 16's comparison on `pattern` (either source), headed by `label`.
nlohmann::json halo_mesh_record(Context& ctx, const Method& method, const Pattern& pattern, const std::string& label,
                                const DataOptions& data);

}  // namespace hympi::bench
