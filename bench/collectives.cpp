// SPDX-License-Identifier: BSD-3-Clause
#include "collectives.hpp"

#include <mpi.h>

#include <algorithm>
#include <memory>

namespace hympi::bench {
namespace {

/// A Context like `base` with one option changed, for a variant in the same launch.
std::unique_ptr<Context> variant(const Context& base, void (*change)(Options&)) {
  Options o = base.options();
  change(o);
  return std::make_unique<Context>(base.topology().world(), o);
}

}  // namespace

nlohmann::json bench_barrier(Context& ctx, const Method& method) {
  auto seq_cst = variant(ctx, [](Options& o) { o.orders = MemoryOrders::seq_cst; });
  auto combining = variant(ctx, [](Options& o) { o.barrier = BarrierAlgorithm::combining; });
  auto alg2 = variant(ctx, [](Options& o) { o.barrier = BarrierAlgorithm::counter_tree; });
  auto alg1 = variant(ctx, [](Options& o) { o.barrier = BarrierAlgorithm::counter_flat; });
  MPI_Comm comm = ctx.topology().world();
  std::vector<Contender> contenders{
      {"hympi", [&] { ctx.barrier(); }},
      {"hympi-seq_cst", [&] { seq_cst->barrier(); }},
      {"hympi-combining", [&] { combining->barrier(); }},
      {"hympi-counter_tree(Alg2)", [&] { alg2->barrier(); }},
      {"hympi-counter_flat(Alg1)", [&] { alg1->barrier(); }},
      {"MPI_Barrier", [&] { MPI_Barrier(comm); }},
  };
  auto samples = measure(ctx, contenders, method);
  return report("barrier", 0, contenders, samples, method);
}

nlohmann::json bench_allreduce(Context& ctx, const Method& method, const std::vector<std::size_t>& sizes,
                               DataMode mode, const OffCache& off_cache) {
  auto seq_cst = variant(ctx, [](Options& o) { o.orders = MemoryOrders::seq_cst; });
  MPI_Comm comm = ctx.topology().world();
  const double rank = ctx.topology().world_rank();
  nlohmann::json records = nlohmann::json::array();
  for (std::size_t bytes : sizes) {
    const std::size_t count = std::max<std::size_t>(1, bytes / sizeof(double));
    // In cache: one input and one output. Off-cache: call k's pair at the k-th place of
    // the region, the output right after the input.
    std::unique_ptr<Rotation> places;
    if (off_cache.on()) places = std::make_unique<Rotation>(2 * count * sizeof(double), off_cache.region_bytes());
    std::vector<double> fixed(2 * count, 1.0 + rank);
    double call = 0, checksum = 0;
    // Around every call of every contender alike: a new input, the result read.
    auto fresh = [&](auto reduce) {
      return [&, reduce] {
        call += 1;
        double* in = places ? places->at(std::uint32_t(call)) : fixed.data();
        double* out = in + count;
        if (mode == DataMode::fresh)
          for (std::size_t i = 0; i < count; ++i) in[i] = rank + call + double(i & 7);
        reduce(in, out);
        if (mode == DataMode::fresh)
          for (std::size_t i = 0; i < count; ++i) checksum += out[i];
      };
    };
    std::vector<Contender> contenders{
        {"hympi", fresh([&](double* in, double* out) { ctx.allreduce(in, out, count, Op::sum); })}};
    if (count == 1)
      contenders.push_back(
          {"hympi-seq_cst", fresh([&](double* in, double* out) { seq_cst->allreduce(in, out, count, Op::sum); })});
    contenders.push_back({"MPI_Allreduce", fresh([&](double* in, double* out) {
                            MPI_Allreduce(in, out, int(count), MPI_DOUBLE, MPI_SUM, comm);
                          })});
    // Large messages: fewer inner calls, same number of samples.
    Method m = method;
    if (bytes >= (64u << 10)) m.inner = std::max(1, method.inner / 10);
    nlohmann::json record =
        report("allreduce", count * sizeof(double), contenders, measure(ctx, contenders, m), m, off_cache.describe());
    record["data"] = name_of(mode);
    off_cache.annotate(record);
    record["checksum"] = checksum;
    records.push_back(std::move(record));
  }
  return records;
}

nlohmann::json bench_affinity(Context& ctx, const Method& method) {
  auto rank_order = variant(ctx, [](Options& o) { o.topology_aware = false; });
  MPI_Comm comm = ctx.topology().world();
  double in = 1.0 + ctx.topology().world_rank(), out = 0;
  std::vector<Contender> contenders{
      {"hympi(tree by socket/L3)", [&] { ctx.allreduce(&in, &out, 1, Op::sum); }},
      {"hympi(tree by rank)", [&] { rank_order->allreduce(&in, &out, 1, Op::sum); }},
      {"MPI_Allreduce", [&] { MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, comm); }},
  };
  return report("affinity-allreduce", sizeof(double), contenders, measure(ctx, contenders, method), method);
}

}  // namespace hympi::bench
