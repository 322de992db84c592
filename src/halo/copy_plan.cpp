#include "halo/copy_plan.hpp"

#include <cstdint>
#include <cstring>

namespace hympi::halo {

CopyPlan::CopyPlan(std::span<const int> src, std::span<const int> dst, std::size_t points,
                   std::size_t point_bytes) {
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
  bytes_ = points * point_bytes;
}

void CopyPlan::run(const std::byte* src, std::byte* dst) const {
  for (const Segment& s : segments_) {
    // Index-gathered scalars are the common small case: copy them without a call.
    if (s.bytes == 8) std::memcpy(dst + s.to, src + s.from, 8);
    else if (s.bytes == 4) std::memcpy(dst + s.to, src + s.from, 4);
    else std::memcpy(dst + s.to, src + s.from, s.bytes);
  }
}

}  // namespace hympi::halo
