// SPDX-License-Identifier: BSD-3-Clause
// The watchdog for waits that cannot poll, such as a blocking MPI call among node leaders
// or a collective set-up's: the waiting thread marks the start and the end of the wait; a
// helper thread wakes every quarter of the timeout and, when one wait has lasted longer
// than the timeout, calls the watchdog handler (the same message and handler as
// core::wait_at_least's watchdog).
//
// Invariants: only the owner thread calls enter/leave; `since_ns_` is 0 outside a wait.
// The helper reads it with relaxed loads: a stale value delays the alarm by one period at
// most, and no data is handed over through it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "core/wait.hpp"

namespace hympi::core {

class WatchdogThread {
 public:
  /// `self`: this rank in messages; `peer` and `what_missing`: whom its waits wait for
  /// and what did not happen (WaitSite, fire_watchdog). Starts the helper thread.
  WatchdogThread(double timeout_s, int self, int peer = kNodeLeaderPeer,
                 const char* what_missing = "the MPI operation among node leaders did not complete");
  ~WatchdogThread();
  WatchdogThread(const WatchdogThread&) = delete;
  WatchdogThread& operator=(const WatchdogThread&) = delete;

  void enter(const char* operation);
  void leave();

 private:
  void watch();

  const double timeout_s_;
  const int self_, peer_;
  const char* const what_missing_;
  std::atomic<int64_t> since_ns_{0};
  std::atomic<const char*> operation_{nullptr};
  std::mutex mutex_;
  std::condition_variable stop_signal_;
  bool stopping_ = false;
  std::thread thread_;
};

/// Runs `call()` (a blocking call; returns its result) with `watchdog` (may be null) over it,
/// also when it throws.
template <class Call>
auto watched(WatchdogThread* watchdog, const char* operation, Call call) {
  struct Leave {
    WatchdogThread* watchdog;
    ~Leave() {
      if (watchdog) watchdog->leave();
    }
  } leave{watchdog};
  if (watchdog) watchdog->enter(operation);
  return call();
}

}  // namespace hympi::core
