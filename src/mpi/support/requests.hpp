// Completing MPI requests under hympi's wait policy and watchdog: MPI_Testall
// polled through core::poll_until, so oversubscribed ranks yield (MPICH's MPI_Waitall
// never does) and a peer that never sends is reported with the operation and the rank.
#pragma once

#include <mpi.h>

#include <span>

#include "core/wait.hpp"

namespace hympi::mpi {

/// `what`: what the watchdog says never happened.
void wait_all(std::span<MPI_Request> requests, const core::WaitConfig& config,
              const core::WaitSite& site, const char* what = "a message from a neighbour never arrived");

}  // namespace hympi::mpi
