// SPDX-License-Identifier: BSD-3-Clause
// A Halo's argument checks, each with the message the user sees. The set-up's arguments
// are checked collectively (the same error on every rank, docs/design.md, rule 7); the
// checks of a call throw on the rank that made it, before anything is sent.
#pragma once

#include <cstddef>
#include <span>

#include "halo/halo_parts.hpp"

namespace hympi::halo {

/// Collective: every rank passed the same strategy, mode, field count and pattern (else an
/// error naming them on every rank), and those are valid (then the same everywhere, so a
/// bad one throws on every rank). Returns `strategy`.
Strategy check_setup(const Pattern::Data& pattern, Strategy strategy, int fields, HaloMode mode);

/// The arrays of begin/end: one send and one receive array per field, the send arrays the
/// shared fields themselves where the strategy moves no private vectors, and the one-array
/// form (`one_array`: send and receive arrays the same) only for a pattern of one array.
void check_arrays(Arrays arrays, bool one_array, Strategy strategy, const HaloParts& parts);

/// The element type of the vectors or buffers the user passes.
void check_type(Datatype pattern, Datatype passed);

/// A zero-copy buffer's neighbour: an index into the pattern's `count` neighbours.
void check_neighbor(int neighbor, std::size_t count);

/// shared_field(f): only where the strategy has shared fields, and f one of them.
void check_shared_field(Strategy strategy, int f, int fields);

}  // namespace hympi::halo
