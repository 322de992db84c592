// SPDX-License-Identifier: BSD-3-Clause
// Element-wise reduction kernels used by the tree collectives: dst = a (op) b.
// Loops over plain arrays that the compiler vectorizes; `dst` may alias `a`.
#pragma once

#include <cstddef>

#include "hympi/types.hpp"

namespace hympi::core {

void combine(void* dst, const void* a, const void* b, std::size_t count, Datatype type, Op op);

}  // namespace hympi::core
