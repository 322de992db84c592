// SPDX-License-Identifier: BSD-3-Clause
// The thread backend of the core protocols: N threads stand in for the N ranks of a node,
// plain aligned memory for their shared segments. Fast, and ThreadSanitizer can see it.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "core/coll/collective_block.hpp"

namespace hympi::test {

class ThreadTeam {
 public:
  ThreadTeam(int size, std::size_t buffer_bytes);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const { return int(participants_.size()); }
  const std::vector<core::Participant>& participants() const { return participants_; }
  std::vector<int> ranks() const;

  /// Runs body(rank) on size() threads; rethrows the first exception after all joined. A
  /// failed gtest assertion in any thread ends the test process at once with its message.
  void run(const std::function<void(int rank)>& body);

 private:
  std::vector<core::Participant> participants_;
  std::vector<void*> allocations_;
};

/// Iteration counts are divided by HYMPI_UNIT_SCALE (ThreadSanitizer runs use 10).
int scaled(int iterations);

/// A short pseudo-random pause (0 to ~20 us) on some calls, to shuffle arrival orders.
void jitter(unsigned& state);

}  // namespace hympi::test
