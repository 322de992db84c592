// SPDX-License-Identifier: BSD-3-Clause
#include "neighbor_swap.hpp"

#include <mpi.h>

namespace hympi::bench {

std::vector<std::vector<int>> swap_with_neighbors(const Pattern& pattern, const std::vector<std::vector<int>>& out,
                                                  const std::vector<std::size_t>& in_sizes) {
  const MPI_Comm comm = pattern.context().topology().world();
  const auto& neighbors = pattern.neighbors();
  std::vector<std::vector<int>> in(neighbors.size());
  std::vector<MPI_Request> requests(2 * neighbors.size());
  for (std::size_t n = 0; n < neighbors.size(); ++n) {
    in[n].resize(in_sizes[n]);
    MPI_Irecv(in[n].data(), int(in[n].size()), MPI_INT, neighbors[n].rank, 0, comm, &requests[2 * n]);
    MPI_Isend(out[n].data(), int(out[n].size()), MPI_INT, neighbors[n].rank, 0, comm, &requests[2 * n + 1]);
  }
  std::vector<MPI_Status> statuses(requests.size());  // not MPI_STATUSES_IGNORE: gcc 12 misreads MPICH's attributes
  MPI_Waitall(int(requests.size()), requests.data(), statuses.data());
  return in;
}

std::vector<std::vector<int>> neighbor_send_lists(const Pattern& pattern) {
  std::vector<std::vector<int>> out;
  std::vector<std::size_t> sizes;
  for (const NeighborLists& n : pattern.neighbors()) {
    out.push_back(n.send);
    sizes.push_back(n.recv.size());
  }
  return swap_with_neighbors(pattern, out, sizes);
}

}  // namespace hympi::bench
