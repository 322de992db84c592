// SPDX-License-Identifier: BSD-3-Clause
#include "mesh_halo.hpp"

#include <fmt/core.h>

#include "cube_mesh.hpp"
#include "distributed.hpp"

namespace hympi::bench {

Pattern cube_mesh_pattern(Context& ctx, double size, int chunk, int& points) {
  const Topology& topo = ctx.topology();
  if (topo.world_rank() == 0) mesh::cube_mesh_file(size, false);  // made once, here
  MPI_Barrier(topo.world());
  const mesh::Graph graph = mesh::vertex_graph(mesh::read_mesh(mesh::cube_mesh_file(size, false)));
  const mesh::RankPartition partition = mesh::partition_over(graph, topo);
  const mesh::LocalMesh local = mesh::rank_local_mesh(graph, partition, topo.world_rank());
  Pattern pattern = mesh::mesh_pattern(ctx, local, chunk);
  points = graph.vertices();
  return order_local_ids(pattern).pattern;
}

nlohmann::json bench_halo_mesh(Context& ctx, const Method& method, double size, int chunk, const DataOptions& data) {
  int points = 0;
  const Pattern pattern = cube_mesh_pattern(ctx, size, chunk, points);
  nlohmann::json record =
      halo_mesh_record(ctx, method, pattern, fmt::format("halo-mesh cube {:g}, {} points, chunk {}", size, points, chunk), data);
  record["mesh_size"] = size;
  return record;
}

}  // namespace hympi::bench
