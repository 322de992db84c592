// SPDX-License-Identifier: BSD-3-Clause
// What hympi's own components (the ghost update) need from a Context beyond its public
// API: the wait settings every protocol of the Context uses.
#pragma once

#include "core/wait.hpp"
#include "hympi/context.hpp"

namespace hympi::detail {

struct ContextAccess {
  static core::WaitConfig wait(const Context& context);
};

}  // namespace hympi::detail
