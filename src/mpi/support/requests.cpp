// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/support/requests.hpp"

#include "mpi/support/mpi_check.hpp"

namespace hympi::mpi {

void wait_all(std::span<MPI_Request> requests, const core::WaitConfig& config,
              const core::WaitSite& site, const char* what) {
  if (requests.empty()) return;
  int code = MPI_SUCCESS;
  auto done = [&] {
    int flag = 0;
    // One request through MPI_Test: MPICH 4.0.2's MPI_Testall fails on a persistent
    // neighbourhood collective (MPI_Neighbor_alltoallv_init), MPI_Test completes it.
    code = requests.size() == 1 ? MPI_Test(requests.data(), &flag, MPI_STATUS_IGNORE)
                                : MPI_Testall(int(requests.size()), requests.data(), &flag, MPI_STATUSES_IGNORE);
    return flag != 0 || code != MPI_SUCCESS;
  };
  core::poll_until(done, config, site, what);
  check(code, site.operation);
}

void cancel_receives(std::span<MPI_Request> requests) {
  for (MPI_Request& r : requests) {
    if (!settled(r)) MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);  // cancelled, or received before the cancel: completed either way
  }
}

bool settled(MPI_Request request) {
  if (request == MPI_REQUEST_NULL) return true;
  int flag = 0;
  MPI_Request_get_status(request, &flag, MPI_STATUS_IGNORE);  // true for inactive persistent requests
  return flag != 0;
}

// A probe makes MPI's progress (it receives nothing, so the program's matching is
// untouched). A program that waits in hympi while its own requests are pending (an
// MPI_Isend whose rendezvous or fragments need the sender's progress) gets the progress
// MPI promises to a rank inside an MPI call. On MPI_COMM_WORLD: MPICH 4.0's probe on
// MPI_COMM_SELF left a pending 10,000-byte MPI_Isend to another rank undelivered (test
// pmpi.progress.*). PMPI_: profilers see none of it.
void drive_progress() {
  int flag = 0;
  PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
}

}  // namespace hympi::mpi
