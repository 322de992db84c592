#include "mpi/leader_comm.hpp"

#include "mpi/mpi_check.hpp"

namespace hympi::mpi {

core::WaitConfig wait_config(const Options& options, const Topology& topology) {
  return core::WaitConfig{options.wait, topology.oversubscribed(), options.timeout_s};
}

void LeaderComm::complete(MPI_Request& request, const char* operation) const {
  int code = MPI_SUCCESS;
  auto done = [&] {
    int flag = 0;
    code = MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    return flag != 0 || code != MPI_SUCCESS;
  };
  core::poll_until(done, wait, core::WaitSite{operation, world_rank, -1},
                   "the MPI operation among node leaders did not complete");
  check(code, operation);
}

}  // namespace hympi::mpi
