// SPDX-License-Identifier: BSD-3-Clause
// The pipelined allreduce (TreeCollective::pipelined_allreduce, in pipelined_allreduce.cpp).
//
// Medium allreduce (a chunk of 2 kPieceBytes up to sliced_min_bytes, two or more
// participants, no leader step: one node): the tree's two transfers of the vector (up to
// the root, the result back down) would run one after the other. Instead the chunk goes
// in J = min(bytes / kPieceBytes, SweepCounter::kSlot) pieces, each starting on a
// cache line at the same offset of every buffer, piece j with sequence number s + j of
// the sweep's slot: every non-root rank runs the up sweeps of all pieces, then their down
// sweeps; the root runs piece j down as soon as it has reduced it. So the result of piece
// j travels down while piece j+1 is reduced (at 2 ranks, 8 KiB: 1.07 -> 0.96 of MPICH
// 5's MPI_Allreduce in its fast launches, BENCHMARKS.md).
//  - Slots: every sweep (of any protocol on these blocks) takes a slot of kSlot numbers
//    from the SweepCounter; a plain sweep uses its first. Ranks whose counts differ cut
//    different numbers of pieces, yet take the same slot, and the CallDesc check of piece
//    0 (the first number, on every rank) fails them all there: a rank stops its pieces at
//    the first failed one, so nobody waits for a piece another rank never sends.
//  - Reuse safety as for a sweep (tree_sweep.hpp), per piece: piece j touches only bytes
//    [at, at + len) of each buffer; a rank writes them in the up of piece j only after its
//    children published piece j of this call (they finished the last call), and a child
//    reads the root's piece j only after the root published its down; channels only grow,
//    and an acquire of s + j also orders every earlier piece's writes.
//  - Determinism: per element the same order as the tree's (own value, children in slot
//    order), so the bits are those of the unpipelined tree.
#pragma once

#include <cstddef>

namespace hympi::core {

// Measured at 2 ranks against MPICH 5 (3 launches): 1 KiB pieces lost at 8 KiB (8
// pieces: 1.12 of MPI against 1.04 whole), 2 KiB pieces won at 4-12 KiB; 2 KiB in two
// pieces of 1 KiB gained nothing.
inline constexpr std::size_t kPieceBytes = 2048;

}  // namespace hympi::core
