// SPDX-License-Identifier: BSD-3-Clause
// hympi_version() and hympi_configuration(): the version from hympi/version.h (generated
// from CMake's project(VERSION)), the build's facts from CMakeLists.txt (HYMPI_CONFIG_*).
#include <mpi.h>

#include <cstring>
#include <string>

#include "hympi.h"
#include "hympi/hympi.hpp"

extern "C" void hympi_version(int* major, int* minor, int* patch) {
  if (major) *major = HYMPI_VERSION_MAJOR;
  if (minor) *minor = HYMPI_VERSION_MINOR;
  if (patch) *patch = HYMPI_VERSION_PATCH;
}

namespace {

/// The first line of MPI_Get_library_version (callable before MPI_Init and after MPI_Finalize).
std::string running_mpi() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  int length = 0;
  if (MPI_Get_library_version(text, &length) != MPI_SUCCESS) return "unknown";
  std::string line(text, strnlen(text, std::size_t(length)));  // Open MPI counts the NUL: it would end the text
  return line.substr(0, line.find_first_of("\r\n"));
}

}  // namespace

const char* hympi::configuration() {
  static const std::string text = std::string("hympi ") + HYMPI_VERSION_STRING + " (git " HYMPI_CONFIG_COMMIT ", " +
                                  HYMPI_CONFIG_BUILD_TYPE ")\ncomponents: " HYMPI_CONFIG_COMPONENTS
                                  "\nbuilt with MPI: " HYMPI_CONFIG_MPI "\nrunning with MPI: " +
                                  running_mpi() + "\ncompiler: " HYMPI_CONFIG_COMPILER "\nC++ flags: " HYMPI_CONFIG_FLAGS
                                  "\noptions: " HYMPI_CONFIG_OPTIONS;
  return text.c_str();
}

extern "C" const char* hympi_configuration(void) { return hympi::configuration(); }
