// SPDX-License-Identifier: BSD-3-Clause
// Turns an MPI error code into hympi::Error with the MPI library's own text.
#pragma once

#include <mpi.h>

#include <string>

#include "hympi/types.hpp"

namespace hympi::mpi {

inline void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error(std::string("hympi: ") + what + " failed: " + std::string(text, length));
}

}  // namespace hympi::mpi
