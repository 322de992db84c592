// SPDX-License-Identifier: BSD-3-Clause
// What hympi's own components (the ghost update) need from a Context beyond its public
// API: the wait settings every protocol of the Context uses, the node's shared memory its
// objects take their regions from, and the tag blocks their messages travel on.
#pragma once

#include "core/wait.hpp"
#include "hympi/context.hpp"
#include "mpi/node/shared_arena.hpp"
#include "mpi/support/tag_blocks.hpp"

namespace hympi::detail {

struct ContextAccess {
  static core::WaitConfig wait(const Context& context);
  static mpi::SharedArena& arena(Context& context);
  static mpi::TagBlocks& tag_blocks(Context& context);
};

}  // namespace hympi::detail
