// SPDX-License-Identifier: BSD-3-Clause
// The sliced allreduce (TreeCollective::sliced_allreduce, in sliced_allreduce.cpp).
//
// Large allreduce (a chunk of at least sliced_min_bytes, two or more participants): the
// tree would make the root reduce the whole chunk while the others wait. Instead, per
// chunk of m elements, three sweeps without data and three data phases:
//   sweep 1 (checks the CallDesc)   everyone has finished every read of earlier calls
//   A: copy my input chunk into my buffer, all but my own slice (only I read it, from my input)
//   sweep 2                         every buffer holds its rank's input (but its own slice)
//   B: participant k reduces slice k = [k m / P, (k+1) m / P) of all P inputs (its own
//      from its input, the others' from their buffers), in participant order, into slice k
//      of the root's buffer
//   sweep 3 (leader step at the root on its buffer: the whole reduced chunk)
//   C: copy the root's buffer into out
// A sweep 1 or 2 that fails runs the leader step too (only then): the leaders' check
// carries the failure to the other nodes, whose leaders check in their sweep 3 or, with
// the tree, in their first sweep; each leader makes one check per failed call.
// Reuse safety: A writes my buffer only after sweep 1, when nobody reads it any more
// (earlier sweeps' down reads and C reads finished before their readers arrived at sweep
// 1). B writes slice k of the root's buffer, which only participant k reads in B (the
// root's input slice, read before it is overwritten in place; for k = 0 the root reads its
// own input instead, and A left that slice alone). B reads my input only for my slice,
// before C writes out: `in` may be `out`. C reads the root's buffer, which
// the root rewrites only after the next call's first sweep has gathered every arrival.
// Determinism: the order is fixed by participant index; all ranks copy the root's bits.
#pragma once

#include <cstddef>

namespace hympi::core {

// Measured at 2 ranks on application data: 4 KiB tree 2.15 us, sliced 2.35; 32 KiB tree
// 18.0 us, sliced 15.1; with the own slice no longer copied, slicing from 2 KiB still
// lost at 4 KiB (BENCHMARKS.md, "Each MPI at its best").
inline constexpr std::size_t kSlicedMinBytes = 16 * 1024;

}  // namespace hympi::core
