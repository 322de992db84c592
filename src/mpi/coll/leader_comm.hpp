// SPDX-License-Identifier: BSD-3-Clause
// MPI among node leaders, with a watchdog over every wait:
//  - the node has a core per rank: MPI's blocking collectives (its tuned algorithms; its
//    nonblocking ones cost about 1.5x here), with a WatchdogThread over the call;
//  - the node is oversubscribed: nonblocking collectives completed by polling MPI_Test in
//    core::poll_until, so leaders yield their core (MPICH's blocking calls never do).
#pragma once

#include <mpi.h>

#include <memory>

#include "core/wait.hpp"
#include "core/watchdog_thread.hpp"
#include "hympi/topology.hpp"
#include "mpi/support/mpi_check.hpp"
#include "mpi/support/requests.hpp"

namespace hympi::mpi {

class LeaderComm {
 public:
  LeaderComm(const Topology& topology, const core::WaitConfig& wait);

  MPI_Comm comm() const { return comm_; }
  int world_rank() const { return world_rank_; }
  const core::WaitConfig& wait() const { return wait_; }

  /// Runs one collective among the leaders: `blocking()` returns an MPI error code;
  /// `start(MPI_Request*)` starts the same operation without blocking. `operation`
  /// names it for errors and the watchdog.
  template <class Blocking, class Start>
  void run(const char* operation, Blocking blocking, Start start) const {
    if (blocking_) {
      check(core::watched(watchdog_.get(), operation, blocking), operation);
    } else {
      MPI_Request request;
      check(start(&request), operation);
      wait_all({&request, 1}, wait_, core::WaitSite{operation, world_rank_, core::kNodeLeaderPeer},
               "the MPI operation among node leaders did not complete");
    }
  }

 private:
  MPI_Comm comm_;
  int world_rank_;
  core::WaitConfig wait_;
  bool blocking_;                                   // else nonblocking + polling
  std::unique_ptr<core::WatchdogThread> watchdog_;  // over blocking calls, unless disabled
};

}  // namespace hympi::mpi
