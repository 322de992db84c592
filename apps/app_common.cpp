// SPDX-License-Identifier: BSD-3-Clause
#include "app_common.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "hympi/hympi.hpp"
#include "threads.hpp"

namespace hympi::apps {

void add_common_options(CLI::App& app, CommonOptions& o) {
  app.add_option("--strategy", o.strategy, "ghost-update strategy (shm, flat_mpi, aggregated, ...)");
  app.add_option("--iterations", o.iterations, "iterations")->check(CLI::PositiveNumber);
  app.add_option("--check-every", o.check_every, "residual every this many iterations")->check(CLI::PositiveNumber);
  app.add_option("--placement", o.placement,
                 "first-touch (private arrays, each rank its own), shared (a noncontig shared window, each segment "
                 "touched by its owner) or rank0 (one contiguous shared region, touched by node rank 0)")
      ->check(CLI::IsMember({"first-touch", "shared", "rank0"}));
  app.add_flag("--verify", o.verify, "gather the result and compare it with a serial run on rank 0");
  app.add_flag("--separate-wait", o.separate_wait,
               "a barrier before each ghost update and reduction, timed apart: their times are then the exchange alone");
  app.add_option("--threads", o.threads,
                 "OpenMP threads per rank for the compute loops (the MPI+OpenMP baseline: one rank per node)")
      ->check(CLI::Range(1, kMaxThreads));
}

std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  app.set_version_flag("--version", hympi::configuration());
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank == 0 ? app.exit(e) : (e.get_exit_code() != 0);
  }
  return std::nullopt;
}

int app_main(int argc, char** argv, int (*run)(int, char**)) {
  int provided = 0;  // only the master thread calls MPI (threads.hpp)
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int status = 0;
  try {
    status = run(argc, argv);
  } catch (const Error& e) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) fmt::print(stderr, "{}\n", e.what());
    status = 2;
  }
  MPI_Finalize();
  return status;
}

Arrays::Arrays(const Context& ctx, const std::string& placement, int arrays, std::size_t count) {
  const Topology& topo = ctx.topology();
  if (placement == "first-touch") {
    for (int i = 0; i < arrays; ++i) {
      own_.emplace_back(new double[count]);  // first written here, by the thread that computes on it
      double* a = own_.back().get();
      in_parallel(count, [a](std::size_t first, std::size_t last) { std::fill(a + first, a + last, 0.0); });
      pointers_.push_back(a);
    }
    return;
  }
  if (placement == "shared") {  // each segment page-aligned, zeroed by its owner (SharedWindow)
    window_ = std::make_unique<SharedWindow>(topo.node(), std::size_t(arrays) * count * sizeof(double));
    for (int i = 0; i < arrays; ++i) pointers_.push_back(reinterpret_cast<double*>(window_->local()) + std::size_t(i) * count);
    return;
  }
  // rank0: one region for the node, packed without padding, written by node rank 0.
  std::vector<unsigned long long> counts(std::size_t(topo.node_size()));
  unsigned long long mine = count;
  MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, counts.data(), 1, MPI_UNSIGNED_LONG_LONG, topo.node());
  unsigned long long total = 0, before = 0;
  for (int q = 0; q < topo.node_size(); ++q) {
    if (q < topo.node_rank()) before += counts[std::size_t(q)];
    total += counts[std::size_t(q)];
  }
  const std::size_t bytes = topo.node_rank() == 0 ? std::size_t(total) * std::size_t(arrays) * sizeof(double) : 0;
  window_ = std::make_unique<SharedWindow>(topo.node(), bytes);
  auto* base = reinterpret_cast<double*>(window_->segment(0));
  if (topo.node_rank() == 0) std::fill(base, base + total * std::size_t(arrays), 0.0);
  MPI_Barrier(topo.node());
  for (int i = 0; i < arrays; ++i) pointers_.push_back(base + std::size_t(i) * total + before);
}

void ghost_update(Context& ctx, Halo& halo, double* v, bool separate_wait, Split& split) {
  if (separate_wait) timed(split.wait, [&] { ctx.barrier(); });
  timed(split.ghost, [&] { halo.update(v); });
}

double reduce(Context& ctx, double value, Op op, bool separate_wait, Split& split) {
  if (separate_wait) timed(split.wait, [&] { ctx.barrier(); });
  timed(split.reduce, [&] { value = ctx.allreduce(value, op); });
  return value;
}

IterationTimes per_iteration(const Context& ctx, const Split& split, int iterations) {
  double mine[5] = {split.compute, split.ghost, split.reduce, split.wait, split.loop}, worst[5];
  MPI_Allreduce(mine, worst, 5, MPI_DOUBLE, MPI_MAX, ctx.topology().world());
  const double per = 1e6 / iterations, total = worst[0] + worst[1] + worst[2];
  return {worst[0] * per, worst[1] * per, worst[2] * per, worst[3] * per,
          total > 0 ? 100.0 * (worst[1] + worst[2]) / total : 0.0, worst[4] * per};
}

void report(const Context& ctx, const std::string& app, const std::string& strategy, int threads, int iterations,
            double residual, double checksum, const Split& split) {
  const IterationTimes t = per_iteration(ctx, split, iterations);
  if (ctx.topology().world_rank() != 0) return;
  if (t.wait_us > 0) fmt::print("# waiting for other ranks before ghost updates and reductions: {:.2f} us per iteration\n", t.wait_us);
  fmt::print("# {}  strategy={}  ranks={}  nodes={}  threads per rank={}\n", app, strategy, ctx.topology().world_size(),
             ctx.topology().node_count(), threads);
  fmt::print("iterations {}\nresidual {:.12e}\nchecksum {:.15e}\n", iterations, residual, checksum);
  // Every bit of both, for the comparisons with examples/ and other runs.
  fmt::print("bits residual {:016X} checksum {:016X}\n", std::bit_cast<std::uint64_t>(residual),
             std::bit_cast<std::uint64_t>(checksum));
  fmt::print("# per iteration (us, max over ranks)   compute {:.2f}   ghost update {:.2f}   reductions {:.2f}"
             "   communication share {:.1f} %   whole iteration {:.2f}\n",
             t.compute_us, t.ghost_us, t.reduce_us, t.share_percent, t.iteration_us);
}

}  // namespace hympi::apps
