// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/support/collective_error.hpp"

#include "mpi/support/mpi_check.hpp"

namespace hympi::mpi {

void throw_if_any(MPI_Comm comm, const std::string& local_error) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = local_error.empty() ? size : rank, first = size;
  check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce (error check)");
  if (first == size) return;
  int length = int(local_error.size());
  check(MPI_Bcast(&length, 1, MPI_INT, first, comm), "MPI_Bcast (error length)");
  std::string message = rank == first ? local_error : std::string(std::size_t(length), ' ');
  check(MPI_Bcast(message.data(), length, MPI_CHAR, first, comm), "MPI_Bcast (error text)");
  throw Error(message);
}

}  // namespace hympi::mpi
