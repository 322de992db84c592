// SPDX-License-Identifier: BSD-3-Clause
// How many intercepted calls went through hympi and how many fell through to MPI, and why,
// per operation and size class; summed over the ranks and printed by rank 0 at
// MPI_Finalize when HYMPI_PMPI_REPORT=1.
#pragma once

#include <mpi.h>

#include <cstddef>

#include "pmpi/paths.hpp"

namespace hympi::pmpi {

/// Counts a call of `count` elements of `type` (none for a barrier) when HYMPI_PMPI_REPORT
/// is set; else returns at once: the tally costs nothing a program does not print.
void count_call(Operation op, Path path, MPI_Datatype type = MPI_DATATYPE_NULL, int count = 0);
/// The same for a call of `bytes` per rank in all.
void count_bytes(Operation op, Path path, std::size_t bytes);
/// Whether calls are counted (HYMPI_PMPI_REPORT): then a caller sizes what count_bytes needs.
bool counting();
/// Collective over MPI_COMM_WORLD (called from MPI_Finalize, before PMPI_Finalize).
void print_report();

}  // namespace hympi::pmpi
