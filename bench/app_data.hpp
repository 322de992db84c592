// SPDX-License-Identifier: BSD-3-Clause
// The application around every ghost update the benchmark times: before an update a rank
// writes every point it sends with a new value, after it reads every ghost (a checksum,
// reduced and printed at the end). What an application pays around the update, and what
// makes the sent data dirty in the sender's cache and the ghosts cold in the receiver's:
// without it an update re-sends unchanged data and flatters single-copy readers. Values
// are a formula of (sender rank, element, iteration), so every receiver knows what each
// ghost must hold: the warm-up checks every contender with it. DataMode::cached keeps the
// old mode (data written once, nothing written or read between updates): the
// cache-resident best case, labelled as such. With off-cache timing (off_cache.hpp) every
// call of a contender that takes the application's vector uses the next place of a region
// larger than the last-level cache instead.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hympi/halo.hpp"
#include "method.hpp"
#include "off_cache.hpp"

namespace hympi::bench {

enum class DataMode : uint8_t { fresh, cached };

/// "fresh" or "cached" (the JSON records' "data").
const char* name_of(DataMode mode);
/// The label printed with every table of that mode.
const char* describe(DataMode mode);

struct DataOptions {
  DataMode mode = DataMode::fresh;
  OffCache off_cache;  // with fresh data only
  /// Allreduce, bcast and reduce in cache: the input and the output each start this many
  /// bytes after a 4 KiB boundary (a multiple of 8; -1: where the allocator puts them), so that
  /// copies whose speed depends on where buffers lie can be measured at a chosen layout.
  int page_offset = -1;
  /// Test hook: the contender of this name gets one ghost one iteration stale on the last
  /// rank, after its exchange (a wrong result the warm-up check must report).
  std::string broken;
};

/// The mode's label, then off-cache's when on.
std::string describe(const DataOptions& options);

class AppData {
 public:
  using VectorAt = std::function<double*(std::uint32_t iteration)>;  // the vector used at an iteration
  using Exchange = std::function<void(double* v, std::uint32_t iteration)>;

  /// Collective (each rank learns what its neighbours send it). Vectors hold
  /// local_points * chunk doubles of `pattern`.
  AppData(const Pattern& pattern, DataOptions options);
  AppData(const AppData&) = delete;
  AppData& operator=(const AppData&) = delete;

  /// What `rank` writes into its element `element` at `iteration`: an integer below 2^53,
  /// exact in a double, different for every rank (mod 8192), element (< 2^28) and
  /// iteration (mod 4096).
  static double value(int rank, std::size_t element, std::uint32_t iteration);
  /// Every element this rank sends, with its value at `iteration`.
  void write_sent(double* v, std::uint32_t iteration) const;
  /// Every ghost element, read: the sum of their bit patterns.
  std::uint64_t read_ghosts(const double* v) const;
  /// The first ghost element not holding what its sender wrote at `iteration`, or -1.
  long first_wrong(const double* v, std::uint32_t iteration) const;

  /// One application step per call. Fresh data: write_sent (iteration 1, 2, ...), the
  /// exchange, read_ghosts. Cached: the exchange alone, on data written once at iteration
  /// 0. Checked after each warm-up call unless `exchange` is empty (nothing is moved).
  Contender contender(const std::string& name, VectorAt vector_at, Exchange exchange);
  /// The contender's vector is `v`; off-cache, the rotation's places instead (v unused).
  Contender contender(const std::string& name, double* v, Exchange exchange);

  /// Collective: the checksums of every call on every rank, summed (valid on rank 0).
  std::uint64_t checksum() const;
  DataMode mode() const { return options_.mode; }
  bool off_cache() const { return rotation_ != nullptr; }
  const Pattern& pattern() const { return pattern_; }
  /// Per neighbour: the ids it sends this rank (ghost recv[j] is its point [j]).
  const std::vector<std::vector<int>>& their_send() const { return their_send_; }

 private:
  struct Run {
    std::size_t begin, end;  // elements [begin, end)
  };
  void make_stale(double* v) const;

  Pattern pattern_;
  DataOptions options_;
  int rank_ = 0;
  bool last_rank_ = false;
  std::vector<std::vector<int>> their_send_;
  std::vector<Run> sent_, ghosts_;
  long stale_element_ = -1;  // the broken hook's ghost
  std::shared_ptr<Rotation> rotation_;  // off-cache: every contender's vectors, shared
  std::uint64_t checksum_ = 0;
};

}  // namespace hympi::bench
