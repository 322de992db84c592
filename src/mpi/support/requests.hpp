// SPDX-License-Identifier: BSD-3-Clause
// Completing MPI requests under hympi's wait policy and watchdog: MPI_Testall
// polled through core::poll_until, so oversubscribed ranks yield (MPICH's MPI_Waitall
// never does) and a peer that never sends is reported with the operation and the rank.
// And ending the receives of an update that will never complete (a refused ghost update);
// driving MPI's progress from hympi's own waits.
#pragma once

#include <mpi.h>

#include <span>

#include "core/wait.hpp"

namespace hympi::mpi {

/// `what`: what the watchdog says never happened.
void wait_all(std::span<MPI_Request> requests, const core::WaitConfig& config,
              const core::WaitSite& site, const char* what = "a message from a neighbour never arrived");

/// Receive requests (persistent or not, active or not): those still waiting for a message
/// are cancelled, every one is completed, so no message lands in their buffers afterwards.
void cancel_receives(std::span<MPI_Request> requests);

/// Whether `request` (MPI_REQUEST_NULL, inactive persistent, or active) is not in flight.
bool settled(MPI_Request request);

/// MPI's progress, for core::WaitConfig::progress: drives Open MPI's and MPICH's progress
/// as any MPI call does (needs MPI_COMM_WORLD: the world model).
void drive_progress();

}  // namespace hympi::mpi
