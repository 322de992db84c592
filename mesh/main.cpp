// SPDX-License-Identifier: BSD-3-Clause
// hympi-mesh: the cube meshes of Quaranta & Maddegedara (2021) and their partitions,
// without MPI ranks.
//   hympi-mesh generate --size 0.05                 mesh (cached) and print its size
//   hympi-mesh stats --size 0.05 --parts 36,72 [--ranks-per-node 36] [--levels 2] [--chunk 1 | --paper]
//   hympi-mesh partition --size 0.01 --parts 16 [--ranks-per-node 8] --out cube-0.01-16.part
// stats prints the columns of their Tables 2-3 for each part count: points per
// process, intranode neighbours and data (kB, 8 B per value), processes per node with
// internode neighbours, internode neighbours and data (averaged over those processes), the
// internode messages per update flat vs one per node pair, and Section 7.2's intranode /
// internode data ratio. --paper counts as the paper's numbers imply (partition_stats.hpp).
// partition saves one partition (METIS, as the applications cut it: two levels with
// --ranks-per-node) for `hympi-bench halo-mesh --partition` on a machine without Gmsh.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <chrono>

#include "cube_mesh.hpp"
#include "partition_file.hpp"
#include "partition_stats.hpp"
#include "hympi/hympi.hpp"
#include "hympi/types.hpp"

namespace {

using namespace hympi;

int run(int argc, char** argv) {
  CLI::App app{"hympi-mesh: the cube meshes of Quaranta & Maddegedara 2021 (Gmsh) and METIS partitions"};
  double size = 0.05;
  bool verbose = false;
  std::vector<int> parts{36};
  int ranks_per_node = 0, levels = 2, chunk = 1;
  bool paper = false;
  std::string mesh_file, out_file;
  int save_parts = 16;
  auto* generate = app.add_subcommand("generate", "mesh the unit cube (cached) and print its size");
  auto* stats = app.add_subcommand(
      "stats", "partition statistics in the columns of Tables 2-3 of Quaranta & Maddegedara 2021");
  auto* save = app.add_subcommand(
      "partition", "cut the mesh and save the partition for hympi-bench halo-mesh --partition (no Gmsh needed there)");
  for (CLI::App* sub : {generate, stats, save}) {
    sub->add_option("--size", size, "element size (0.05, 0.03, 0.02, 0.01, 0.005, 0.004)");
    sub->add_flag("--verbose", verbose, "show Gmsh's progress");
  }
  for (CLI::App* sub : {stats, save}) {
    sub->add_option("--mesh", mesh_file, "a Gmsh MSH file of tetrahedra instead of the cube");
    sub->add_option("--ranks-per-node", ranks_per_node, "ranks per node (default: all parts on one node)");
  }
  stats->add_option("--parts", parts, "processes (one row each)")->delimiter(',');
  save->add_option("--parts", save_parts, "processes")->check(CLI::Range(1, 65535));
  save->add_option("--out", out_file, "the file to write")->required();
  stats->add_option("--levels", levels, "1: METIS k-way over all parts; 2: nodes first, then ranks")
      ->check(CLI::IsMember({1, 2}));
  auto* chunk_option =
      stats->add_option("--chunk", chunk, "values per point (1 scalar, 3 vector)")->check(CLI::PositiveNumber);
  stats->add_flag("--paper", paper,
                  "count as the paper's Tables 2-3 do: points with ghosts, 3 values per point, internode sent + received")
      ->excludes(chunk_option);
  app.require_subcommand(1);
  app.set_version_flag("--version", hympi::configuration());
  CLI11_PARSE(app, argc, argv);

  const auto start = std::chrono::steady_clock::now();
  const std::string file = mesh_file.empty() ? mesh::cube_mesh_file(size, verbose) : mesh_file;
  const mesh::TetMesh m = mesh::read_mesh(file);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("# mesh {}: {} points, {} tetrahedra ({}; {:.1f} s)\n", mesh_file.empty() ? fmt::format("cube {:g}", size) : mesh_file, m.vertices(), m.elements(), file, seconds);
  if (stats->parsed()) {
    const mesh::Graph graph = mesh::vertex_graph(m);
    const mesh::Definition definition = paper ? mesh::Definition::paper : mesh::Definition::hympi;
    const int values = mesh::values_per_point(definition, chunk);
    fmt::print("{}", mesh::partition_header(levels, chunk, definition));
    for (int p : parts)
      fmt::print("{}", mesh::format_row(mesh::partition_row(graph, p, ranks_per_node, levels, values), definition));
  }
  if (save->parsed()) {
    const mesh::Graph graph = mesh::vertex_graph(m);
    const int per_node = ranks_per_node < save_parts ? std::max(ranks_per_node, 0) : 0;  // partition()'s levels
    const std::string what = fmt::format(
        "{}, {} points, {} parts{}", mesh_file.empty() ? fmt::format("cube {:g}", size) : mesh_file, m.vertices(),
        save_parts, per_node > 0 ? fmt::format(" on nodes of {} (two levels)", per_node) : "");
    mesh::write_partition_file(out_file, graph, mesh::partition(graph, save_parts, per_node), save_parts, per_node,
                               what);
    fmt::print("# partition of {} written to {}\n", what, out_file);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const hympi::Error& e) {
    fmt::print(stderr, "{}\n", e.what());
    return 2;
  }
}
