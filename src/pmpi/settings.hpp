// SPDX-License-Identifier: BSD-3-Clause
// The PMPI library's settings, from the environment, read once per process:
//   HYMPI_PMPI=all | none | a comma-separated list of barrier,bcast,reduce,allreduce,
//              neighbor_alltoall,neighbor_alltoallv (default: the four collectives; the
//              neighbourhood calls beat the MPI's own only in part of the cases measured,
//              BENCHMARKS.md: a program opts in)
//   HYMPI_PMPI_AFTER=N  a communicator's Context is made at its (N+1)-th intercepted call
//                       (default 1000: about what a Context's set-up costs in calls saved)
//   HYMPI_PMPI_MAX_BYTES=N  calls moving more than N bytes per rank go to MPI (default:
//                       per operation, the sizes up to which hympi was measured faster,
//                       kMeasuredMaxBytes; "unlimited" for none); for a neighbourhood call,
//                       each message above N bytes goes by MPI, the others through hympi
//   HYMPI_PMPI_REPORT=1 rank 0 prints, at MPI_Finalize, where the calls went
// A malformed value stops the job (MPI_Abort) with a message that names it.
#pragma once

#include <array>
#include <cstddef>
#include <limits>

#include "pmpi/paths.hpp"

namespace hympi::pmpi {

inline constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();
// Up to these bytes per rank (per message for the neighbourhood calls) hympi was measured
// faster than the MPI's own call, by Operation (bench/scripts/pmpi_compare.py, BENCHMARKS.md
// "Unchanged MPI programs under libhympi_pmpi").
inline constexpr std::array<std::size_t, kOperations> kMeasuredMaxBytes = {kUnlimited, 16384, 16384,
                                                                           kUnlimited, 16384, 16384};

// What is intercepted without HYMPI_PMPI, by Operation.
inline constexpr std::array<bool, kOperations> kDefaultOperations = {true, true, true, true, false, false};

struct Settings {
  std::array<bool, kOperations> intercepted = kDefaultOperations;  // by Operation
  long after = 1000;
  std::array<std::size_t, kOperations> max_bytes = kMeasuredMaxBytes;  // by Operation
  bool report = false;
  bool thread_multiple = false;  // the program runs at MPI_THREAD_MULTIPLE
};

/// Read at the first call (after MPI_Init: it asks MPI for the thread level).
const Settings& settings();

}  // namespace hympi::pmpi
