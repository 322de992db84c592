// SPDX-License-Identifier: BSD-3-Clause
#include "halo.hpp"

#include <fmt/core.h>
#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "ghost_bench.hpp"
#include "hympi/halo.hpp"

namespace hympi::bench {
namespace {

/// The ring pattern: `points` owned points per neighbour direction, then the ghosts.
/// Contiguous: each neighbour's send and receive ids are ranges. Gathered: both lists
/// are random permutations of those ranges (the worst case for packing).
std::vector<NeighborLists> ring_lists(const Topology& topo, int points, bool gathered, int& local_points) {
  const int me = topo.world_rank(), size = topo.world_size();
  std::vector<int> peers;
  if (size > 1) peers.push_back((me + 1) % size);
  if (size > 2) peers.push_back((me + size - 1) % size);
  const int owned = points * int(peers.size());
  local_points = owned + points * int(peers.size());
  std::mt19937 gen(unsigned(me) * 7u + 1u);
  std::vector<NeighborLists> lists;
  for (std::size_t i = 0; i < peers.size(); ++i) {
    NeighborLists n{peers[i], std::vector<int>(std::size_t(points)), std::vector<int>(std::size_t(points))};
    std::iota(n.send.begin(), n.send.end(), int(i) * points);
    std::iota(n.recv.begin(), n.recv.end(), owned + int(i) * points);
    if (gathered) {
      std::shuffle(n.send.begin(), n.send.end(), gen);
      std::shuffle(n.recv.begin(), n.recv.end(), gen);
    }
    lists.push_back(std::move(n));
  }
  return lists;  // the i-th value sent lands in the i-th ghost listed: any order is a valid pattern
}

void busy_work(long iterations) {
  volatile double x = 0;
  for (long i = 0; i < iterations; ++i) x = x + 1e-9 * double(i);
}

/// Work iterations that take about `target_us` on this rank.
long calibrate_work(double target_us) {
  long n = 1000;
  for (;;) {
    const double start = MPI_Wtime();
    busy_work(n);
    const double us = (MPI_Wtime() - start) * 1e6;
    if (us > 200 || n > (1L << 30)) return std::max(1L, long(double(n) * target_us / us));
    n *= 4;
  }
}

}  // namespace

Pattern ring_pattern(Context& ctx, std::size_t bytes, bool gathered) {
  const int points = int(std::max<std::size_t>(1, bytes / sizeof(double)));
  int local_points = 0;
  std::vector<NeighborLists> lists = ring_lists(ctx.topology(), points, gathered, local_points);
  return Pattern::from_lists(ctx, local_points, std::move(lists));
}

nlohmann::json bench_halo(Context& ctx, const Method& method, const std::vector<std::size_t>& sizes,
                          const DataOptions& data) {
  nlohmann::json records = nlohmann::json::array();
  const Topology& topo = ctx.topology();
  const bool root = topo.world_rank() == 0;
  const Lineup lineup{{Strategy::shm, Strategy::shm_direct, Strategy::aggregated},
                      {Strategy::neighbor, Strategy::rma_fence, Strategy::rma_pscw, Strategy::rma_lock,
                       Strategy::rma_lock_target}};
  for (bool gathered : {false, true})
    for (std::size_t bytes : sizes) {
      Pattern pattern = ring_pattern(ctx, bytes, gathered);
      Method m = method;
      if (bytes >= (256u << 10)) m.inner = std::max(1, method.inner / 10);
      nlohmann::json record = compare_ghost_updates(ctx, m, pattern, lineup, data,
                                                    gathered ? "halo-gathered" : "halo-contiguous", bytes);
      record["neighbors"] = pattern.neighbors().size();
      records.push_back(record);
    }

  // Split phase: begin, work as long as the update itself, end (OSU's overlap), on the
  // same application data: write, begin, work, end, read.
  if (root)
    fmt::print("# halo-overlap (contiguous): work between begin and end as long as the update; {}\n"
               "# {:<14}{:>10}{:>12}{:>10}{:>10}{:>12}\n",
               describe(data), "Strategy", "Size(B)", "Update(us)", "Work(us)", "Total(us)", "Overlap(%)");
  nlohmann::json overlap = {
      {"benchmark", "halo-overlap"}, {"data", name_of(data.mode)}, {"results", nlohmann::json::array()}};
  data.off_cache.annotate(overlap);
  std::uint64_t checksum = 0;
  for (std::size_t bytes : {std::size_t(64) << 10, std::size_t(1) << 20}) {
    Pattern pattern = ring_pattern(ctx, bytes, false);
    const int local_points = pattern.local_points();
    AppData app(pattern, data);
    for (Strategy s :
         {Strategy::shm, Strategy::shm_direct, Strategy::aggregated, Strategy::flat_mpi, Strategy::neighbor}) {
      if (s == Strategy::shm_direct && app.off_cache()) continue;  // its vector cannot rotate
      Halo halo(pattern, s);
      std::vector<double> storage(std::size_t(local_points), 0.0);
      double* v = s == Strategy::shm_direct ? halo.shared_field<double>() : storage.data();
      Method m = method;
      m.inner = std::max(1, method.inner / 10);
      const std::string name = name_of(s);
      auto update =
          measure(ctx, {app.contender(name + " update", v, [&](double* x, std::uint32_t) { halo.update(x); })}, m);
      if (update[0].empty()) continue;  // wrong: reported by measure
      double update_us = stats_of(update[0]).median_us;
      MPI_Bcast(&update_us, 1, MPI_DOUBLE, 0, topo.world());
      const long work = calibrate_work(update_us);
      auto split = measure(ctx,
                           {{"work", [&] { busy_work(work); }},
                            app.contender(name + " begin+work+end", v,
                                          [&](double* x, std::uint32_t) {
                                            halo.begin(x);
                                            busy_work(work);
                                            halo.end(x);
                                          })},
                           m);
      if (split[1].empty()) continue;
      const double work_us = stats_of(split[0]).median_us, total_us = stats_of(split[1]).median_us;
      const double percent = std::clamp(100.0 * (1.0 - (total_us - work_us) / update_us), 0.0, 100.0);
      if (root)
        fmt::print("{:<16}{:>10}{:>12.2f}{:>10.2f}{:>10.2f}{:>12.1f}\n", name_of(s), bytes, update_us, work_us,
                   total_us, percent);
      overlap["results"].push_back({{"strategy", name_of(s)}, {"bytes", bytes}, {"update_us", update_us},
                                    {"work_us", work_us}, {"total_us", total_us}, {"overlap_percent", percent}});
    }
    checksum += app.checksum();
  }
  if (root) fmt::print("\n");
  overlap["checksum"] = fmt::format("{:#x}", checksum);
  records.push_back(overlap);
  return records;
}

}  // namespace hympi::bench
