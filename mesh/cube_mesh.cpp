// SPDX-License-Identifier: BSD-3-Clause
#include "cube_mesh.hpp"

#include <gmsh.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "hympi/types.hpp"

namespace hympi::mesh {
namespace {

/// Gmsh is a process-wide library: one session per call.
struct GmshSession {
  explicit GmshSession(bool verbose) {
    gmsh::initialize();
    gmsh::option::setNumber("General.Terminal", verbose ? 1 : 0);
  }
  ~GmshSession() { gmsh::finalize(); }
};

std::string size_name(double size) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", size);
  return text;
}

std::filesystem::path partial_path(const std::filesystem::path& dir, double size) {
  return dir / ("cube-" + size_name(size) + ".partial.msh");
}

/// Meshes the unit cube in the current Gmsh session and writes `out` (MSH 4.1).
void mesh_cube(double size, bool fine, const std::filesystem::path& out) {
  gmsh::model::add("cube");
  gmsh::model::occ::addBox(0, 0, 0, 1, 1, 1);
  gmsh::model::occ::synchronize();
  gmsh::option::setNumber("Mesh.MeshSizeMax", size);
  if (fine) {
    gmsh::option::setNumber("Mesh.Algorithm3D", 10);  // HXT
    gmsh::option::setNumber("General.NumThreads", 0);  // all cores
  }
  gmsh::model::mesh::generate(3);
  gmsh::option::setNumber("Mesh.MshFileVersion", 4.1);
  gmsh::write(out.string());
}

}  // namespace

std::string mesh_cache_dir() {
  if (const char* d = std::getenv("HYMPI_MESH_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/hympi";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.cache/hympi";
}

std::string cube_mesh_file(double size, bool verbose) {
  if (!(size > 0 && size <= 1))
    throw Error("hympi-mesh: the element size must be in (0, 1], got " + size_name(size));
  const std::filesystem::path dir = mesh_cache_dir();
  const std::filesystem::path file = dir / ("cube-" + size_name(size) + ".msh");
  if (std::filesystem::exists(file)) return file.string();
  std::filesystem::create_directories(dir);
  const bool fine = size < 0.02;
  std::fprintf(stderr, "hympi-mesh: meshing the unit cube at size %s with Gmsh (%s) into %s ...\n",
               size_name(size).c_str(), fine ? "parallel HXT mesher; minutes for 0.005" : "default mesher",
               file.c_str());
  GmshSession gmsh_session(verbose || fine);
  try {
    mesh_cube(size, fine, partial_path(dir, size));
  } catch (const std::string& gmsh_error) {  // Gmsh's API throws its messages as strings
    throw Error("hympi-mesh: Gmsh failed to mesh the cube at size " + size_name(size) + ": " + gmsh_error);
  }
  std::filesystem::rename(partial_path(dir, size), file);  // readers never see a half-written file
  return file.string();
}

TetMesh read_mesh(const std::string& path) {
  if (!std::filesystem::exists(path))
    throw Error("hympi-mesh: mesh file " + path + " does not exist; make it with `hympi-mesh generate --size S`");
  GmshSession gmsh_session(false);
  try {
    gmsh::open(path);
  } catch (const std::string&) {
    throw Error("hympi-mesh: Gmsh cannot read " + path + " (corrupt or not a MSH file); delete it to remake it");
  }
  std::vector<std::size_t> node_tags, tet_tags, tet_nodes;
  std::vector<double> coords, parametric;
  gmsh::model::mesh::getNodes(node_tags, coords, parametric);
  gmsh::model::mesh::getElementsByType(4, tet_tags, tet_nodes);
  if (tet_tags.empty())
    throw Error("hympi-mesh: " + path + " holds no tetrahedra (corrupt or not a 3D mesh); delete it to remake it");
  TetMesh m;
  std::unordered_map<std::size_t, int32_t> id;
  id.reserve(node_tags.size());
  for (std::size_t i = 0; i < node_tags.size(); ++i) id.emplace(node_tags[i], int32_t(i));
  m.xyz = std::move(coords);
  m.tets.reserve(tet_nodes.size());
  for (std::size_t tag : tet_nodes) {
    const auto it = id.find(tag);
    if (it == id.end()) throw Error("hympi-mesh: " + path + ": a tetrahedron names an unknown node (corrupt file)");
    m.tets.push_back(it->second);
  }
  return m;
}

}  // namespace hympi::mesh
