// SPDX-License-Identifier: BSD-3-Clause
// Copy plans (src/halo/copy_plan.hpp), MPI-free: contiguous runs become one memcpy each,
// scattered ids a per-point loop, and both move the same bytes as a plain loop would.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/copy.hpp"
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

/// Bytes that do not repeat within these sizes: a copy shifted by any amount differs.
std::vector<std::byte> unrepeated(std::size_t bytes) {
  std::vector<std::byte> v(bytes);
  std::uint32_t x = 12345;
  for (auto& b : v) b = std::byte((x = x * 1664525u + 1013904223u) >> 24);
  return v;
}

/// Runs the plan and compares with copy_by_hand; returns the plan's copies().
std::size_t check(const std::vector<int>& src, const std::vector<int>& dst, std::size_t points,
                  std::size_t point_bytes, std::size_t vector_points) {
  const CopyPlan plan(src, dst, points, point_bytes);
  EXPECT_EQ(plan.bytes(), points * point_bytes);
  const std::vector<std::byte> from = unrepeated(vector_points * point_bytes);
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

// core::copy_bytes, which a contiguous run goes through: the same bytes as memcpy at every
// distance between destination and source modulo 4 KiB that it treats apart (1-63: backwards)
// and around it, for sizes below, at and above 2 KiB and 1 MiB, and nothing written outside.
TEST(CopyBytes, EveryShortDistanceAndSize) {
  const std::size_t page = 4096;
  const std::size_t longest = hympi::core::kLongCopy + 64;
  const std::vector<std::byte> from = unrepeated(longest + 3 * page);
  for (std::size_t n : {std::size_t(0), std::size_t(1), hympi::core::kShortCopy - 1, hympi::core::kShortCopy,
                        hympi::core::kShortCopy + 1, std::size_t(3 * 2048 + 5), std::size_t(4096 + 64),
                        std::size_t(65536 + 3), hympi::core::kLongCopy, longest})
    for (std::size_t distance : {0, 1, 7, 8, 15, 16, 33, 63, 64, 65, 4095}) {
      std::vector<std::byte> to(n + 2 * page, std::byte{0xEE});
      // Source and destination `distance` apart modulo 4 KiB, whatever the vectors' addresses.
      const auto address = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
      std::byte* dst = to.data() + (page - address(to.data()) % page);
      const std::byte* src = from.data() + (page - address(from.data()) % page) + (page - distance) % page;
      hympi::core::copy_bytes(dst, src, n);
      ASSERT_EQ(std::memcmp(dst, src, n), 0) << n << " bytes at distance " << distance;
      for (const std::byte* p = to.data(); p < dst; ++p) ASSERT_EQ(*p, std::byte{0xEE});
      for (const std::byte* p = dst + n; p < to.data() + to.size(); ++p) ASSERT_EQ(*p, std::byte{0xEE});
      ASSERT_EQ((address(dst) - address(src)) % page, distance);
    }
}

// Overlapping buffers at a short distance (destination 8 bytes after the source modulo
// 4 KiB, above or below it): as memmove (no caller should pass them; glibc's memcpy took
// them so).
TEST(CopyBytes, OverlapIsMemmove) {
  for (std::ptrdiff_t shift : {8, -4088}) {
    std::vector<std::byte> buffer = unrepeated(3 * 65536), expected = buffer;
    std::byte* src = buffer.data() + 65536;
    std::memmove(expected.data() + 65536 + shift, expected.data() + 65536, 65536);
    hympi::core::copy_bytes(src + shift, src, 65536);
    ASSERT_EQ(buffer, expected) << "shift " << shift;
  }
}
