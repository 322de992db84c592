// SPDX-License-Identifier: BSD-3-Clause
// The MPI side of hympi/mapping.hpp: a running job's placement (nodes from its Topology,
// domains from hwloc), map_ranks on a live Pattern, and the reordered communicator.
#include <string>

#include "hympi/mapping.hpp"
#include "mpi/node/domains.hpp"
#include "mpi/support/collective_error.hpp"
#include "mpi/support/mpi_check.hpp"
#include "mpi/support/setup_agreement.hpp"

namespace hympi {

using mpi::check;

ProcessPlacement placement_of(const Topology& topology) {
  std::vector<std::vector<int>> groups;
  std::string error;  // a bad HYMPI_EMULATE_SOCKETS on one node: every node throws
  try {
    groups = mpi::domain_groups(topology.node());
  } catch (const Error& e) {
    error = e.what();
  }
  mpi::throw_if_any(topology.world(), error);
  int mine = 0;
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (int r : groups[g])
      if (r == topology.node_rank()) mine = int(g);
  ProcessPlacement placement{topology.node_of(), std::vector<int>(std::size_t(topology.world_size()))};
  check(MPI_Allgather(&mine, 1, MPI_INT, placement.domain_of.data(), 1, MPI_INT, topology.world()),
        "MPI_Allgather (domains)");
  return placement;
}

std::vector<int> map_ranks(const Pattern& pattern, int fields) {
  const Topology& topology = pattern.context().topology();
  const std::vector<RankMessage> traffic = pattern_messages(pattern, fields);
  const ProcessPlacement placement = placement_of(topology);
  std::vector<int> new_rank(std::size_t(topology.world_size()));
  std::string error;
  if (topology.world_rank() == 0) try {
      new_rank = map_ranks(traffic, placement);
    } catch (const Error& e) {
      error = e.what();
    }
  mpi::throw_if_any(topology.world(), error);
  check(MPI_Bcast(new_rank.data(), int(new_rank.size()), MPI_INT, 0, topology.world()), "MPI_Bcast (new ranks)");
  return new_rank;
}

MPI_Comm reordered_comm(MPI_Comm comm, std::span<const int> new_rank) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // The same permutation everywhere: its hash agreed on (FNV-1a), then checked.
  uint64_t hash = 1469598103934665603ull;
  for (int r : new_rank) hash = (hash ^ uint32_t(r)) * 1099511628211ull;
  mpi::agree_on_setup(comm, "reordered_comm",
                      {{"new ranks", int64_t(new_rank.size())}, {"permutation (hash)", int64_t(hash >> 1)}});
  std::string error;
  if (new_rank.size() != std::size_t(size))
    error = "hympi: reordered_comm: " + std::to_string(new_rank.size()) + " new ranks for a communicator of " +
            std::to_string(size) + " ranks";
  std::vector<bool> seen(std::size_t(size), false);
  for (std::size_t p = 0; p < new_rank.size() && error.empty(); ++p) {
    const int r = new_rank[p];
    if (r < 0 || r >= size || seen[std::size_t(r)])
      error = "hympi: reordered_comm: the new ranks are not a permutation of 0.." + std::to_string(size - 1) +
              ": entry " + std::to_string(p) + " is " + std::to_string(r) + (r >= 0 && r < size ? ", twice" : "");
    else
      seen[std::size_t(r)] = true;
  }
  mpi::throw_if_any(comm, error);
  MPI_Comm result = MPI_COMM_NULL;
  check(MPI_Comm_split(comm, 0, new_rank[std::size_t(rank)], &result), "MPI_Comm_split (reordered ranks)");
  return result;
}

}  // namespace hympi
