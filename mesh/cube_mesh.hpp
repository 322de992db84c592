// SPDX-License-Identifier: BSD-3-Clause
// The test mesh of Quaranta & Maddegedara (2021), Section 4.6, Fig. 15: tetrahedra of the
// unit cube from Gmsh, cached on disk in Gmsh's own MSH 4.1 format (cube-<size>.msh), so
// each size is made once.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace hympi::mesh {

struct TetMesh {
  std::vector<double> xyz;    // 3 per vertex
  std::vector<int32_t> tets;  // 4 vertex ids per tetrahedron, 0-based
  int vertices() const { return int(xyz.size() / 3); }
  int elements() const { return int(tets.size() / 4); }
};

/// A mesh's arrays wherever they live: a TetMesh, or memory shared by a node's ranks.
struct TetMeshView {
  std::span<const double> xyz;
  std::span<const int32_t> tets;
  TetMeshView() = default;
  TetMeshView(std::span<const double> x, std::span<const int32_t> t) : xyz(x), tets(t) {}
  TetMeshView(const TetMesh& m) : xyz(m.xyz), tets(m.tets) {}  // NOLINT: a TetMesh is a view of itself
  int vertices() const { return int(xyz.size() / 3); }
  int elements() const { return int(tets.size() / 4); }
};

/// Where meshes are cached: $HYMPI_MESH_DIR, else $XDG_CACHE_HOME/hympi, else ~/.cache/hympi.
std::string mesh_cache_dir();

/// The cached file for `size`, made with Gmsh first if missing (the parallel HXT mesher
/// below 0.02, with Gmsh's progress on the terminal when `verbose`). Not collective: call
/// it on one rank, then read_mesh everywhere.
std::string cube_mesh_file(double size, bool verbose);

/// Reads a MSH file's vertices and tetrahedra. Throws hympi::Error for a missing,
/// unreadable or tetrahedron-free file, naming it.
TetMesh read_mesh(const std::string& path);

}  // namespace hympi::mesh
