// SPDX-License-Identifier: BSD-3-Clause
// A claimed record in node-shared memory: several ranks of a node may try to post a
// message at once; the first claim wins and writes it once, every other rank reads it
// once it is posted. A refused ghost update (src/halo/refusal.cpp) lives in one.
//
// Invariants:
//  - `state` goes free (0) -> claimed -> posted, never back; exactly one claim succeeds.
//  - `stop` and `text` are written only by the claimant, before the publishing store of
//    `posted`, and read only after an observing load that saw `posted`.
//  - The record is zero (free) before any rank learns where it is (hympi's arena zeroes
//    what it allocates).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <thread>

namespace hympi::core {

struct alignas(64) RecordWords {
  static constexpr std::size_t kTextBytes = 1024;
  std::atomic<uint64_t> state;  // kFree, kClaimed, kPosted
  uint64_t stop;                // a number the claimant hands to every reader
  char text[kTextBytes];        // the message, NUL-terminated
};

template <class Orders>
class ClaimedRecord {
 public:
  static constexpr uint64_t kFree = 0, kClaimed = 1, kPosted = 2;

  explicit ClaimedRecord(RecordWords& words) : w_(words) {}

  /// True for exactly one caller over the record's life: it must then post().
  bool claim() {
    uint64_t free = kFree;
    // hint: the claim only picks the writer; what readers read is published by post().
    return w_.state.compare_exchange_strong(free, kClaimed, Orders::hint, Orders::hint);
  }

  /// The claimant's message (cut to the record's size) and number.
  void post(std::string_view text, uint64_t stop) {
    const std::size_t n = std::min(text.size(), RecordWords::kTextBytes - 1);
    std::memcpy(w_.text, text.data(), n);
    w_.text[n] = '\0';
    w_.stop = stop;
    w_.state.store(kPosted, Orders::publish);  // publish: text and stop are visible with kPosted
  }

  bool posted() const {
    return w_.state.load(Orders::observe) == kPosted;  // observe: text and stop are read after it
  }

  /// For a rank whose claim failed: the claimant writes a short text, then posts.
  void wait_posted() const {
    while (!posted()) std::this_thread::yield();
  }

  /// After posted() or wait_posted().
  const char* text() const { return w_.text; }
  uint64_t stop() const { return w_.stop; }

 private:
  RecordWords& w_;
};

}  // namespace hympi::core
