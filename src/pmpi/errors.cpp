// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/errors.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

namespace hympi::pmpi {
namespace {

// Whether comm's handler ends the job: then hympi prints the whole message itself first
// (the error string is cut to MPI_MAX_ERROR_STRING, and Open MPI 4.1 loses its own print
// when several ranks abort at once: "ORTE_ERROR_LOG: Out of resource in show_help.c").
bool aborts(MPI_Comm comm) {
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  if (MPI_Comm_get_errhandler(comm, &handler) != MPI_SUCCESS) return false;
  bool fatal = handler == MPI_ERRORS_ARE_FATAL;
#ifdef MPI_ERRORS_ABORT
  fatal = fatal || handler == MPI_ERRORS_ABORT;
#endif
  MPI_Errhandler_free(&handler);
  return fatal;
}

}  // namespace

int raise_error(MPI_Comm comm, const char* message) {
  static std::mutex mutex;  // MPI_Add_error_* are not required to be thread safe
  static int error_class = -1;
  const std::string text = std::strncmp(message, "hympi", 5) == 0 ? message : std::string("hympi: ") + message;
  int code = MPI_ERR_OTHER;
  {
    std::lock_guard lock(mutex);
    if (error_class < 0 && MPI_Add_error_class(&error_class) != MPI_SUCCESS) error_class = -2;
    // One code per error: each carries its own message, and errors are rare.
    if (error_class >= 0 && MPI_Add_error_code(error_class, &code) == MPI_SUCCESS)
      MPI_Add_error_string(code, text.substr(0, MPI_MAX_ERROR_STRING - 1).c_str());  // MPI's bound
  }
  if (aborts(comm)) {
    std::fprintf(stderr, "%s\n", text.c_str());
    std::fflush(stderr);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // for the launcher to forward it
  }
  MPI_Comm_call_errhandler(comm, code);
  return code;
}

}  // namespace hympi::pmpi
