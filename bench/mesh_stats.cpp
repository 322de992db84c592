// SPDX-License-Identifier: BSD-3-Clause
#include "mesh_stats.hpp"

#include <fmt/core.h>
#include <mpi.h>

#include "cube_mesh.hpp"
#include "distributed.hpp"
#include "partition_stats.hpp"
#ifdef HYMPI_BENCH_MAPPING
#include "mapping_stats.hpp"
#endif

namespace hympi::bench {

nlohmann::json bench_mesh_stats(double size, const std::vector<int>& parts, int ranks_per_node, int chunk) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  nlohmann::json record{{"benchmark", "mesh-stats"}, {"mesh_size", size}, {"ranks_per_node", ranks_per_node},
                        {"chunk", chunk}, {"results", nlohmann::json::array()}};
  if (rank != 0) return record;  // a dry run: one rank is enough
  const mesh::Graph graph = mesh::vertex_graph(mesh::read_mesh(mesh::cube_mesh_file(size, false)));
  fmt::print("# mesh-stats: Tables 2-3 of Quaranta & Maddegedara 2021 (dry run) for the cube {:g}, "
             "{} points, {} ranks per node\n{}",
             size, graph.vertices(), ranks_per_node, mesh::partition_header(2, chunk));
  for (int p : parts) {
    const mesh::PartitionRow r = mesh::partition_row(graph, p, ranks_per_node, 2, chunk);
    fmt::print("{}", mesh::format_row(r));
    record["results"].push_back({{"parts", r.parts},
                                 {"nodes", r.nodes},
                                 {"points", r.points},
                                 {"points_with_ghosts", r.points_with_ghosts},
                                 {"points_min", r.points_min},
                                 {"points_max", r.points_max},
                                 {"intra_neighbors", r.intra_neighbors},
                                 {"intra_kb", r.intra_kb},
                                 {"inter_processes_per_node", r.inter_processes_per_node},
                                 {"inter_neighbors", r.inter_neighbors},
                                 {"inter_kb", r.inter_kb},
                                 {"inter_kb_sent_and_received", r.inter_kb_both},
                                 {"intranode_to_internode_bytes", r.intra_to_inter},
                                 {"flat_messages", r.flat_messages},
                                 {"node_pair_messages", r.node_pair_messages}});
  }
  fmt::print("\n");
#ifdef HYMPI_BENCH_MAPPING
  nlohmann::json mapping{{"benchmark", "mapping-mesh"}, {"mesh_size", size}, {"ranks_per_node", ranks_per_node},
                         {"chunk", chunk}, {"results", nlohmann::json::array()}};
  fmt::print("{}", mapping_header(fmt::format("cube {:g}, METIS k-way into Procs parts, own order = METIS's", size)));
  for (int p : parts) {
    const std::vector<int32_t> part = mesh::partition(graph, p);
    mapping["results"].push_back(mapping_row(mesh::partition_messages(graph, part, p, std::size_t(chunk) * 8), p,
                                             ranks_per_node, std::to_string(p)));
  }
  fmt::print("\n");
  record["mapping"] = mapping;
#endif
  return record;
}

}  // namespace hympi::bench
