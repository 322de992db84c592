// SPDX-License-Identifier: BSD-3-Clause
// hympi_set_message_handler(): the C face of include/hympi/messages.hpp.
#include "core/messages.hpp"
#include "hympi.h"
#include "hympi/messages.hpp"

extern "C" void hympi_set_message_handler(hympi_message_handler handler, void* user_data) {
  hympi::set_message_handler(handler, user_data);
}

extern "C" void hympi_default_message_handler(const char* message, void* user_data) {
  hympi::default_message_handler(message, user_data);
}

extern "C" void hympi_emit_message(const char* message) {
  hympi::core::emit_message(message ? message : "");
}
