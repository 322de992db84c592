// SPDX-License-Identifier: BSD-3-Clause
#include "thread_team.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <atomic>
#include <cstdio>
#include <new>
#include <thread>

#include <gtest/gtest.h>

namespace hympi::test {
namespace {

/// Teams running now. A failed assertion in one member returns from its body only: the
/// others would wait for it in the protocol until the watchdog. While a team runs, a
/// failure ends the test process at once with the assertion's message (gtest_discover_tests
/// runs each test in a process of its own, so this fails that test alone).
std::atomic<int> g_teams_running{0};  // relaxed: read by the failing thread of the team itself

class FailFast : public ::testing::EmptyTestEventListener {
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed() || g_teams_running.load(std::memory_order_relaxed) == 0) return;
    std::fprintf(stderr, "%s:%d: Failure in a thread of a team\n%s\nthread team: stopped at the first failure\n",
                 result.file_name() ? result.file_name() : "?", result.line_number(), result.message());
    std::fflush(stderr);
    std::_Exit(1);
  }
};

void install_fail_fast() {
  static const bool installed = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new FailFast);  // gtest owns it
    return true;
  }();
  (void)installed;
}

}  // namespace

ThreadTeam::ThreadTeam(int size, std::size_t buffer_bytes) {
  for (int r = 0; r < size; ++r) {
    void* block = std::aligned_alloc(alignof(core::CollectiveBlock), sizeof(core::CollectiveBlock));
    std::size_t rounded = (buffer_bytes + 4095) / 4096 * 4096;
    void* buffer = std::aligned_alloc(4096, rounded ? rounded : 4096);
    allocations_.push_back(block);
    allocations_.push_back(buffer);
    participants_.push_back({new (block) core::CollectiveBlock(), static_cast<std::byte*>(buffer)});
  }
}

ThreadTeam::~ThreadTeam() {
  for (auto& p : participants_) p.block->~CollectiveBlock();
  for (void* a : allocations_) std::free(a);
}

std::vector<int> ThreadTeam::ranks() const {
  std::vector<int> r(participants_.size());
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = int(i);
  return r;
}

void ThreadTeam::run(const std::function<void(int)>& body) {
  install_fail_fast();
  g_teams_running.fetch_add(1, std::memory_order_relaxed);  // relaxed: see g_teams_running
  std::vector<std::exception_ptr> errors(participants_.size());
  std::vector<std::thread> threads;
  for (int r = 0; r < size(); ++r)
    threads.emplace_back([&, r] {
      try {
        body(r);
      } catch (...) {
        errors[r] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  g_teams_running.fetch_sub(1, std::memory_order_relaxed);  // relaxed: see g_teams_running
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

int scaled(int iterations) {
  const char* scale = std::getenv("HYMPI_UNIT_SCALE");
  int s = scale ? std::atoi(scale) : 1;
  return s > 1 ? std::max(1, iterations / s) : iterations;
}

void jitter(unsigned& state) {
  state = state * 1103515245u + 12345u;
  unsigned r = (state >> 16) & 1023;
  if (r < 8) std::this_thread::sleep_for(std::chrono::microseconds(r * 3));
  else if (r < 64) std::this_thread::yield();
}

}  // namespace hympi::test
