// SPDX-License-Identifier: BSD-3-Clause
#include "setup.hpp"

#include <mpi.h>

#include <algorithm>

#include "halo.hpp"
#include "hympi/halo.hpp"

namespace hympi::bench {
namespace {

/// The MPI library's nearest equivalent of a Context: a private duplicate and the node's
/// shared-memory communicator.
void mpi_context(MPI_Comm comm) {
  MPI_Comm dup, node;
  MPI_Comm_dup(comm, &dup);
  int rank;
  MPI_Comm_rank(dup, &rank);
  MPI_Comm_split_type(dup, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_free(&node);
  MPI_Comm_free(&dup);
}

/// The MPI library's nearest equivalent of a Halo's set-up: the neighbourhood as a
/// distributed graph (what MPI_Neighbor_alltoallv needs).
void mpi_graph(MPI_Comm comm, const Pattern& pattern) {
  std::vector<int> ranks;
  for (const NeighborLists& n : pattern.neighbors()) ranks.push_back(n.rank);
  MPI_Comm graph;
  MPI_Dist_graph_create_adjacent(comm, int(ranks.size()), ranks.data(), MPI_UNWEIGHTED, int(ranks.size()),
                                 ranks.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph);
  MPI_Comm_free(&graph);
}

}  // namespace

nlohmann::json bench_setup(Context& ctx, const Method& method) {
  const Method m{std::min(method.outer, 20), std::min(method.inner, 5)};
  const MPI_Comm world = ctx.topology().world();
  nlohmann::json records = nlohmann::json::array();

  std::vector<Contender> contexts{
      {"context", [&] { Context c(world, ctx.options()); }},
      {"mpi_dup_split", [&] { mpi_context(world); }},
  };
  records.push_back(report("setup-context", 0, contexts, measure(ctx, contexts, m), m,
                           "create + free; reference: MPI_Comm_dup + MPI_Comm_split_type"));

  const std::size_t bytes = 8 * sizeof(double);
  Pattern pattern = ring_pattern(ctx, bytes, false);
  std::vector<Contender> halos;
  for (Strategy s : all_strategies())
    if (s != Strategy::automatic)  // it times the others at set-up: their sum and more
      halos.push_back({name_of(s), [&, s] { Halo h(pattern, s); }});
  halos.push_back({"pattern", [&] { ring_pattern(ctx, bytes, false); }});
  halos.push_back({"mpi_dist_graph", [&] { mpi_graph(world, pattern); }});
  records.push_back(report("setup-halo", bytes, halos, measure(ctx, halos, m), m,
                           "create + free, ring; reference: MPI_Dist_graph_create_adjacent"));
  return records;
}

}  // namespace hympi::bench
