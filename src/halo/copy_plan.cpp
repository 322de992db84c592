// SPDX-License-Identifier: BSD-3-Clause
#include "halo/copy_plan.hpp"

#include <cstring>

#include "core/copy.hpp"

namespace hympi::halo {
namespace {

/// Runs shorter than this on average: copy point by point.
constexpr std::size_t kShortRun = 4;

template <std::size_t B>
void copy_points(const std::byte* src, std::byte* dst, const uint32_t* from, const uint32_t* to,
                 std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    std::memcpy(dst + std::size_t(to[i]) * B, src + std::size_t(from[i]) * B, B);  // B is constant: a few moves
}

}  // namespace

CopyPlan::CopyPlan(std::span<const int> src, std::span<const int> dst, std::size_t points,
                   std::size_t point_bytes)
    : point_bytes_(point_bytes), bytes_(points * point_bytes) {
  auto at = [](std::span<const int> ids, std::size_t i) {
    return ids.empty() ? i : static_cast<std::size_t>(ids[i]);
  };
  for (std::size_t i = 0; i < points; ++i) {
    const std::size_t from = at(src, i) * point_bytes, to = at(dst, i) * point_bytes;
    if (!segments_.empty()) {
      Segment& last = segments_.back();
      if (last.from + last.bytes == from && last.to + last.bytes == to) {
        last.bytes += point_bytes;
        continue;
      }
    }
    segments_.push_back({from, to, point_bytes});
  }
  if (segments_.size() * kShortRun > points) {
    by_point_ = true;
    segments_.clear();
    segments_.shrink_to_fit();
    for (std::size_t i = 0; i < points; ++i) {
      from_.push_back(uint32_t(at(src, i)));
      to_.push_back(uint32_t(at(dst, i)));
    }
  }
}

void CopyPlan::run(const std::byte* src, std::byte* dst) const {
  if (!by_point_) {
    for (const Segment& s : segments_) core::copy_bytes(dst + s.to, src + s.from, s.bytes);
    return;
  }
  const std::size_t n = from_.size();
  switch (point_bytes_) {
    case 4: return copy_points<4>(src, dst, from_.data(), to_.data(), n);
    case 8: return copy_points<8>(src, dst, from_.data(), to_.data(), n);
    case 12: return copy_points<12>(src, dst, from_.data(), to_.data(), n);
    case 16: return copy_points<16>(src, dst, from_.data(), to_.data(), n);
    case 24: return copy_points<24>(src, dst, from_.data(), to_.data(), n);
    default:
      for (std::size_t i = 0; i < n; ++i)
        std::memcpy(dst + std::size_t(to_[i]) * point_bytes_, src + std::size_t(from_[i]) * point_bytes_,
                    point_bytes_);
  }
}

}  // namespace hympi::halo
