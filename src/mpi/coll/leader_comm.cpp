// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/coll/leader_comm.hpp"

namespace hympi::mpi {

LeaderComm::LeaderComm(const Topology& topology, const core::WaitConfig& wait)
    : comm_(topology.leaders()),
      world_rank_(topology.world_rank()),
      wait_(wait),
      blocking_(!wait.oversubscribed) {
  // The helper thread only where blocking calls happen: a leader with other nodes.
  if (blocking_ && topology.is_leader() && topology.node_count() > 1 && wait.timeout_s > 0)
    watchdog_ = std::make_unique<core::WatchdogThread>(wait.timeout_s, world_rank_);
}

}  // namespace hympi::mpi
