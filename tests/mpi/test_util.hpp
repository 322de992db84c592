// SPDX-License-Identifier: BSD-3-Clause
// Small helpers of the MPI test programs.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "hympi/context.hpp"

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

/// One Context for the whole test program, freed before MPI_Finalize (by the environment).
inline std::unique_ptr<hympi::Context> g_context;
inline hympi::Context& context() {
  if (!g_context) g_context = std::make_unique<hympi::Context>(MPI_COMM_WORLD);
  return *g_context;
}
struct FreeContext : ::testing::Environment {
  void TearDown() override { g_context.reset(); }
};
inline const auto* const g_free_context = ::testing::AddGlobalTestEnvironment(new FreeContext);

/// Shared-memory mappings of this process (MPI windows are files in /dev/shm here): one
/// "address range  file" line each, so that a failed comparison names what was left.
inline std::vector<std::string> shared_mappings() {
  std::ifstream maps("/proc/self/maps");
  std::vector<std::string> found;
  for (std::string line; std::getline(maps, line);)
    if (const auto at = line.find("/dev/shm"); at != std::string::npos)
      found.push_back(line.substr(0, line.find(' ')) + "  " + line.substr(at));
  return found;
}

/// Runs `f` (collective) and expects a hympi::Error containing `expected_part` on this rank.
template <class F>
void expect_error_on_every_rank(F f, const std::string& expected_part) {
  std::string message;
  try {
    f();
  } catch (const hympi::Error& e) {
    message = e.what();
  }
  EXPECT_NE(message.find(expected_part), std::string::npos) << "rank " << world_rank() << " got: '" << message << "'";
}

}  // namespace hympi::test
