// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/memory_order.hpp"
#include "core/wait.hpp"
#include "core/watchdog_thread.hpp"
#include "thread_team.hpp"

using namespace hympi::core;

namespace {

[[noreturn]] void throwing_watchdog(const std::string& message) { throw std::runtime_error(message); }

// Two threads bounce a sequence number through two channels; each round carries data
// written before the publish, which the other side must see after its wait.
void ping_pong(WaitPolicy policy, int rounds) {
  Channel to_a, to_b;
  uint64_t payload_a = 0, payload_b = 0;  // plain memory, ordered by the channels
  WaitConfig config{policy, true, 30.0, 0.0};
  std::thread b([&] {
    for (uint64_t k = 1; k <= uint64_t(rounds); ++k) {
      wait_at_least<TunedOrders>(to_b, k, config, {"test: b", 1, 0});
      ASSERT_EQ(payload_b, k * 7);
      payload_a = k * 11;
      publish<TunedOrders>(to_a, k);
    }
  });
  for (uint64_t k = 1; k <= uint64_t(rounds); ++k) {
    payload_b = k * 7;
    publish<TunedOrders>(to_b, k);
    wait_at_least<TunedOrders>(to_a, k, config, {"test: a", 0, 1});
    ASSERT_EQ(payload_a, k * 11);
  }
  b.join();
}

}  // namespace

TEST(Wait, PingPongEveryPolicy) {
  for (WaitPolicy policy : {WaitPolicy::adaptive, WaitPolicy::spin, WaitPolicy::yield})
    ping_pong(policy, hympi::test::scaled(20000));
  ping_pong(WaitPolicy::sleep, hympi::test::scaled(500));  // futex wake-ups: slow by design
}

TEST(Wait, ReturnsAtOnceWhenAlreadyPublished) {
  Channel channel;
  publish<TunedOrders>(channel, 5);
  EXPECT_EQ(wait_at_least<TunedOrders>(channel, 3, WaitConfig{}, {"test", 0, 0}), 5u);
}

TEST(Wait, WatchdogNamesOperationRanksAndSequences) {
  auto previous = set_watchdog_handler(&throwing_watchdog);
  Channel channel;
  publish<TunedOrders>(channel, 41);
  WaitConfig config{WaitPolicy::adaptive, false, 0.2, 0.05};
  try {
    wait_at_least<TunedOrders>(channel, 42, config, {"barrier: release", 3, 1});
    FAIL() << "the watchdog did not fire";
  } catch (const std::runtime_error& e) {
    std::string text = e.what();
    EXPECT_NE(text.find("rank 3"), std::string::npos) << text;
    EXPECT_NE(text.find("barrier: release"), std::string::npos) << text;
    EXPECT_NE(text.find("for rank 1"), std::string::npos) << text;
    EXPECT_NE(text.find("expected sequence >= 42"), std::string::npos) << text;
    EXPECT_NE(text.find("observed 41"), std::string::npos) << text;
    EXPECT_NE(text.find("HYMPI_TIMEOUT"), std::string::npos) << text;
  }
  set_watchdog_handler(previous);
}

TEST(Wait, SleepingWaiterIsWokenByPublish) {
  Channel channel;
  WaitConfig config{WaitPolicy::sleep, false, 30.0, 0.0};
  std::atomic<bool> done{false};
  std::thread waiter([&] {
    wait_at_least<TunedOrders>(channel, 1, config, {"test", 1, 0});
    done.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(done.load());
  publish<TunedOrders>(channel, 1);
  waiter.join();
  EXPECT_TRUE(done.load());
}

// `adaptive` sleeps once it has waited sleep_after_s, but not in a wait that stands in for
// an MPI call's (`mpi_call`): that one polls and yields until the publish, as MPI's own
// blocking calls do, so no sleeper is ever counted on the channel.
TEST(Wait, AdaptiveNeverSleepsInAnMpiCall) {
  for (bool mpi_call : {false, true}) {
    Channel channel;
    WaitConfig config{WaitPolicy::adaptive, true, 30.0, 0.0};
    config.mpi_call = mpi_call;
    std::thread waiter([&] { wait_at_least<TunedOrders>(channel, 1, config, {"test", 1, 0}); });
    bool slept = false;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(mpi_call ? 50 : 10000);
    while (!slept && std::chrono::steady_clock::now() < until) {
      slept = channel.sleepers.load() > 0;
      std::this_thread::yield();
    }
    publish<TunedOrders>(channel, 1);
    waiter.join();
    EXPECT_EQ(slept, !mpi_call) << (mpi_call ? "an MPI call's wait slept" : "the thread wait never slept");
  }
}

TEST(WatchdogThreadDeathTest, FiresOnABlockingWaitThatNeverEnds) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        WatchdogThread watchdog(0.2, 5);
        watchdog.enter("allreduce among node leaders (MPI_Allreduce)");
        std::this_thread::sleep_for(std::chrono::seconds(5));  // the "blocking call"
      },
      "hympi watchdog: rank 5 waited 0 s in allreduce among node leaders \\(MPI_Allreduce\\) "
      "for another node's leader: the MPI operation among node leaders did not complete");
}

TEST(WatchdogThread, QuietWhenWaitsEndInTime) {
  WatchdogThread watchdog(0.2, 5);
  for (int i = 0; i < 3; ++i) {
    watchdog.enter("short wait");
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    watchdog.leave();
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // longer than the timeout, idle
}
