// SPDX-License-Identifier: BSD-3-Clause
// Off-cache timing (Hager & Wellein, "Introduction to High Performance Computing for
// Scientists and Engineers", section 10.5; the Intel MPI Benchmarks' -off_cache): every
// call of a contender works on buffers at the next place of a region twice the size of the
// last-level cache, so what it reads and writes comes from memory rather than from the
// cache where its previous call left it. Contenders run one after the other (method.hpp),
// so they share one region per rank: each contender's consecutive calls never reuse a
// place before the whole region went by.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hympi::bench {

/// The last-level cache of this machine: the largest data or unified cache hwloc reports;
/// 32 MiB when it reports none.
std::size_t last_level_cache_bytes();

struct OffCache {
  std::size_t llc_bytes = 0;  // 0: off-cache timing not asked for (buffers stay in place)
  bool on() const { return llc_bytes > 0; }
  std::size_t region_bytes() const { return 2 * llc_bytes; }
  /// "" in cache; else "OFF-CACHE: buffers rotated through 64 MiB (2 x the 32 MiB last-level cache)".
  std::string describe() const;
  /// The JSON records' "cache": "in-cache" or "off-cache", with llc_bytes and region_bytes.
  void annotate(nlohmann::json& record) const;
};

/// Places of `bytes` each, one after the other at a cache-line stride, spanning at least
/// `region` bytes (at least two places); written once (first touch) when made.
class Rotation {
 public:
  Rotation(std::size_t bytes, std::size_t region);
  /// The place of call k: k modulo the count of places.
  double* at(std::uint32_t k) { return storage_.data() + std::size_t(k % places_) * stride_; }
  std::size_t places() const { return places_; }

 private:
  std::size_t stride_ = 0, places_ = 0;  // stride in doubles
  std::vector<double> storage_;
};

}  // namespace hympi::bench
