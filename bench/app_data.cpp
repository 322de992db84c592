// SPDX-License-Identifier: BSD-3-Clause
// Compiled with -O3 (bench/CMakeLists.txt): the writes and the checksum are vectorized, as
// an application's compute loops would be; at -O2 gcc 12 leaves them scalar.
#include "app_data.hpp"

#include <mpi.h>

#include <algorithm>
#include <bit>
#include <memory>

#include "neighbor_swap.hpp"

namespace hympi::bench {
namespace {

constexpr double kElementStep = 4096.0;       // 2^12: iterations mod 4096 below it
constexpr double kRankStep = 1099511627776.0;  // 2^40: elements below 2^28

double base(int rank, std::uint32_t iteration) {
  return double(rank & 8191) * kRankStep + double(iteration & 4095u);
}

/// The elements of the listed points (chunk values each), sorted, as maximal runs.
template <class Run>
std::vector<Run> runs_of(std::vector<std::size_t> elements) {
  std::sort(elements.begin(), elements.end());
  elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
  std::vector<Run> runs;
  for (std::size_t e : elements) {
    if (!runs.empty() && runs.back().end == e)
      ++runs.back().end;
    else
      runs.push_back({e, e + 1});
  }
  return runs;
}

std::vector<std::size_t> elements_of(const std::vector<int>& ids, int chunk) {
  std::vector<std::size_t> out;
  for (int id : ids)
    for (int c = 0; c < chunk; ++c) out.push_back(std::size_t(id) * std::size_t(chunk) + std::size_t(c));
  return out;
}

}  // namespace

const char* name_of(DataMode mode) { return mode == DataMode::fresh ? "fresh" : "cached"; }

const char* describe(DataMode mode) {
  return mode == DataMode::fresh
             ? "fresh data (every call: sent points written with new values, ghosts read)"
             : "CACHED DATA: cache-resident best case (unchanged data re-sent, nothing written or read)";
}

std::string describe(const DataOptions& options) {
  std::string text = describe(options.mode);
  if (options.off_cache.on()) text += "; " + options.off_cache.describe();
  return text;
}

AppData::AppData(const Pattern& pattern, DataOptions options)
    : pattern_(pattern), options_(std::move(options)), their_send_(neighbor_send_lists(pattern)) {
  if (options_.off_cache.on()) {
    if (options_.mode == DataMode::cached)
      throw Error("hympi-bench: off-cache timing moves application data through memory, cached data keeps it in the "
                  "cache: use one of --off-cache and --cached-data");
    rotation_ = std::make_shared<Rotation>(std::size_t(pattern.local_points()) * std::size_t(pattern.chunk()) * sizeof(double),
                                           options_.off_cache.region_bytes());
  }
  const Topology& topo = pattern.context().topology();
  rank_ = topo.world_rank();
  last_rank_ = rank_ + 1 == topo.world_size();
  std::vector<std::size_t> sent, ghosts;
  for (const NeighborLists& n : pattern.neighbors()) {
    for (std::size_t e : elements_of(n.send, pattern.chunk())) sent.push_back(e);
    for (std::size_t e : elements_of(n.recv, pattern.chunk())) ghosts.push_back(e);
  }
  if (!ghosts.empty()) {
    std::sort(ghosts.begin(), ghosts.end());
    stale_element_ = long(ghosts[ghosts.size() / 2]);
  }
  sent_ = runs_of<Run>(std::move(sent));
  ghosts_ = runs_of<Run>(std::move(ghosts));
}

double AppData::value(int rank, std::size_t element, std::uint32_t iteration) {
  return base(rank, iteration) + double(element) * kElementStep;
}

void AppData::write_sent(double* v, std::uint32_t iteration) const {
  const double b = base(rank_, iteration);
  for (const Run& r : sent_) {
    const double start = b + double(r.begin) * kElementStep;
    double* out = v + r.begin;
    const int n = int(r.end - r.begin);
    for (int i = 0; i < n; ++i) out[i] = start + double(i) * kElementStep;
  }
}

std::uint64_t AppData::read_ghosts(const double* v) const {
  std::uint64_t sum = 0;
  for (const Run& r : ghosts_)
    for (std::size_t e = r.begin; e < r.end; ++e) sum += std::bit_cast<std::uint64_t>(v[e]);
  return sum;
}

long AppData::first_wrong(const double* v, std::uint32_t iteration) const {
  const std::size_t chunk = std::size_t(pattern_.chunk());
  long first = -1;
  const auto& neighbors = pattern_.neighbors();
  for (std::size_t n = 0; n < neighbors.size(); ++n)
    for (std::size_t j = 0; j < neighbors[n].recv.size(); ++j)
      for (std::size_t c = 0; c < chunk; ++c) {
        const std::size_t ghost = std::size_t(neighbors[n].recv[j]) * chunk + c;
        const std::size_t source = std::size_t(their_send_[n][j]) * chunk + c;
        if (v[ghost] != value(neighbors[n].rank, source, iteration) && (first < 0 || long(ghost) < first))
          first = long(ghost);
      }
  return first;
}

void AppData::make_stale(double* v) const {
  if (last_rank_ && stale_element_ >= 0) v[stale_element_] -= 1.0;  // the previous iteration's value
}

Contender AppData::contender(const std::string& name, VectorAt vector_at, Exchange exchange) {
  const bool broken = name == options_.broken;
  auto iteration = std::make_shared<std::uint32_t>(0);
  Contender c{name, {}, {}};
  if (exchange)
    c.check = [this, vector_at, iteration] { return first_wrong(vector_at(*iteration), *iteration); };
  if (options_.mode == DataMode::cached) {
    write_sent(vector_at(0), 0);
    c.call = [this, vector_at, exchange, broken] {
      if (!exchange) return;
      double* v = vector_at(0);
      exchange(v, 0);
      if (broken) make_stale(v);
    };
    return c;
  }
  c.call = [this, vector_at, exchange, broken, iteration] {
    const std::uint32_t k = ++*iteration;
    double* v = vector_at(k);
    write_sent(v, k);
    if (exchange) exchange(v, k);
    if (broken) make_stale(v);
    checksum_ += read_ghosts(v);
  };
  return c;
}

Contender AppData::contender(const std::string& name, double* v, Exchange exchange) {
  if (rotation_) return contender(name, [r = rotation_](std::uint32_t k) { return r->at(k); }, std::move(exchange));
  return contender(name, [v](std::uint32_t) { return v; }, std::move(exchange));
}

std::uint64_t AppData::checksum() const {
  std::uint64_t total = 0;
  MPI_Reduce(&checksum_, &total, 1, MPI_UINT64_T, MPI_SUM, 0, pattern_.context().topology().world());
  return total;
}

}  // namespace hympi::bench
