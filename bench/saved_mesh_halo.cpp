// SPDX-License-Identifier: BSD-3-Clause
#include "mesh_halo.hpp"

#include <fmt/core.h>
#include <mpi.h>

#include "grid_halo.hpp"
#include "hympi/halo.hpp"
#include "mpi/support/collective_error.hpp"
#include "partition_file.hpp"

namespace hympi::bench {

Pattern saved_mesh_pattern(Context& ctx, const std::string& path, int chunk, std::string& description) {
  const Topology& topo = ctx.topology();
  std::string error;
  mesh::LocalMesh local;
  try {
    const mesh::PartitionHeader header = mesh::read_partition_header(path);
    const bool two_level = header.ranks_per_node > 0;
    if (header.parts != topo.world_size())
      throw Error(fmt::format("{} was cut into {} parts; this launch has {} ranks (hympi-mesh partition --parts {})", path,
                              header.parts, topo.world_size(), topo.world_size()));
    if (two_level && (header.ranks_per_node != topo.node_size() || topo.node_count() * topo.node_size() != topo.world_size()))
      throw Error(fmt::format("{} was cut for nodes of {} ranks; this launch has {} nodes of {} (hympi-mesh partition "
                              "--ranks-per-node {}, or none for one level)",
                              path, header.ranks_per_node, topo.node_count(), topo.node_size(), topo.node_size()));
    const std::vector<int> rank_of_part = mesh::rank_of_parts(topo.node_of(), topo.node_size(), two_level);
    const int me = mesh::part_of_rank(rank_of_part, topo.world_rank());
    local = mesh::owners_as_ranks(mesh::read_partition_part(path, me).local, rank_of_part);
    description = header.description;
  } catch (const std::exception& e) {  // hympi::Error, or memory a corrupt file asked for: no rank left behind
    error = fmt::format("rank {}: {}", topo.world_rank(), e.what());
  }
  try {
    mpi::throw_if_any(topo.world(), error);  // the lowest failing rank's message, on every rank
  } catch (const Error& e) {
    throw EveryRankError(std::string("hympi-bench halo-mesh: ") + e.what());
  }
  return order_local_ids(Pattern::from_owners(ctx, local.global, local.owner, chunk, Datatype::float64)).pattern;
}

nlohmann::json bench_halo_saved_mesh(Context& ctx, const Method& method, const std::string& path, int chunk,
                                     const DataOptions& data) {
  std::string description;
  const Pattern pattern = saved_mesh_pattern(ctx, path, chunk, description);
  nlohmann::json record =
      halo_mesh_record(ctx, method, pattern, fmt::format("halo-mesh {}, chunk {}", description, chunk), data);
  record["partition_file"] = path;
  record["mesh"] = description;
  return record;
}

nlohmann::json halo_mesh_record(Context& ctx, const Method& method, const Pattern& pattern, const std::string& label,
                                const DataOptions& data) {
  // Fig. 16's contenders: flat MPI (the reference), the shared-memory window with atomic
  // flags (shm) and hympi's other strategies, and the RMA synchronizations.
  static const Lineup lineup{{Strategy::shm, Strategy::shm_direct, Strategy::aggregated, Strategy::aggregated_odm},
                             {Strategy::neighbor, Strategy::rma_fence, Strategy::rma_pscw, Strategy::rma_lock,
                              Strategy::rma_lock_target}};
  nlohmann::json record = bench_halo_pattern(ctx, method, pattern, label, data, lineup);
  record["benchmark"] = "halo-mesh";
  record["chunk"] = pattern.chunk();
  return record;
}

}  // namespace hympi::bench
