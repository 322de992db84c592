// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/support/internal_comm.hpp"

#include <cstring>
#include <string>

namespace hympi::mpi {
namespace {
constexpr const char* kPrefix = "hympi: ";
}

void name_internal(MPI_Comm comm, const char* what) {
  const std::string name = std::string(kPrefix) + what;
  MPI_Comm_set_name(comm, name.c_str());
}

bool is_internal(MPI_Comm comm) {
  char name[MPI_MAX_OBJECT_NAME] = {};
  int length = 0;
  if (MPI_Comm_get_name(comm, name, &length) != MPI_SUCCESS) return false;
  return std::strncmp(name, kPrefix, std::strlen(kPrefix)) == 0;
}

}  // namespace hympi::mpi
