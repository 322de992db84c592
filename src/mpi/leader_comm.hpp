// MPI among node leaders, waited for the hympi way: nonblocking collectives completed by
// polling MPI_Test in core::poll_until, so leaders yield when the node is oversubscribed
// (MPICH's blocking collectives never do) and a node that never arrives trips the
// watchdog instead of hanging inside MPI.
#pragma once

#include <mpi.h>

#include "core/wait.hpp"
#include "hympi/options.hpp"
#include "hympi/topology.hpp"

namespace hympi::mpi {

/// The wait settings of every protocol of a Context.
core::WaitConfig wait_config(const Options& options, const Topology& topology);

struct LeaderComm {
  MPI_Comm comm;
  int world_rank;
  core::WaitConfig wait;

  /// Completes `request` (started on `comm`); `operation` names it for the watchdog.
  void complete(MPI_Request& request, const char* operation) const;
};

}  // namespace hympi::mpi
