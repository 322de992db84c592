// hympi_version(): the library's version, which CMake's project(VERSION) and hympi.h's
// HYMPI_VERSION_* must agree on (checked here at build time).
#include "hympi.h"

static_assert(HYMPI_VERSION_MAJOR == HYMPI_PROJECT_VERSION_MAJOR && HYMPI_VERSION_MINOR == HYMPI_PROJECT_VERSION_MINOR &&
                  HYMPI_VERSION_PATCH == HYMPI_PROJECT_VERSION_PATCH,
              "include/hympi.h's HYMPI_VERSION_* and CMakeLists.txt's project(VERSION) differ: update both");

extern "C" void hympi_version(int* major, int* minor, int* patch) {
  if (major) *major = HYMPI_VERSION_MAJOR;
  if (minor) *minor = HYMPI_VERSION_MINOR;
  if (patch) *patch = HYMPI_VERSION_PATCH;
}
