// SPDX-License-Identifier: BSD-3-Clause
// Copy plans (src/halo/copy_plan.hpp), MPI-free: contiguous runs become one memcpy each,
// scattered ids a per-point loop, and both move the same bytes as a plain loop would.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "halo/copy_plan.hpp"

using hympi::halo::CopyPlan;

namespace {

/// Point i goes from src[i] to dst[i] (empty: consecutive), `point_bytes` each: the reference.
std::vector<std::byte> copy_by_hand(const std::vector<std::byte>& from, std::vector<std::byte> to,
                                    const std::vector<int>& src, const std::vector<int>& dst, std::size_t points,
                                    std::size_t point_bytes) {
  for (std::size_t i = 0; i < points; ++i) {
    const std::size_t s = src.empty() ? i : std::size_t(src[i]), d = dst.empty() ? i : std::size_t(dst[i]);
    std::memcpy(to.data() + d * point_bytes, from.data() + s * point_bytes, point_bytes);
  }
  return to;
}

std::vector<std::byte> numbered(std::size_t bytes) {
  std::vector<std::byte> v(bytes);
  for (std::size_t i = 0; i < bytes; ++i) v[i] = std::byte(i * 7 + 3);
  return v;
}

/// Runs the plan and compares with copy_by_hand; returns the plan's copies().
std::size_t check(const std::vector<int>& src, const std::vector<int>& dst, std::size_t points,
                  std::size_t point_bytes, std::size_t vector_points) {
  const CopyPlan plan(src, dst, points, point_bytes);
  EXPECT_EQ(plan.bytes(), points * point_bytes);
  const std::vector<std::byte> from = numbered(vector_points * point_bytes);
  std::vector<std::byte> to(vector_points * point_bytes, std::byte(0xee));
  const std::vector<std::byte> expected = copy_by_hand(from, to, src, dst, points, point_bytes);
  plan.run(from.data(), to.data());
  EXPECT_EQ(to, expected) << "point size " << point_bytes;
  return plan.copies();
}

}  // namespace

TEST(CopyPlan, ContiguousIdsAreOneMemcpy) {
  EXPECT_EQ(check({3, 4, 5, 6}, {}, 4, 8, 10), 1u);   // pack
  EXPECT_EQ(check({}, {6, 7, 8, 9}, 4, 8, 10), 1u);   // unpack
}

TEST(CopyPlan, LongRunsStayRuns) {
  EXPECT_EQ(check({0, 1, 2, 3, 10, 11, 12, 13}, {}, 8, 8, 16), 2u);
}

TEST(CopyPlan, ScatteredIdsArePointByPointForEveryPointSize) {
  const std::vector<int> ids{9, 2, 7, 0, 5, 3};
  for (std::size_t point_bytes : {4, 8, 12, 16, 24, 40}) {
    EXPECT_EQ(check(ids, {}, ids.size(), point_bytes, 10), ids.size());
    EXPECT_EQ(check({}, ids, ids.size(), point_bytes, 10), ids.size());
    EXPECT_EQ(check(ids, {1, 0, 3, 2, 5, 4}, ids.size(), point_bytes, 10), ids.size());
  }
}

TEST(CopyPlan, EmptyPlanCopiesNothing) {
  const CopyPlan plan({}, {}, 0, 8);
  EXPECT_EQ(plan.bytes(), 0u);
  EXPECT_EQ(plan.copies(), 0u);
  plan.run(nullptr, nullptr);
}
