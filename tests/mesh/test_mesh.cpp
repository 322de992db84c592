// SPDX-License-Identifier: BSD-3-Clause
// Meshes and partitions without MPI: the cached cube mesh reads back, every vertex is owned
// by exactly one part, the two-level partition keeps each node's ranks together, a rank's
// ghosts are exactly the other-owned neighbours of its vertices, the message list agrees
// with the ghosts, a saved partition reads back as the same parts, and bad input gets a
// clear message.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include "cube_mesh.hpp"
#include "distributed.hpp"
#include "partition_file.hpp"
#include "partition_stats.hpp"
#include "hympi/types.hpp"

namespace {

using namespace hympi;

const mesh::TetMesh& cube() {
  static const mesh::TetMesh m = mesh::read_mesh(mesh::cube_mesh_file(0.05, false));
  return m;
}

TEST(CubeMesh, ReadsBackTetrahedraOfTheUnitCube) {
  const mesh::TetMesh& m = cube();
  EXPECT_GT(m.vertices(), 5000);
  EXPECT_GT(m.elements(), 4 * m.vertices());
  for (double c : m.xyz) {
    EXPECT_GE(c, -1e-12);
    EXPECT_LE(c, 1 + 1e-12);
  }
  for (int32_t v : m.tets) ASSERT_TRUE(v >= 0 && v < m.vertices());
}

void check_partition(const mesh::Graph& g, const std::vector<int32_t>& part, int parts) {
  ASSERT_EQ(int(part.size()), g.vertices());
  std::vector<int> owned(std::size_t(parts), 0);
  for (int32_t p : part) {
    ASSERT_TRUE(p >= 0 && p < parts);
    ++owned[std::size_t(p)];
  }
  for (int n : owned) EXPECT_GT(n, 0) << "an empty part";
  std::size_t total = 0;
  std::map<std::pair<int, int>, std::size_t> ghosts_by_pair;
  for (int p = 0; p < parts; ++p) {
    const mesh::LocalMesh local = mesh::local_mesh(g, part, p);
    EXPECT_EQ(local.owned, owned[std::size_t(p)]);
    total += std::size_t(local.owned);
    std::set<int64_t> expected;  // other-owned neighbours of my vertices
    for (int v = 0; v < g.vertices(); ++v)
      if (part[std::size_t(v)] == p)
        for (int32_t e = g.offsets[std::size_t(v)]; e < g.offsets[std::size_t(v) + 1]; ++e)
          if (part[std::size_t(g.neighbors[std::size_t(e)])] != p) expected.insert(g.neighbors[std::size_t(e)]);
    std::set<int64_t> ghosts(local.global.begin() + local.owned, local.global.end());
    EXPECT_EQ(ghosts, expected);
    for (std::size_t i = std::size_t(local.owned); i < local.global.size(); ++i) {
      EXPECT_EQ(local.owner[i], part[std::size_t(local.global[i])]);
      ++ghosts_by_pair[{local.owner[i], p}];
    }
  }
  EXPECT_EQ(total, std::size_t(g.vertices())) << "every point owned exactly once";
  const auto messages = mesh::partition_messages(g, part, parts, 8);
  ASSERT_EQ(messages.size(), ghosts_by_pair.size());
  for (const RankMessage& m : messages) EXPECT_EQ(m.bytes, 8 * ghosts_by_pair[std::pair(m.from, m.to)]);
}

TEST(Partition, OneLevelEveryPointOwnedOnceGhostsConsistent) {
  const mesh::Graph g = mesh::vertex_graph(cube());
  for (int parts : {1, 2, 7, 36}) {
    SCOPED_TRACE(parts);
    check_partition(g, mesh::partition(g, parts), parts);
  }
}

TEST(Partition, TwoLevelKeepsEachNodesRanksTogether) {
  const mesh::Graph g = mesh::vertex_graph(cube());
  const int nodes = 4, per_node = 9;
  const std::vector<int32_t> two = mesh::partition(g, nodes * per_node, per_node);
  check_partition(g, two, nodes * per_node);
  // Fewer vertices change node than in a one-level cut of the same count: the node cut is
  // made first, on the whole graph.
  auto node_edges = [&](const std::vector<int32_t>& part) {
    std::size_t cut = 0;
    for (int v = 0; v < g.vertices(); ++v)
      for (int32_t e = g.offsets[std::size_t(v)]; e < g.offsets[std::size_t(v) + 1]; ++e)
        cut += part[std::size_t(v)] / per_node != part[std::size_t(g.neighbors[std::size_t(e)])] / per_node;
    return cut;
  };
  EXPECT_LT(node_edges(two), node_edges(mesh::partition(g, nodes * per_node)));
  EXPECT_EQ(mesh::partition(g, nodes * per_node, per_node), two) << "deterministic";
}

// The columns of hympi-mesh stats under both definitions (partition_stats.hpp): points
// with ghosts counted from the graph directly, data per value, internode both ways, and
// Section 7.2's ratio, which no definition changes.
TEST(PartitionStats, PaperDefinitionCountsGhostsAndBothDirections) {
  const mesh::Graph g = mesh::vertex_graph(cube());
  const int parts = 36, per_node = 9;
  const mesh::PartitionRow one = mesh::partition_row(g, parts, per_node, 2, 1);
  const mesh::PartitionRow three =
      mesh::partition_row(g, parts, per_node, 2, mesh::values_per_point(mesh::Definition::paper, 1));
  const std::vector<int32_t> part = mesh::partition(g, parts, per_node);
  std::set<std::pair<int32_t, int32_t>> ghosts;  // (rank, a point it reads and does not own)
  for (int v = 0; v < g.vertices(); ++v)
    for (int32_t e = g.offsets[std::size_t(v)]; e < g.offsets[std::size_t(v) + 1]; ++e) {
      const int32_t u = g.neighbors[std::size_t(e)];
      if (part[std::size_t(u)] != part[std::size_t(v)]) ghosts.insert({part[std::size_t(v)], u});
    }
  EXPECT_DOUBLE_EQ(one.points, double(g.vertices()) / parts);
  EXPECT_DOUBLE_EQ(one.points_with_ghosts, double(g.vertices() + std::int64_t(ghosts.size())) / parts);
  EXPECT_DOUBLE_EQ(three.points_with_ghosts, one.points_with_ghosts);
  EXPECT_NEAR(three.intra_kb, 3 * one.intra_kb, 1e-9);
  EXPECT_NEAR(three.inter_kb, 3 * one.inter_kb, 1e-9);
  EXPECT_GT(one.inter_kb, 0);
  EXPECT_NEAR(three.inter_kb_both, 2 * three.inter_kb, 1e-9);
  EXPECT_NEAR(three.intra_to_inter, one.intra_to_inter, 1e-12);
  // All data intranode and internode: the ratio of the two averages over all ranks.
  const double inter_all = one.inter_kb * one.inter_processes_per_node * one.nodes / parts;
  EXPECT_NEAR(one.intra_to_inter, one.intra_kb / inter_all, 1e-9);
  EXPECT_EQ(mesh::partition_row(g, parts, parts, 2, 1).intra_to_inter, std::numeric_limits<double>::infinity());
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

// What a machine without Gmsh reads from a saved partition is what local_mesh makes from
// the mesh, part by part, at one level and at two; the placement on ranks (rank_of_parts)
// is the one partition_over uses.
TEST(PartitionFile, EveryPartReadsBackAsLocalMeshMakesIt) {
  const mesh::Graph g = mesh::vertex_graph(cube());
  const std::string path = std::filesystem::temp_directory_path() / "hympi-test.part";
  for (const auto& [parts, per_node] : {std::pair(7, 0), std::pair(12, 4)}) {
    SCOPED_TRACE(parts);
    const std::vector<int32_t> part = mesh::partition(g, parts, per_node);
    mesh::write_partition_file(path, g, part, parts, per_node, "cube 0.05 test");
    const mesh::PartitionHeader h = mesh::read_partition_header(path);
    EXPECT_EQ(h.description, "cube 0.05 test");
    EXPECT_EQ(h.parts, parts);
    EXPECT_EQ(h.ranks_per_node, per_node);
    EXPECT_EQ(h.vertices, g.vertices());
    for (int p = 0; p < parts; ++p) {
      const mesh::LocalMesh want = mesh::local_mesh(g, part, p), got = mesh::read_partition_part(path, p).local;
      EXPECT_EQ(got.owned, want.owned);
      EXPECT_EQ(got.global, want.global);
      EXPECT_EQ(got.owner, want.owner);
    }
  }
  // Two nodes of 3 ranks, world ranks interleaved: node n's parts on its ranks in order.
  EXPECT_EQ(mesh::rank_of_parts({0, 1, 0, 1, 0, 1}, 3, true), (std::vector<int>{0, 2, 4, 1, 3, 5}));
  EXPECT_EQ(mesh::rank_of_parts({0, 1, 0, 1, 0, 1}, 3, false), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  std::filesystem::remove(path);
}

TEST(PartitionFile, MissingForeignTruncatedOrNoSuchPart) {
  const mesh::Graph g = mesh::vertex_graph(cube());
  const std::string path = std::filesystem::temp_directory_path() / "hympi-bad.part";
  EXPECT_NE(error_of([] { mesh::read_partition_part("/nonexistent/a.part", 0); }).find("no such partition file"),
            std::string::npos);
  std::ofstream(path) << "$MeshFormat\n";
  EXPECT_NE(error_of([&] { mesh::read_partition_header(path); }).find("not a partition file"), std::string::npos);
  mesh::write_partition_file(path, g, mesh::partition(g, 4), 4, 0, "four");
  EXPECT_NE(error_of([&] { mesh::read_partition_part(path, 4); }).find("has 4 parts: no part 4"), std::string::npos);
  // The last part's ghosts cut short: parts 0-2 still read, part 3 says so.
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 8);
  EXPECT_EQ(error_of([&] { mesh::read_partition_part(path, 2); }), "");
  EXPECT_NE(error_of([&] { mesh::read_partition_part(path, 3); }).find("truncated"), std::string::npos);
  EXPECT_NE(error_of([&] { mesh::write_partition_file(path, g, {}, 70000, 0, "too many"); }).find("1 to 65535 parts"),
            std::string::npos);
  std::filesystem::remove(path);
}

TEST(MeshErrors, MissingCorruptTooManyParts) {
  auto message = error_of;
  EXPECT_NE(message([] { mesh::read_mesh("/nonexistent/cube.msh"); }).find("does not exist"), std::string::npos);
  const std::string corrupt = std::filesystem::temp_directory_path() / "hympi-corrupt.msh";
  std::ofstream(corrupt) << "$MeshFormat\nnot a mesh\n";
  EXPECT_NE(message([&] { mesh::read_mesh(corrupt); }).find("Gmsh cannot read"), std::string::npos);
  std::ofstream(corrupt) << "garbage";
  EXPECT_NE(message([&] { mesh::read_mesh(corrupt); }).find(corrupt), std::string::npos);
  const mesh::Graph g = mesh::vertex_graph(cube());
  EXPECT_NE(message([&] { mesh::partition(g, g.vertices() + 1); }).find("cannot cut"), std::string::npos);
  EXPECT_NE(message([&] { mesh::partition(g, 10, 4); }).find("not whole nodes"), std::string::npos);
  EXPECT_NE(message([] { mesh::cube_mesh_file(0, false); }).find("element size"), std::string::npos);
}

}  // namespace
