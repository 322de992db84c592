// SPDX-License-Identifier: BSD-3-Clause
// Where a link's words are in shared memory, told to the other end: every rank writes, for
// each rank of its node, K offsets into its own segment (the words it keeps for that
// peer) and one MPI_Alltoall on the node tells each peer its K. Each rank then finds its
// words in a peer's segment at theirs(peer, i). The exchange also orders the zeroing of
// every segment before any peer learns where its words are.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "mpi/support/mpi_check.hpp"

namespace hympi::mpi {

template <int K>
class PeerOffsets {
 public:
  explicit PeerOffsets(int node_size) : mine_(std::size_t(node_size) * K, 0), theirs_(mine_.size(), 0) {}

  /// Offset i (< K) in my segment of what I keep for node rank `peer`.
  unsigned long long& mine(int peer, int i) { return mine_[std::size_t(peer) * K + std::size_t(i)]; }
  /// After exchange(): offset i in `peer`'s segment of what it keeps for me.
  unsigned long long theirs(int peer, int i) const { return theirs_[std::size_t(peer) * K + std::size_t(i)]; }

  /// Collective on the node. `what` names the exchange in errors.
  void exchange(MPI_Comm node, const char* what) {
    check(MPI_Alltoall(mine_.data(), K, MPI_UNSIGNED_LONG_LONG, theirs_.data(), K, MPI_UNSIGNED_LONG_LONG, node), what);
  }

 private:
  std::vector<unsigned long long> mine_, theirs_;
};

}  // namespace hympi::mpi
