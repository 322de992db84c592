// SPDX-License-Identifier: BSD-3-Clause
#include "setup.hpp"

#include <mpi.h>

#include <algorithm>

#include "halo.hpp"
#include "hympi/halo.hpp"
#include "petsc_peer.hpp"

namespace hympi::bench {
namespace {

/// The MPI library's nearest equivalent of a Context: a private duplicate and the node's
/// shared-memory communicator; with `first_call`, and an allreduce of one double on it.
void mpi_context(MPI_Comm comm, bool first_call) {
  MPI_Comm dup, node;
  MPI_Comm_dup(comm, &dup);
  int rank;
  MPI_Comm_rank(dup, &rank);
  MPI_Comm_split_type(dup, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  if (first_call) {
    double x = 1, sum = 0;
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, dup);
  }
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

  // The same ranks in reverse order: a group no live Context has (MPI_SIMILAR, not
  // congruent), so each Context on it makes its own engine; on `world` it joins ctx's.
  MPI_Comm reversed;
  MPI_Comm_split(world, 0, ctx.topology().world_size() - ctx.topology().world_rank(), &reversed);
  // A Context's collectives make their shared memory at the first call: "+ allreduce" is
  // a Context's whole set-up for collectives, against the MPI pair with its first call.
  std::vector<Contender> contexts{
      {"context_first", [&] { Context c(reversed, ctx.options()); }},
      {"context_first_allreduce", [&] { Context c(reversed, ctx.options()); c.allreduce(1.0, Op::sum); }},
      {"context_beside", [&] { Context c(world, ctx.options()); }},
      {"mpi_dup_split", [&] { mpi_context(world, false); }},
      {"mpi_dup_split_allreduce", [&] { mpi_context(world, true); }},
  };
  records.push_back(report("setup-context", 0, contexts, measure(ctx, contexts, m), m,
                           "create + free; first: on a group with no live Context; + allreduce: and one "
                           "allreduce of a double (a Context's collectives make their shared memory then); beside: "
                           "on a duplicate of a live one's communicator (shares its engine); references: "
                           "MPI_Comm_dup + MPI_Comm_split_type, and with an MPI_Allreduce on the duplicate"));
  MPI_Comm_free(&reversed);

  const std::size_t bytes = 8 * sizeof(double);
  Pattern pattern = ring_pattern(ctx, bytes, false);
  std::vector<Contender> halos;
  for (Strategy s : all_strategies())
    if (s != Strategy::automatic)  // it times the others at set-up: their sum and more
      halos.push_back({name_of(s), [&, s] { Halo h(pattern, s); }});
  halos.push_back({"pattern", [&] { ring_pattern(ctx, bytes, false); }});
  const std::size_t hympi_count = halos.size();
  const AppData data(pattern, {});  // what each rank's neighbours send it: PETSc's roots
  const auto sf = petsc_sf_setup(data);
  if (sf) halos.push_back({"petsc_sf_basic", *sf});
  halos.push_back({"mpi_dist_graph", [&] { mpi_graph(world, pattern); }});
  const auto samples = measure(ctx, halos, m);
  records.push_back(report("setup-halo", bytes, halos, samples, m,
                           "create + free, ring; references: MPI_Dist_graph_create_adjacent, and PETSc's "
                           "PetscSFCreate + SetGraph + SetUp of type basic where hympi-bench has PETSc"));
  if (sf) report_peer_ratios(records.back(), halos, samples, hympi_count, {hympi_count});
  return records;
}

}  // namespace hympi::bench
