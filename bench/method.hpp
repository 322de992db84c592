// SPDX-License-Identifier: BSD-3-Clause
// The measurement method of Quaranta & Maddegedara (2021), Section 4.1, for every
// benchmark (docs/design.md, section 6):
//  - synchronize with 10 hympi barriers (better time synchronization than MPI_Barrier);
//  - `outer` samples of `inner` back-to-back calls; a sample is the max over ranks of the
//    per-call mean of the inner loop;
//  - report min / avg / max / SD over the samples and count extremes (> 10x min);
//  - contenders run interleaved inside one launch (A, B, A, B, ...), so the ratio of
//    each pair of samples is taken under the same machine conditions.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hympi/context.hpp"

namespace hympi::bench {

struct Contender {
  std::string name;
  std::function<void()> call;  // one operation; collective over the communicator
  /// Optional: after a call, the first wrong value this rank holds (an element index),
  /// or -1. Asked after each warm-up call; a contender wrong on any rank is not timed.
  std::function<long()> check = {};
};

/// Where a contender's check failed in the warm-up: the lowest such rank, its first
/// wrong element; rank -1: right everywhere (or not checked).
struct Wrong {
  int rank = -1;
  long index = -1;
  bool any() const { return rank >= 0; }
};

struct Stats {
  double min_us, avg_us, max_us, sd_us, median_us;
  int extremes;
};

Stats stats_of(const std::vector<double>& samples_us);

struct Method {
  int outer = 100;
  int inner = 100;
};

/// Warm-up (with the contenders' checks), then runs them interleaved; returns
/// samples_us[contender][outer] (max over ranks, valid on rank 0). A contender whose
/// check fails on any rank is reported (rank 0 prints it), not timed (no samples) and
/// described in `wrong` when given (one entry per contender, the same on every rank).
std::vector<std::vector<double>> measure(Context& sync, const std::vector<Contender>& contenders,
                                         const Method& method, std::vector<Wrong>* wrong = nullptr);

/// Median and spread (25th-75th percentile) of per-sample ratios a[k] / b[k].
struct RatioStats {
  double median, q25, q75;
};
/// {"median", "q25", "q75"} in the JSON records (nlohmann's conversion: json j = r).
inline void to_json(nlohmann::json& j, const RatioStats& r) { j = {{"median", r.median}, {"q25", r.q25}, {"q75", r.q75}}; }
RatioStats ratio_of(const std::vector<double>& a, const std::vector<double>& b);

/// Prints one OSU-style table (rank 0), `note` after its title, and returns its JSON
/// record. A contender without samples (wrong in the warm-up) is listed as not timed,
/// "valid": false, and left out of the ratios.
nlohmann::json report(const std::string& benchmark, std::size_t bytes,
                      const std::vector<Contender>& contenders,
                      const std::vector<std::vector<double>>& samples, const Method& method,
                      const std::string& note = {});

/// The first `hympi_count` contenders (hympi's) against each contender in `peers` (indices;
/// the reference, the last one, is already in report()): printed (rank 0) and added to
/// `record` as ratio_to_<peer>.
void report_peer_ratios(nlohmann::json& record, const std::vector<Contender>& contenders,
                        const std::vector<std::vector<double>>& samples, std::size_t hympi_count,
                        const std::vector<std::size_t>& peers);

}  // namespace hympi::bench
