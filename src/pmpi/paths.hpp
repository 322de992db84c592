// SPDX-License-Identifier: BSD-3-Clause
// The one table of the PMPI library's choices: which MPI calls it intercepts, and each way
// a call can go (through hympi, or to PMPI for a stated reason). The report names them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace hympi::pmpi {

enum class Operation : uint8_t { barrier, bcast, reduce, allreduce, neighbor_alltoall, neighbor_alltoallv };
inline constexpr std::size_t kOperations = 6;
inline constexpr std::array<const char*, kOperations> kOperationNames = {
    "barrier", "bcast", "reduce", "allreduce", "neighbor_alltoall", "neighbor_alltoallv"};
inline constexpr std::array<const char*, kOperations> kMpiNames = {
    "MPI_Barrier", "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Neighbor_alltoall", "MPI_Neighbor_alltoallv"};

// Where a call went. Every value but `hympi` is a fall-through to PMPI, for that reason.
enum class Path : uint8_t {
  hympi,              // served by the communicator's Context
  disabled,           // HYMPI_PMPI leaves this operation out
  invalid,            // an invalid communicator or count: MPI reports it
  thread_multiple,    // MPI_THREAD_MULTIPLE (MPI_Init on a rank, or a session): everything to MPI
  no_mpi_init,        // MPI_Init did not go through the library (a program of MPI sessions
                      // only, or another PMPI library in front): no settings compared
  intercommunicator,  // hympi serves intracommunicators only
  hympi_internal,     // one of hympi's own communicators ("hympi: ..."), used by hympi itself
  warming_up,         // the communicator has made fewer calls than HYMPI_PMPI_AFTER
  setup_failed,       // the Context could not be made for this communicator
  datatype,           // a reduction of a type hympi does not reduce, or a broadcast that is
                      // no whole number of 4-byte words (datatypes.hpp)
  op,                 // not MPI_SUM, MPI_PROD, MPI_MIN or MPI_MAX
  float_min_max,      // MPI_MIN or MPI_MAX of a floating-point type (datatypes.hpp)
  size,               // larger than the size up to which hympi was measured faster
  small,              // smaller than the size from which hympi was measured faster
  topology,           // neighbourhood calls: not a distributed graph or Cartesian grid, or a
                      // neighbour repeated or this rank itself (on some rank)
};
inline constexpr std::size_t kPaths = 15;
inline constexpr std::array<const char*, kPaths> kPathNames = {
    "hympi",
    "MPI: disabled by HYMPI_PMPI",
    "MPI: invalid argument",
    "MPI: MPI_THREAD_MULTIPLE",
    "MPI: no MPI_Init seen",
    "MPI: intercommunicator",
    "MPI: hympi's own communicator",
    "MPI: fewer calls than HYMPI_PMPI_AFTER",
    "MPI: no Context (set-up failed)",
    "MPI: datatype",
    "MPI: reduction operation",
    "MPI: MIN/MAX of floating point",
    "MPI: above HYMPI_PMPI_MAX_BYTES",
    "MPI: below HYMPI_PMPI_MIN_BYTES",
    "MPI: topology",
};

// Size classes of the report, by the bytes a rank contributes (count x type size; all its
// blocks for a neighbourhood call).
inline constexpr std::array<std::size_t, 3> kSizeLimits = {64, 4096, 262144};
inline constexpr std::array<const char*, 4> kSizeNames = {"<= 64 B", "<= 4 KiB", "<= 256 KiB", "> 256 KiB"};
inline std::size_t size_class(std::size_t bytes) {
  std::size_t c = 0;
  while (c < kSizeLimits.size() && bytes > kSizeLimits[c]) ++c;
  return c;
}

}  // namespace hympi::pmpi
