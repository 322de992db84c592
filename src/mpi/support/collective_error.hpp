// SPDX-License-Identifier: BSD-3-Clause
// Setup-time errors found by some ranks, reported on all: every rank passes what it found
// (empty: nothing); if any rank found something, every rank throws hympi::Error with the
// message of the lowest such rank, so no rank goes on into a collective the others left.
#pragma once

#include <mpi.h>

#include <string>

namespace hympi::mpi {

void throw_if_any(MPI_Comm comm, const std::string& local_error);

}  // namespace hympi::mpi
