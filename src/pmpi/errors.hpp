// SPDX-License-Identifier: BSD-3-Clause
// A hympi error in an intercepted call goes where MPI's own would: to the communicator's
// error handler, with an error code of hympi's class whose string is hympi's message
// (MPI_Error_string gives it back; MPI_ERRORS_ARE_FATAL prints it and aborts).
#pragma once

#include <mpi.h>

namespace hympi::pmpi {

/// Calls comm's error handler with `message`; returns the code for the call to return.
int raise_error(MPI_Comm comm, const char* message);

}  // namespace hympi::pmpi
