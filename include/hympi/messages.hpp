// SPDX-License-Identifier: BSD-3-Clause
// Where hympi's own messages go: its warnings (a Halo destroyed between begin() and end(),
// an error while releasing an object inside MPI_Finalize) and its last words before it
// ends the job (the watchdog, a mismatch under HYMPI_VERIFY=0). Errors are never printed:
// they are thrown (C++, Python), returned (C) or given to ierr (Fortran).
//
//   hympi::set_message_handler(nullptr, nullptr);        // silence them
//   hympi::set_message_handler(&my_log, &my_logger);      // redirect them
//
// Default: stderr. Process-wide; set it before making hympi objects, from the thread that
// calls MPI.
#pragma once

namespace hympi {

/// `message` has no trailing newline; `user_data` is what was given with the handler.
using MessageHandler = void (*)(const char* message, void* user_data);

/// A null handler silences hympi's messages; default_message_handler restores stderr.
void set_message_handler(MessageHandler handler, void* user_data);
/// Writes `message` and a newline to stderr (the default).
void default_message_handler(const char* message, void* user_data);

}  // namespace hympi
