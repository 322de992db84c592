// SPDX-License-Identifier: BSD-3-Clause
#include "core/watchdog_thread.hpp"

#include <chrono>

namespace hympi::core {
namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

WatchdogThread::WatchdogThread(double timeout_s, int self, int peer, const char* what_missing)
    : timeout_s_(timeout_s), self_(self), peer_(peer), what_missing_(what_missing), thread_([this] { watch(); }) {}

WatchdogThread::~WatchdogThread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  stop_signal_.notify_one();
  thread_.join();
}

void WatchdogThread::enter(const char* operation) {
  operation_.store(operation, std::memory_order_relaxed);  // read only with since_ns_ != 0
  since_ns_.store(now_ns(), std::memory_order_relaxed);     // a late view delays the alarm only
}

void WatchdogThread::leave() {
  since_ns_.store(0, std::memory_order_relaxed);  // a late view could fire at most one
                                                  // period early on a wait that just ended
                                                  // after lasting the full timeout
}

void WatchdogThread::watch() {
  const auto period = std::chrono::duration<double>(timeout_s_ / 4);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_signal_.wait_for(lock, period, [this] { return stopping_; })) {
    const int64_t since = since_ns_.load(std::memory_order_relaxed);  // see enter()
    if (since == 0) continue;
    const double waited = double(now_ns() - since) * 1e-9;
    if (waited > timeout_s_) {
      const char* operation = operation_.load(std::memory_order_relaxed);  // see enter()
      fire_watchdog(WaitSite{operation, self_, peer_}, what_missing_, waited);
    }
  }
}

}  // namespace hympi::core
