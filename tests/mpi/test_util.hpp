// Small helpers of the MPI test programs.
#pragma once

#include <mpi.h>

#include <cstdlib>

namespace hympi::test {

inline int world_rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int world_size() {
  int s;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}
/// An integer from the environment (test sizes set by ctest), or `fallback`.
inline long env_long(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atol(v) : fallback;
}

}  // namespace hympi::test
