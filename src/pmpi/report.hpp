// SPDX-License-Identifier: BSD-3-Clause
// How many intercepted calls went through hympi and how many fell through to MPI, and why,
// per operation and size class; summed over the ranks and printed by rank 0 at
// MPI_Finalize when HYMPI_PMPI_REPORT=1.
#pragma once

#include <cstddef>

#include "pmpi/paths.hpp"

namespace hympi::pmpi {

void count_call(Operation op, std::size_t bytes, Path path);
/// Collective over MPI_COMM_WORLD (called from MPI_Finalize, before PMPI_Finalize).
void print_report();

}  // namespace hympi::pmpi
