// SPDX-License-Identifier: BSD-3-Clause
#include "collectives.hpp"

#include <fmt/core.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/coll/tree.hpp"
#include "mpi/coll/core_config.hpp"
#include "mpi/node/domains.hpp"

namespace hympi::bench {
namespace {

/// A Context like `base` with one option changed, for a variant in the same launch.
std::unique_ptr<Context> variant(const Context& base, void (*change)(Options&)) {
  Options o = base.options();
  change(o);
  return std::make_unique<Context>(base.topology().world(), o);
}

/// The two trees of `affinity` on this node (hympi's shapes: src/core/coll/tree.hpp), with their
/// depth and how many parent-child edges cross a socket / L3 domain. Collective on the node.
nlohmann::json affinity_trees(const Context& ctx) {
  const core::TreeSpec spec = mpi::tree_spec(ctx.options());
  const std::vector<std::vector<int>> groups = mpi::domain_groups(ctx.topology().node());
  std::vector<int> domain_of(std::size_t(ctx.topology().node_size()));
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (int r : groups[g]) domain_of[std::size_t(r)] = int(g);
  auto shape = [&](const core::Tree& tree) {
    int crossing = 0;
    for (int n = 0; n < tree.size(); ++n)
      if (n != tree.root()) crossing += domain_of[std::size_t(n)] != domain_of[std::size_t(tree.parent(n))];
    return nlohmann::json{{"depth", tree.depth()}, {"edges_across_domains", crossing}};
  };
  nlohmann::json trees{{"domains", groups.size()},
                       {"by socket/L3", shape(core::Tree::build(spec, groups))},
                       {"by rank", shape(core::Tree::build(spec, ctx.topology().node_size()))}};
  if (ctx.topology().world_rank() == 0)
    fmt::print("# trees over {} domains: by socket/L3 depth {}, {} edges across domains; by rank depth {}, {} across\n",
               groups.size(), trees["by socket/L3"]["depth"].get<int>(),
               trees["by socket/L3"]["edges_across_domains"].get<int>(), trees["by rank"]["depth"].get<int>(),
               trees["by rank"]["edges_across_domains"].get<int>());
  return trees;
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

nlohmann::json bench_collective(Context& ctx, const Method& method, Collective op,
                                const std::vector<std::size_t>& sizes, const DataOptions& data) {
  const DataMode mode = data.mode;
  const OffCache& off_cache = data.off_cache;
  auto seq_cst = variant(ctx, [](Options& o) { o.orders = MemoryOrders::seq_cst; });
  MPI_Comm comm = ctx.topology().world();
  const double rank = ctx.topology().world_rank();
  const int ranks = ctx.topology().world_size();
  // Fresh data, per operation (root 0): who writes a new input before every call, and
  // where the result is read after it.
  //   allreduce  everyone writes `in`, reads `out`
  //   bcast      the root writes `in` (the data), the others read it there
  //   reduce     everyone writes `in`, the root reads `out`
  const bool root = rank == 0;
  const bool writes = op == Collective::bcast ? root : true;
  const bool reads = op == Collective::allreduce || (op == Collective::bcast ? !root : root);
  const bool reads_in = op == Collective::bcast;
  nlohmann::json records = nlohmann::json::array();
  for (std::size_t bytes : sizes) {
    const std::size_t count = std::max<std::size_t>(1, bytes / sizeof(double));
    // In cache: one input and one output. Off-cache: call k's pair at the k-th place of
    // the region, the output right after the input.
    std::unique_ptr<Rotation> places;
    if (off_cache.on()) places = std::make_unique<Rotation>(2 * count * sizeof(double), off_cache.region_bytes());
    // In cache: the input, and the output `gap` doubles after it; with a page offset each
    // starts that many bytes after a 4 KiB boundary.
    constexpr std::size_t kPage = 4096, kPageDoubles = kPage / sizeof(double);
    const bool placed = data.page_offset >= 0;
    const std::size_t gap = placed ? (count + kPageDoubles - 1) / kPageDoubles * kPageDoubles : count;
    std::vector<double> fixed(gap + count + (placed ? kPageDoubles : 0), 1.0 + rank);
    double* start = fixed.data();
    if (placed) {
      const auto address = reinterpret_cast<std::uintptr_t>(start);
      start += ((kPage - address % kPage) % kPage + std::size_t(data.page_offset)) % kPage / sizeof(double);
    }
    double call = 0, checksum = 0;
    double *last_in = nullptr, *last_out = nullptr;  // the last call's buffers, for check
    // Around every call of every contender alike: a new input, the result read.
    auto fresh = [&](auto run) {
      return [&, run] {
        call += 1;
        double* in = places ? places->at(std::uint32_t(call)) : start;
        double* out = in + gap;
        last_in = in;
        last_out = out;
        if (mode == DataMode::fresh && writes)
          for (std::size_t i = 0; i < count; ++i) in[i] = rank + call + double(i & 7);
        run(in, out);
        const double* result = reads_in ? in : out;
        if (mode == DataMode::fresh && reads)
          for (std::size_t i = 0; i < count; ++i) checksum += result[i];
      };
    };
    auto hympi = [&, op, count](Context& c) {
      return fresh([&c, op, count](double* in, double* out) {
        if (op == Collective::allreduce) c.allreduce(in, out, count, Op::sum);
        if (op == Collective::bcast) c.bcast(in, count, 0);
        if (op == Collective::reduce) c.reduce(in, out, count, Op::sum, 0);
      });
    };
    // After a warm-up call: the first element this rank received wrong (-1: none). Rank r's
    // input of the last call, element i, as `fresh` wrote it (or left it: cached data).
    auto input = [&](int r, std::size_t i) { return mode == DataMode::fresh ? r + call + double(i & 7) : 1.0 + r; };
    auto check = [&]() -> long {
      if (!reads) return -1;
      const double* got = reads_in ? last_in : last_out;
      for (std::size_t i = 0; i < count; ++i) {
        double expect = op == Collective::bcast ? input(0, i) : 0.0;
        for (int r = 0; op != Collective::bcast && r < ranks; ++r) expect += input(r, i);  // small integers: exact
        if (got[i] != expect) return long(i);
      }
      return -1;
    };
    std::vector<Contender> contenders{{"hympi", hympi(ctx), check}};
    if (count == 1) contenders.push_back({"hympi-seq_cst", hympi(*seq_cst), check});
    contenders.push_back({names_of(op).mpi,
                          fresh([&, op, count](double* in, double* out) {
                            if (op == Collective::allreduce) MPI_Allreduce(in, out, int(count), MPI_DOUBLE, MPI_SUM, comm);
                            if (op == Collective::bcast) MPI_Bcast(in, int(count), MPI_DOUBLE, 0, comm);
                            if (op == Collective::reduce) MPI_Reduce(in, out, int(count), MPI_DOUBLE, MPI_SUM, 0, comm);
                          }),
                          check});
    const std::string where =
        placed ? fmt::format("buffers {} B after a 4 KiB boundary", data.page_offset) : off_cache.describe();
    // Large messages: fewer inner calls, same number of samples.
    Method m = method;
    if (bytes >= (64u << 10)) m.inner = std::max(1, method.inner / 10);
    const auto samples = measure(ctx, contenders, m);
    nlohmann::json record = report(names_of(op).name, count * sizeof(double), contenders, samples, m, where);
    record["data"] = name_of(mode);
    if (placed) record["page_offset"] = data.page_offset;
    off_cache.annotate(record);
    MPI_Allreduce(MPI_IN_PLACE, &checksum, 1, MPI_DOUBLE, MPI_SUM, comm);  // what every rank read
    record["checksum"] = checksum;
    records.push_back(std::move(record));
  }
  return records;
}

nlohmann::json bench_affinity(Context& ctx, const Method& method) {
  auto rank_order = variant(ctx, [](Options& o) { o.topology_aware = false; });
  MPI_Comm comm = ctx.topology().world();
  const double rank = ctx.topology().world_rank();
  const nlohmann::json trees = affinity_trees(ctx);
  const char* emulated = std::getenv("HYMPI_EMULATE_SOCKETS");
  nlohmann::json records = nlohmann::json::array();
  for (const std::size_t count : {std::size_t(1), std::size_t(128)}) {
    std::vector<double> in(count), out(count);
    double call = 0, checksum = 0;
    // Around every call of every contender alike: a new input, the result read.
    auto fresh = [&](auto reduce) {
      return [&, reduce] {
        call += 1;
        for (std::size_t i = 0; i < count; ++i) in[i] = rank + call + double(i);
        reduce();
        for (const double v : out) checksum += v;
      };
    };
    const int n = int(count);
    std::vector<Contender> contenders{
        {"hympi(tree by socket/L3)", fresh([&] { ctx.allreduce(in.data(), out.data(), count, Op::sum); })},
        {"hympi(tree by rank)", fresh([&] { rank_order->allreduce(in.data(), out.data(), count, Op::sum); })},
        {"MPI_Allreduce", fresh([&] { MPI_Allreduce(in.data(), out.data(), n, MPI_DOUBLE, MPI_SUM, comm); })},
    };
    nlohmann::json record = report("affinity-allreduce", count * sizeof(double), contenders,
                                   measure(ctx, contenders, method), method);
    record["data"] = name_of(DataMode::fresh);
    record["checksum"] = checksum;
    record["sockets"] = emulated && *emulated ? std::string("emulated ") + emulated : std::string("hwloc");
    record["trees"] = trees;
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace hympi::bench
