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

/// Runs the contenders interleaved; returns samples_us[contender][outer] (max over ranks,
/// valid on rank 0).
std::vector<std::vector<double>> measure(Context& sync, const std::vector<Contender>& contenders,
                                         const Method& method);

/// Median and spread (25th-75th percentile) of per-sample ratios a[k] / b[k].
struct RatioStats {
  double median, q25, q75;
};
RatioStats ratio_of(const std::vector<double>& a, const std::vector<double>& b);

/// Prints one OSU-style table (rank 0) and returns its JSON record.
nlohmann::json report(const std::string& benchmark, std::size_t bytes,
                      const std::vector<Contender>& contenders,
                      const std::vector<std::vector<double>>& samples, const Method& method);

/// The first `hympi_count` contenders (hympi's) against each peer between them and the
/// reference (the last one, already in report()): printed (rank 0) and added to `record`.
void report_peer_ratios(nlohmann::json& record, const std::vector<Contender>& contenders,
                        const std::vector<std::vector<double>>& samples, std::size_t hympi_count);

}  // namespace hympi::bench
