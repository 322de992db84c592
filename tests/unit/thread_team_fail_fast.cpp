// SPDX-License-Identifier: BSD-3-Clause
// A team whose rank 0 fails an assertion while rank 1 waits for it: the test must end at
// once with the assertion's message (ctest unit.thread_team_fails_fast expects the failure
// within its timeout; without ThreadTeam's fail-fast, rank 1 would wait forever).
#include <atomic>
#include <thread>

#include <gtest/gtest.h>

#include "thread_team.hpp"

namespace hympi::test {

TEST(ThreadTeam, FailureInOneThreadEndsTheTeam) {
  ThreadTeam team(2, 64);
  std::atomic<bool> done{false};  // never set: rank 0 fails before it would
  team.run([&](int rank) {
    if (rank == 0) {
      ASSERT_EQ(1, 2) << "deliberate failure in rank 0";
      done.store(true);
    } else {
      while (!done.load()) std::this_thread::yield();
    }
  });
}

}  // namespace hympi::test
