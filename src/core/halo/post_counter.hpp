// SPDX-License-Identifier: BSD-3-Clause
// Words of the RMA baselines that live in node-shared memory beside MPI's windows.
//
// PostCounter (rma_pscw): a receiver counts the exposure epochs it has opened
// (MPI_Win_post) in a word of its own segment; a sender starts its access epoch
// (MPI_Win_start) only once the count shows this update's post, so MPI_Win_start never
// waits inside MPI on a receiver that has not posted yet.
//  - The word only grows: the k-th post stores k after MPI_Win_post returned.
//  - A sender that observed a count above the epochs it started knows the next post happened.
//
// SyncedFlag (rma_lock, Algorithm 8 with MPI_Win_sync): the data and flag stores are
// ordered by MPI_Win_sync around the flag, which is what that baseline measures; the flag
// word itself is only kept from tearing.
#pragma once

#include <atomic>
#include <cstdint>

namespace hympi::core {

template <class Orders>
struct PostCounter {
  static void post(uint64_t& word, uint64_t k) {
    std::atomic_ref<uint64_t>(word).store(k, Orders::publish);  // publish: the post is made before the count shows it
  }
  static bool posted_after(uint64_t& word, uint64_t started) {
    return std::atomic_ref<uint64_t>(word).load(Orders::observe) > started;  // observe: pairs with post()
  }
};

template <class Orders>
struct SyncedFlag {
  static void store(uint64_t& word, uint64_t k) {
    std::atomic_ref<uint64_t>(word).store(k, Orders::hint);  // hint: MPI_Win_sync orders it
  }
  static uint64_t load(uint64_t& word) {
    return std::atomic_ref<uint64_t>(word).load(Orders::hint);  // hint: MPI_Win_sync orders it
  }
};

}  // namespace hympi::core
