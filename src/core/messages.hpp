// SPDX-License-Identifier: BSD-3-Clause
// hympi's messages, through the handler of include/hympi/messages.hpp.
#pragma once

#include <string>

namespace hympi::core {

/// Gives `message` to the handler set by hympi::set_message_handler (stderr by default).
void emit_message(const std::string& message);

}  // namespace hympi::core
