// SPDX-License-Identifier: BSD-3-Clause
// hympi's own communicators carry a name that says so ("hympi: <what>"), so that the PMPI
// library (src/pmpi) leaves the calls hympi makes on them to MPI, whichever copy of hympi
// made them (a program linking hympi and preloading libhympi_pmpi holds two). A name, not
// an attribute: attribute keys are per copy of the library, a name is the communicator's.
#pragma once

#include <mpi.h>

namespace hympi::mpi {

/// Names `comm` "hympi: <what>" (also what MPI tools and debuggers show).
void name_internal(MPI_Comm comm, const char* what);
/// Whether `comm` is one of hympi's own.
bool is_internal(MPI_Comm comm);

}  // namespace hympi::mpi
