// SPDX-License-Identifier: BSD-3-Clause
// A channel: one sequence word plus the few metadata words written together with it,
// alone in its own 128-byte block (two cache lines, so neither the adjacent-line
// prefetcher nor a neighbouring channel causes false sharing).
//
// Invariants (docs/design.md, rules 1 and 2):
//  - A channel lives in the shared segment of the rank that WAITS on it; the writer makes
//    one remote store of the sequence word, the waiter spins on local memory.
//  - `seq` only grows: call k publishes k. No flag is ever reset, so consecutive calls
//    need no trailing barrier.
//  - Metadata words are written (relaxed) before the release store of `seq` and read
//    after the acquire load that observed it; they are never read for an older `seq`.
//  - `sleepers` counts waiters blocked in the futex; the publisher wakes them when it is
//    non-zero (best effort: waiters sleep with a timeout, so a missed wake costs a
//    bounded delay, never a hang).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace hympi::core {

inline constexpr std::size_t kChannelBytes = 128;
inline constexpr std::size_t kChannelWords = 13;   // metadata words beside seq/sleepers

struct alignas(kChannelBytes) Channel {
  std::atomic<uint64_t> seq{0};
  std::atomic<uint32_t> sleepers{0};
  uint32_t reserved = 0;
  std::atomic<uint64_t> words[kChannelWords] = {};
};

static_assert(std::atomic<uint64_t>::is_always_lock_free,
              "hympi needs lock-free 64-bit atomics: they must work across processes");
static_assert(std::atomic<uint32_t>::is_always_lock_free);
static_assert(sizeof(Channel) == kChannelBytes);
static_assert(alignof(Channel) == kChannelBytes);

}  // namespace hympi::core
