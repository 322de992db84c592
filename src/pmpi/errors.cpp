// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/errors.hpp"

#include <cstring>
#include <mutex>
#include <string>

namespace hympi::pmpi {

int raise_error(MPI_Comm comm, const char* message) {
  static std::mutex mutex;  // MPI_Add_error_* are not required to be thread safe
  static int error_class = -1;
  int code = MPI_ERR_OTHER;
  {
    std::lock_guard lock(mutex);
    if (error_class < 0 && MPI_Add_error_class(&error_class) != MPI_SUCCESS) error_class = -2;
    // One code per error: each carries its own message, and errors are rare.
    if (error_class >= 0 && MPI_Add_error_code(error_class, &code) == MPI_SUCCESS) {
      std::string text = std::strncmp(message, "hympi", 5) == 0 ? message : std::string("hympi: ") + message;
      if (text.size() >= MPI_MAX_ERROR_STRING) text.resize(MPI_MAX_ERROR_STRING - 1);  // MPI's bound
      MPI_Add_error_string(code, text.c_str());
    }
  }
  MPI_Comm_call_errhandler(comm, code);
  return code;
}

}  // namespace hympi::pmpi
