// SPDX-License-Identifier: BSD-3-Clause
#include "mapping_stats.hpp"

#include <fmt/core.h>
#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "hympi/mapping.hpp"

namespace hympi::bench {
namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/// The ranks in a random order (the same on every rank and run): rank r becomes order[r].
std::vector<int> random_order(int ranks) {
  std::vector<int> order(static_cast<std::size_t>(ranks));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(12345));
  return order;
}

std::vector<RankMessage> relabelled(std::vector<RankMessage> traffic, const std::vector<int>& order) {
  for (RankMessage& m : traffic) m.from = order[std::size_t(m.from)], m.to = order[std::size_t(m.to)];
  return traffic;
}

nlohmann::json brief(const MessageStatistics& st) {
  return {{"internode_bytes", st.internode_bytes},
          {"internode_messages", st.internode_messages},
          {"node_pair_messages", st.node_pair_messages},
          {"intranode_bytes", st.intranode_bytes}};
}

double ratio(std::size_t a, std::size_t b) { return b ? double(a) / double(b) : 1.0; }

}  // namespace

std::string mapping_header(const std::string& title) {
  return fmt::format(
      "# mapping: {}\n"
      "# (dry run, no timing) internode kB (1000 B) and flat messages of one ghost update on nodes of\n"
      "# consecutive ranks (2 domains each), ranks in random order, in their own order, and in map_ranks's\n"
      "# order computed from the random one; MPI_Dist_graph_create(reorder=1): see the reorder probe\n"
      "#{:>11}{:>7}{:>8}{:>13}{:>9}{:>13}{:>9}{:>13}{:>9}{:>9}{:>9}\n",
      title, "Procs", "Nodes", "Ranks", "RandomKB", "Msgs", "OwnKB", "Msgs", "MappedKB", "Msgs", "/Own", "/Random");
}

nlohmann::json mapping_row(const std::vector<RankMessage>& traffic, int ranks, int ranks_per_node,
                           const std::string& label) {
  const ProcessPlacement placement = ProcessPlacement::consecutive(ranks, ranks_per_node, 2);
  const std::vector<RankMessage> shuffled = relabelled(traffic, random_order(ranks));
  const std::vector<int> new_rank = map_ranks(shuffled, placement);
  const MessageStatistics random = message_statistics(shuffled, placement.node_of);
  const MessageStatistics own = message_statistics(traffic, placement.node_of);
  const MessageStatistics mapped = message_statistics(shuffled, node_of_new_ranks(new_rank, placement.node_of));
  if (world_rank() == 0)
    fmt::print("{:>12}{:>7}{:>8}{:>13.1f}{:>9}{:>13.1f}{:>9}{:>13.1f}{:>9}{:>9.3f}{:>9.3f}\n", label, random.nodes, ranks,
               double(random.internode_bytes) / 1e3, random.internode_messages, double(own.internode_bytes) / 1e3,
               own.internode_messages, double(mapped.internode_bytes) / 1e3, mapped.internode_messages,
               ratio(mapped.internode_bytes, own.internode_bytes), ratio(mapped.internode_bytes, random.internode_bytes));
  return {{"label", label},           {"ranks", ranks},           {"nodes", random.nodes},
          {"ranks_per_node", ranks_per_node}, {"random", brief(random)}, {"own", brief(own)},
          {"mapped", brief(mapped)}};
}

nlohmann::json bench_mapping_grid(const GridSpec& grid, int ranks_per_node, const std::vector<int>& nodes) {
  std::string extents;
  for (int n : grid.global) extents += (extents.empty() ? "" : "x") + std::to_string(n);
  nlohmann::json record{{"benchmark", "mapping-grid"}, {"grid", grid.global},          {"stencil", grid.stencil},
                        {"point_bytes", grid.point_bytes}, {"ranks_per_node", ranks_per_node}, {"results", nlohmann::json::array()}};
  if (world_rank() == 0)
    fmt::print("{}", mapping_header(fmt::format("{} grid, {} stencil, {} B per point, own order = row-major", extents,
                                                grid.stencil, grid.point_bytes)));
  if (world_rank() != 0) return record;  // a dry run: one rank is enough
  for (int n : nodes) {
    const GridTraffic t = grid_traffic(grid, n * ranks_per_node);
    record["results"].push_back(mapping_row(t.messages, n * ranks_per_node, ranks_per_node, t.label));
  }
  fmt::print("\n");
  return record;
}

nlohmann::json bench_reorder_probe(Context& ctx, const GridSpec& grid) {
  const Topology& topo = ctx.topology();
  const int size = topo.world_size(), me = topo.world_rank();
  const GridTraffic t = grid_traffic(grid, size);
  const std::vector<RankMessage> traffic = relabelled(t.messages, random_order(size));
  std::vector<int> destinations, weights;
  for (const RankMessage& m : traffic)
    if (m.from == me && m.bytes > 0) {
      destinations.push_back(m.to);
      weights.push_back(int(std::min<std::size_t>(m.bytes, 1u << 30)));
    }
  // Open MPI's treematch may bind an unbound process while it reorders: the probe leaves
  // the binding as it found it.
  cpu_set_t binding;
  CPU_ZERO(&binding);
  const bool saved = sched_getaffinity(0, sizeof binding, &binding) == 0;
  const int degree = int(destinations.size());
  int none = 0;  // a valid array for a rank without edges
  MPI_Comm graph = MPI_COMM_NULL;
  MPI_Dist_graph_create(topo.world(), 1, &me, &degree, degree ? destinations.data() : &none,
                        degree ? weights.data() : &none, MPI_INFO_NULL, 1, &graph);
  int mine = 0;
  MPI_Comm_rank(graph, &mine);
  MPI_Comm_free(&graph);
  if (saved) sched_setaffinity(0, sizeof binding, &binding);
  std::vector<int> mpi_rank(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, 1, MPI_INT, mpi_rank.data(), 1, MPI_INT, topo.world());
  const int moved = int(std::count_if(mpi_rank.begin(), mpi_rank.end(), [&, p = 0](int r) mutable { return r != p++; }));

  const std::vector<int> ours = map_ranks(traffic, placement_of(topo));
  const std::size_t random = message_statistics(traffic, topo.node_of()).internode_bytes;
  const std::size_t mpi = message_statistics(traffic, node_of_new_ranks(mpi_rank, topo.node_of())).internode_bytes;
  const std::size_t mapped = message_statistics(traffic, node_of_new_ranks(ours, topo.node_of())).internode_bytes;
  if (me == 0)
    fmt::print("# reorder probe (live): MPI_Dist_graph_create(reorder=1) on {} ranks, {} {}nodes, the {} stencil on a\n"
               "# {} process grid in random order, bytes as weights: the MPI library moved {} of {} ranks{}.\n"
               "# Internode bytes per update: random order {}, after the MPI library's reorder {}, after map_ranks {}\n\n",
               size, topo.node_count(), topo.emulated() ? "emulated " : "", grid.stencil, t.label, moved, size,
               moved ? "" : " (its reorder is the identity here)", random, mpi, mapped);
  return {{"benchmark", "reorder-probe"}, {"ranks", size}, {"nodes", topo.node_count()}, {"emulated_nodes", topo.emulated()},
          {"moved", moved}, {"mpi_new_rank", mpi_rank}, {"internode_bytes", {{"random", random}, {"mpi_reorder", mpi}, {"map_ranks", mapped}}}};
}

}  // namespace hympi::bench
