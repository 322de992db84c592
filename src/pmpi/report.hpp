// SPDX-License-Identifier: BSD-3-Clause
// How many intercepted calls went through hympi and how many fell through to MPI, and why,
// per operation and size class; summed over the ranks and printed by rank 0 at
// MPI_Finalize when HYMPI_PMPI_REPORT=1. A process whose MPI_Init the library did not see
// (a program of MPI sessions only) prints its own at exit.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>

#include "pmpi/datatypes.hpp"
#include "pmpi/paths.hpp"
#include "pmpi/settings.hpp"

namespace hympi::pmpi {

/// Counts a call of `bytes` per rank in all (HYMPI_PMPI_REPORT set).
void count_bytes(Operation op, Path path, std::size_t bytes);
/// Whether calls are counted (HYMPI_PMPI_REPORT): then a caller sizes what count_bytes needs.
inline bool counting() { return settings().report; }
/// Counts a call of `count` elements of `type` (none for a barrier) when HYMPI_PMPI_REPORT
/// is set; else returns at once: the tally costs nothing a program does not print.
inline void count_call(Operation op, Path path, MPI_Datatype type = MPI_DATATYPE_NULL, std::int64_t count = 0) {
  if (counting()) count_bytes(op, path, bytes_of(type, count));
}
/// From MPI_Finalize, before PMPI_Finalize: collective over MPI_COMM_WORLD (rank 0 prints
/// the sums) when MPI_Init went through the library, else this process's own.
void print_report();
/// At exit (atexit, HYMPI_PMPI_REPORT=1): this process's own, when the library saw no
/// MPI_Init (and so MPI_Finalize printed none).
void print_unprinted_report();

}  // namespace hympi::pmpi
