// SPDX-License-Identifier: BSD-3-Clause
#include "method.hpp"

#include <fmt/core.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hympi::bench {

Stats stats_of(const std::vector<double>& s) {
  Stats st{};
  if (s.empty()) return st;
  std::vector<double> sorted(s);
  std::sort(sorted.begin(), sorted.end());
  st.min_us = sorted.front();
  st.max_us = sorted.back();
  st.median_us = sorted[sorted.size() / 2];
  st.avg_us = std::accumulate(s.begin(), s.end(), 0.0) / double(s.size());
  double var = 0;
  for (double x : s) var += (x - st.avg_us) * (x - st.avg_us);
  st.sd_us = std::sqrt(var / double(s.size()));
  st.extremes = int(std::count_if(s.begin(), s.end(), [&](double x) { return x > 10 * st.min_us; }));
  return st;
}

namespace {

/// Warm-up calls of a checked contender, each followed by its check: new data in each
/// (a parity bug shows on the second call).
constexpr int kCheckedWarmups = 3;

/// One warm-up round; every rank learns every rank's first wrong element per contender
/// and keeps the lowest rank that saw one. Rank 0 reports them.
std::vector<Wrong> warm_up(MPI_Comm comm, const std::vector<Contender>& contenders) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::size_t n = contenders.size();
  std::vector<long> mine(n, -1);
  for (std::size_t c = 0; c < n; ++c)
    for (int i = 0; i < (contenders[c].check ? kCheckedWarmups : 1); ++i) {  // first-touch, connections
      contenders[c].call();
      if (contenders[c].check && mine[c] < 0) mine[c] = contenders[c].check();
    }
  std::vector<long> all(n * std::size_t(size));
  MPI_Allgather(mine.data(), int(n), MPI_LONG, all.data(), int(n), MPI_LONG, comm);
  std::vector<Wrong> wrong(n);
  for (std::size_t c = 0; c < n; ++c) {
    int ranks = 0;
    for (int r = size - 1; r >= 0; --r)
      if (const long index = all[std::size_t(r) * n + c]; index >= 0) {
        wrong[c] = {r, index};
        ++ranks;
      }
    if (rank == 0 && wrong[c].any())
      fmt::print("# WRONG: {}: rank {} holds a wrong value at element {} after the update ({} of {} ranks wrong): "
                 "not timed\n",
                 contenders[c].name, wrong[c].rank, wrong[c].index, ranks, size);
  }
  return wrong;
}

}  // namespace

std::vector<std::vector<double>> measure(Context& sync, const std::vector<Contender>& contenders,
                                         const Method& method, std::vector<Wrong>* wrong) {
  std::vector<std::vector<double>> samples(contenders.size());
  MPI_Comm comm = sync.topology().world();
  const std::vector<Wrong> verdicts = warm_up(comm, contenders);
  if (wrong) *wrong = verdicts;
  for (int k = 0; k < method.outer; ++k) {
    for (std::size_t c = 0; c < contenders.size(); ++c) {
      if (verdicts[c].any()) continue;
      for (int i = 0; i < 10; ++i) sync.barrier();
      const double start = MPI_Wtime();
      for (int i = 0; i < method.inner; ++i) contenders[c].call();
      double mean_us = (MPI_Wtime() - start) / method.inner * 1e6, worst = 0;
      MPI_Reduce(&mean_us, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
      samples[c].push_back(worst);
    }
  }
  return samples;
}

RatioStats ratio_of(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> r;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) r.push_back(a[k] / b[k]);
  if (r.empty()) return {0, 0, 0};
  std::sort(r.begin(), r.end());
  auto at = [&](double q) { return r[std::size_t(q * double(r.size() - 1))]; };
  return {at(0.5), at(0.25), at(0.75)};
}

nlohmann::json report(const std::string& benchmark, std::size_t bytes,
                      const std::vector<Contender>& contenders,
                      const std::vector<std::vector<double>>& samples, const Method& method,
                      const std::string& note) {
  nlohmann::json record{{"benchmark", benchmark}, {"bytes", bytes}, {"outer", method.outer},
                        {"inner", method.inner}, {"results", nlohmann::json::array()}};
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    fmt::print("# {} {} B{}\n# {:<26}{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}{:>12}\n", benchmark, bytes,
               note.empty() ? "" : ", " + note, "Implementation", "Avg(us)", "Min(us)", "Max(us)", "Med(us)",
               "SD(us)", "Extremes", "Iterations");
  }
  for (std::size_t c = 0; c < contenders.size(); ++c) {
    if (samples[c].empty()) {
      if (rank == 0) fmt::print("{:<28}  not timed: wrong values in the warm-up\n", contenders[c].name);
      record["results"].push_back({{"implementation", contenders[c].name}, {"valid", false}});
      continue;
    }
    Stats st = stats_of(samples[c]);
    if (rank == 0)
      fmt::print("{:<28}{:>10.3f}{:>10.3f}{:>10.3f}{:>10.3f}{:>10.3f}{:>10}{:>12}\n",
                 contenders[c].name, st.avg_us, st.min_us, st.max_us, st.median_us, st.sd_us,
                 st.extremes, method.outer * method.inner);
    nlohmann::json result{{"implementation", contenders[c].name}, {"valid", true}, {"avg_us", st.avg_us},
                          {"min_us", st.min_us}, {"max_us", st.max_us},
                          {"median_us", st.median_us}, {"sd_us", st.sd_us},
                          {"extremes", st.extremes}, {"samples_us", samples[c]}};
    record["results"].push_back(result);
  }
  if (rank == 0) {
    // Each contender against the last one (the MPI library's own operation), pair by pair.
    for (std::size_t c = 0; c + 1 < contenders.size(); ++c) {
      if (samples[c].empty() || samples.back().empty()) continue;
      RatioStats r = ratio_of(samples[c], samples.back());
      fmt::print("# ratio {} / {}: median {:.3f} (25-75%: {:.3f}-{:.3f})\n", contenders[c].name,
                 contenders.back().name, r.median, r.q25, r.q75);
      record["results"][c]["ratio_to_" + contenders.back().name] = r;
    }
    fmt::print("\n");
  }
  return record;
}

void report_peer_ratios(nlohmann::json& record, const std::vector<Contender>& contenders,
                        const std::vector<std::vector<double>>& samples, std::size_t hympi_count,
                        const std::vector<std::size_t>& peers) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  bool printed = false;
  for (std::size_t a = 0; a < hympi_count; ++a)
    for (std::size_t b : peers) {
      if (samples[a].empty() || samples[b].empty()) continue;
      const RatioStats r = ratio_of(samples[a], samples[b]);
      record["results"][a]["ratio_to_" + contenders[b].name] = r;
      if (rank == 0)
        fmt::print("# ratio {} / {}: median {:.3f} (25-75%: {:.3f}-{:.3f})\n", contenders[a].name,
                   contenders[b].name, r.median, r.q25, r.q75);
      printed = true;
    }
  if (rank == 0 && printed) fmt::print("\n");
}

}  // namespace hympi::bench
