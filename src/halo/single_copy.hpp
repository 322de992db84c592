// SPDX-License-Identifier: BSD-3-Clause
// The single-copy path of the shm strategy: a receiver copies a neighbour's points straight
// out of that neighbour's private array into its own ghosts, with Linux cross-memory attach
// (process_vm_readv, as Open MPI's smsc/cma and MPICH's CMA path do), instead of the two
// copies through a shared slot.
//
// Where it is used (the one table of the choice, decided per directed link, the same on
// both ends; shm_exchange.cpp runs it):
//   | condition                                               | why                                   |
//   |---------------------------------------------------------|---------------------------------------|
//   | vectors mode                                            | zero-copy buffers live in the slots   |
//   | message >= HYMPI_SINGLE_COPY bytes (all fields;         | below it the system call costs more   |
//   | Options::single_copy_bytes, 0: never)                   | than the copy it saves                |
//   | runs of >= kSingleCopyRun bytes on average, both sides   | one iovec per run                     |
//   | fields <= core::kChannelWords                           | the sender's addresses ride on `ready` |
//   | the receiver's probe read of the sender worked          | ptrace rules, seccomp, other kernels  |
// Anything else keeps the two copies; nothing else changes for the user.
//
// Invariants (docs/design.md, rule 3):
//  - The sender writes its arrays' addresses into the `ready` channel's metadata words
//    before the release store of call k; the receiver reads them after its acquire load,
//    copies, then publishes ack = k.
//  - The sender's end() waits for ack >= k from each single-copy receiver, because after
//    end() returns the user overwrites the points it sends (as shm_direct's sender does).
//    Its begin() therefore never waits on such a link.
//  - A read that fails during an update (the peer died, or its array was shorter than its
//    ids say) is a refusal of that update (halo/refusal.hpp): every rank gets the error.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <span>

#include "halo/copy_plan.hpp"

namespace hympi::halo {

/// Shortest average run (bytes) worth one iovec.
inline constexpr std::size_t kSingleCopyRun = 1024;

/// Lets every process of this user read this one's memory with process_vm_readv where the
/// Yama LSM restricts it to descendants (prctl PR_SET_PTRACER_ANY, as Open MPI does); a
/// no-op elsewhere. Once per process.
void allow_single_copy_readers();

/// Reads `bytes` at `remote` in process `pid` and compares them with `expected`: whether
/// this process may use process_vm_readv on that one.
bool single_copy_probe(pid_t pid, const void* remote, const void* expected, std::size_t bytes);

/// Copies `plan`'s runs from `src` in process `pid` to `dst` here (one system call per 128
/// runs). Returns 0, or the errno of the failed call (a short read is EFAULT; a plan that
/// copies point by point, without runs, is EINVAL).
int single_copy_read(pid_t pid, const CopyPlan& plan, const std::byte* src, std::byte* dst);

}  // namespace hympi::halo
