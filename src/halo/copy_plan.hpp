// Packing and unpacking as a list of byte segments: every maximal run of points that is
// contiguous on both sides becomes one memcpy (Fig. 8: with a good local ordering a
// neighbour's data is one segment). Built once per pattern, executed every update.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace hympi::halo {

struct Segment {
  std::size_t from, to, bytes;  // byte offsets into the source and the destination
};

class CopyPlan {
 public:
  CopyPlan() = default;
  /// Point i of the copy goes from point src[i] to point dst[i]; an empty span means
  /// "consecutive from 0" (a packed buffer). Both sides have `points` points.
  CopyPlan(std::span<const int> src, std::span<const int> dst, std::size_t points,
           std::size_t point_bytes);

  void run(const std::byte* src, std::byte* dst) const;
  std::size_t bytes() const { return bytes_; }
  std::size_t segments() const { return segments_.size(); }

 private:
  std::vector<Segment> segments_;
  std::size_t bytes_ = 0;
};

}  // namespace hympi::halo
