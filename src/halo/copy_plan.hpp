// SPDX-License-Identifier: BSD-3-Clause
// Packing and unpacking, planned once per pattern and run every update. Runs of points
// that are contiguous on both sides become one memcpy each (Fig. 8: with a good local
// numbering a neighbour's data is one run); when runs are short (scattered ids, as in
// unstructured meshes) the plan keeps one index pair per point and copies with a loop
// specialized for the point size (4, 8, 12, 16, 24 bytes: a scalar, or chunk 3).
#pragma once

#include <cstddef>
#include <cstdint>
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
  /// memcpy calls per run (1 for a contiguous message), or the point count when copied
  /// point by point.
  std::size_t copies() const { return by_point_ ? from_.size() : segments_.size(); }
  /// The runs (byte offsets on both sides); empty when copied point by point.
  std::span<const Segment> segments() const { return segments_; }

 private:
  std::vector<Segment> segments_;     // runs mode
  std::vector<uint32_t> from_, to_;   // point mode: point indices on each side
  std::size_t point_bytes_ = 0;
  std::size_t bytes_ = 0;
  bool by_point_ = false;
};

}  // namespace hympi::halo
