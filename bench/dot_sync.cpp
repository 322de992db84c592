// SPDX-License-Identifier: BSD-3-Clause
#include "dot_sync.hpp"

#include <fmt/core.h>
#include <mpi.h>
#include <time.h>

#include <algorithm>
#include <vector>

namespace hympi::bench {
namespace {

float local_dot(const std::vector<float>& x, const std::vector<float>& y) {
  float sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sum += x[i] * y[i];
  return sum;
}

/// CLOCK_MONOTONIC is one clock for every process of a host.
double now_us() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) * 1e6 + double(t.tv_nsec) * 1e-3;
}

}  // namespace

nlohmann::json bench_dot(Context& ctx, const Method& method) {
  MPI_Comm comm = ctx.topology().world();
  const bool root = ctx.topology().world_rank() == 0;
  nlohmann::json rows = nlohmann::json::array();
  if (root)
    fmt::print("# dot product, FP32, MFLOP/s per core (2n flops per call; median of samples)\n"
               "# {:>10}{:>14}{:>14}{:>14}{:>12}\n", "n", "no-comm", "hympi", "MPI", "hympi/MPI");
  for (std::size_t n = 16; n <= (std::size_t(1) << 22); n *= 4) {
    std::vector<float> x(n, 1.0f), y(n, 0.5f);
    volatile float sink = 0;
    std::vector<Contender> contenders{
        {"no-comm", [&] { sink = local_dot(x, y); }},
        {"hympi", [&] { sink = ctx.allreduce(local_dot(x, y), Op::sum); }},
        {"MPI", [&] {
           float local = local_dot(x, y), global = 0;
           MPI_Allreduce(&local, &global, 1, MPI_FLOAT, MPI_SUM, comm);
           sink = global;
         }}};
    Method m = method;
    if (n >= (std::size_t(1) << 18)) m.inner = std::max(1, method.inner / 10);
    auto samples = measure(ctx, contenders, m);
    nlohmann::json row{{"n", n}};
    std::vector<double> mflops;
    for (std::size_t c = 0; c < contenders.size(); ++c) {
      double median = stats_of(samples[c]).median_us;
      mflops.push_back(2.0 * double(n) / median);  // flops per microsecond = MFLOP/s
      row[contenders[c].name + "_mflops"] = mflops.back();
      row[contenders[c].name + "_samples_us"] = samples[c];
    }
    if (root) fmt::print("{:>12}{:>14.1f}{:>14.1f}{:>14.1f}{:>12.3f}\n", n, mflops[0], mflops[1], mflops[2], mflops[1] / mflops[2]);
    rows.push_back(row);
  }
  if (root) fmt::print("\n");
  return {{"benchmark", "dot"}, {"rows", rows}};
}

nlohmann::json bench_sync(Context& ctx, int repetitions) {
  MPI_Comm comm = ctx.topology().world();
  const bool root = ctx.topology().world_rank() == 0;
  nlohmann::json result{{"benchmark", "sync"}};
  if (root)
    fmt::print("# time synchronization: first MPI_Barrier after 100 barriers of each kind\n"
               "# {:<22}{:>16}{:>16}{:>18}{:>18}\n", "after 100 x", "first med(us)", "first max(us)",
               "exit spread med", "exit spread max");
  for (bool use_hympi : {false, true}) {
    std::vector<double> first, spread;
    for (int r = 0; r < repetitions; ++r) {
      for (int i = 0; i < 100; ++i) use_hympi ? ctx.barrier() : (void)MPI_Barrier(comm);
      const double left = now_us();
      MPI_Barrier(comm);
      double took = now_us() - left, worst = 0, earliest = 0, latest = 0;
      MPI_Reduce(&took, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
      MPI_Reduce(&left, &earliest, 1, MPI_DOUBLE, MPI_MIN, 0, comm);
      MPI_Reduce(&left, &latest, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
      first.push_back(worst);
      spread.push_back(latest - earliest);
    }
    const char* name = use_hympi ? "hympi barrier" : "MPI_Barrier";
    Stats f = stats_of(first), s = stats_of(spread);
    if (root) fmt::print("  {:<22}{:>16.3f}{:>16.3f}{:>18.3f}{:>18.3f}\n", name, f.median_us, f.max_us, s.median_us, s.max_us);
    result[use_hympi ? "hympi" : "mpi"] = {{"first_barrier_us", first}, {"exit_spread_us", spread}};
  }
  if (root) fmt::print("\n");
  return result;
}

}  // namespace hympi::bench
